//! The agent registry of one "view" (the files opencode loads together when started in one
//! directory) and the checks that need it. Rules: `invalid-default-agent`, `unknown-agent`,
//! `duplicate-agent`, `unknown-skill`, `undescribed-subagent` (`overridden-deny`, in
//! `overridden.rs`, runs beside these in the same unit).
//!
//! Merge order (§2.2, §8): config layers and Markdown agents are deep-merged in the order the
//! caller gives (global first, nearest project last, then each config directory's Markdown
//! agents); `mode.<name>` entries are merged after everything; then the merged entries are
//! applied to the 7 built-ins in first-appearance order: `disable: true` removes an agent, other
//! fields override only when set, a new agent starts as `mode: all`.

use super::schema::BUILTIN_AGENTS;
use super::{DeclOrigin, Facts, RefKind};
use crate::analysis::diagnostic::{Diagnostic, Location, Severity};
pub use crate::analysis::provenance::{Source, Sourced};
use crate::analysis::rules::Code;
use crate::analysis::suggest::closest;
use crate::analysis::syntax::Parsed;
use crate::analysis::text::Span;

/// One file of a view, in precedence order (later wins).
#[derive(Clone, Copy)]
pub struct ViewFile<'a> {
    /// The caller's id for the file; diagnostics are returned against it.
    pub file: usize,
    /// The file's syntax tree.
    pub parsed: &'a Parsed,
    /// What the file declares.
    pub facts: &'a Facts,
    /// Files of one config directory share a group; two Markdown files of one group that
    /// define the same agent are reported (across directories, a later layer overriding an
    /// earlier one is the normal way to customise an agent).
    pub group: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RegisteredAgent {
    pub name: String,
    pub native: bool,
    pub mode: Sourced<String>,
    pub hidden: Sourced<bool>,
    /// Set when `disable: true` removed the agent; it is then not usable.
    pub disabled: Option<Source>,
    /// Every declaration of this name, in merge order.
    pub definitions: Vec<Source>,
}

#[derive(Clone, Debug, Default)]
pub struct Registry {
    /// Agents in opencode's insertion order (built-ins first), disabled ones included.
    pub agents: Vec<RegisteredAgent>,
}

impl Registry {
    pub fn get(&self, name: &str) -> Option<&RegisteredAgent> {
        self.agents.iter().find(|a| a.name == name)
    }

    /// A name → agent index, for many lookups.
    pub fn index(&self) -> crate::analysis::hash::FxHashMap<&str, &RegisteredAgent> {
        self.agents.iter().map(|a| (a.name.as_str(), a)).collect()
    }

    /// Names of agents that are not disabled.
    pub fn active_names(&self) -> impl Iterator<Item = &str> {
        self.agents
            .iter()
            .filter(|a| a.disabled.is_none())
            .map(|a| a.name.as_str())
    }
}

#[derive(Default)]
struct Merged {
    name: String,
    mode: Option<Sourced<String>>,
    hidden: Option<Sourced<bool>>,
    disable: Option<Sourced<bool>>,
    defs: Vec<Source>,
}

/// The agent declarations of a view grouped by name, in opencode's merge order: names in
/// first-appearance order, each with its declarations in layer order, `mode.<name>` entries
/// after all layers. The registry and the effective agent both fold these.
///
/// Markdown files of one folder (`agents/` or `modes/` of one config directory) that carry the
/// same name do not merge: opencode keeps one object per name for the folder, so the file read
/// last replaces the others entirely (read in path order here).
pub fn declarations_in_merge_order<'a>(view: &[ViewFile<'a>]) -> Vec<(&'a str, Vec<(usize, &'a super::AgentDecl)>)> {
    declarations_of(view, None)
}

/// [`declarations_in_merge_order`] of the names in `only`.
pub fn declarations_named<'a>(
    view: &[ViewFile<'a>],
    only: &crate::analysis::hash::FxHashSet<&str>,
) -> Vec<(&'a str, Vec<(usize, &'a super::AgentDecl)>)> {
    declarations_of(view, Some(only))
}

/// [`declarations_in_merge_order`], for the names in `only` when given.
fn declarations_of<'a>(
    view: &[ViewFile<'a>],
    only: Option<&crate::analysis::hash::FxHashSet<&str>>,
) -> Vec<(&'a str, Vec<(usize, &'a super::AgentDecl)>)> {
    let mut merged: Vec<(&'a str, Vec<(usize, &'a super::AgentDecl)>)> = Vec::new();
    let mut index: crate::analysis::hash::FxHashMap<&'a str, usize> = crate::analysis::hash::FxHashMap::default();
    // Per name: the group of the Markdown declaration last pushed, if it is the last one.
    let mut last_md: crate::analysis::hash::FxHashMap<&'a str, (usize, DeclOrigin)> =
        crate::analysis::hash::FxHashMap::default();
    for late in [false, true] {
        for vf in view {
            for decl in &vf.facts.agents {
                if (decl.origin == DeclOrigin::ModeKey) != late {
                    continue;
                }
                let name = decl.name.as_str();
                if only.is_some_and(|o| !o.contains(name)) {
                    continue;
                }
                let i = *index.entry(name).or_insert_with(|| {
                    merged.push((name, Vec::new()));
                    merged.len() - 1
                });
                let markdown = matches!(decl.origin, DeclOrigin::Markdown | DeclOrigin::ModeFile);
                if markdown && last_md.get(name) == Some(&(vf.group, decl.origin)) {
                    if let Some(slot) = merged[i].1.last_mut() {
                        *slot = (vf.file, decl);
                    }
                    continue;
                }
                merged[i].1.push((vf.file, decl));
                if markdown {
                    last_md.insert(name, (vf.group, decl.origin));
                } else {
                    last_md.remove(name);
                }
            }
        }
    }
    merged
}

pub fn registry(view: &[ViewFile]) -> Registry {
    registry_of(view, None)
}

/// The registry restricted to the built-ins and the names in `only` (when given): what a check
/// that looks up a few names needs, at a fraction of the cost in a view of thousands of agents.
fn registry_of(view: &[ViewFile], only: Option<&crate::analysis::hash::FxHashSet<&str>>) -> Registry {
    let mut merged: Vec<Merged> = Vec::new();
    for (name, decls) in declarations_of(view, only) {
        let mut m = Merged {
            name: name.to_string(),
            ..Merged::default()
        };
        for (file, decl) in decls {
            let at = |span: Span| Source::File { file, span };
            m.defs.push(at(decl.span));
            if let Some((mode, span)) = decl.mode() {
                m.mode = Some(Sourced {
                    value: mode.to_string(),
                    source: at(span.unwrap_or(decl.span)),
                });
            }
            if let Some((hidden, span)) = decl.bool_field("hidden") {
                m.hidden = Some(Sourced {
                    value: hidden,
                    source: at(span),
                });
            }
            if let Some((disable, span)) = decl.bool_field("disable") {
                m.disable = Some(Sourced {
                    value: disable,
                    source: at(span),
                });
            }
        }
        merged.push(m);
    }
    let mut agents: Vec<RegisteredAgent> = BUILTIN_AGENTS
        .iter()
        .map(|b| RegisteredAgent {
            name: b.name.to_string(),
            native: true,
            mode: Sourced {
                value: b.mode.to_string(),
                source: Source::BuiltIn,
            },
            hidden: Sourced {
                value: b.hidden,
                source: Source::BuiltIn,
            },
            disabled: None,
            definitions: vec![Source::BuiltIn],
        })
        .collect();
    let mut by_name: crate::analysis::hash::FxHashMap<String, usize> =
        agents.iter().enumerate().map(|(i, a)| (a.name.clone(), i)).collect();
    for m in merged {
        let idx = match by_name.get(&m.name) {
            Some(&i) => i,
            None => {
                by_name.insert(m.name.clone(), agents.len());
                agents.push(RegisteredAgent {
                    name: m.name.clone(),
                    native: false,
                    mode: Sourced {
                        value: "all".to_string(),
                        source: m.defs.first().copied().unwrap_or(Source::BuiltIn),
                    },
                    hidden: Sourced {
                        value: false,
                        source: Source::BuiltIn,
                    },
                    disabled: None,
                    definitions: Vec::new(),
                });
                agents.len() - 1
            }
        };
        let a = &mut agents[idx];
        a.definitions.extend(m.defs);
        if let Some(d) = m.disable.filter(|d| d.value) {
            a.disabled = Some(d.source);
            continue;
        }
        if let Some(mode) = m.mode {
            a.mode = mode;
        }
        if let Some(hidden) = m.hidden {
            a.hidden = hidden;
        }
    }
    Registry { agents }
}

/// Cross-file checks of one view. Diagnostics come back with the id of the file they belong to.
pub fn check(view: &[ViewFile]) -> Vec<(usize, Diagnostic)> {
    check_and_reads(view).0
}

/// [`check`], and the agents whose settings it read, with the files declaring them (of the
/// others only their names, references, `disable`, reading and skill patterns count: what
/// `cross::names_key` hashes).
pub fn check_and_reads(view: &[ViewFile]) -> (Vec<(usize, Diagnostic)>, Vec<usize>, Vec<String>) {
    let mut out = Vec::new();
    let plugins = view.iter().any(|vf| vf.facts.has_plugins);
    // default_agent: the last layer that sets it wins; only that value matters.
    let winner = view
        .iter()
        .flat_map(|vf| vf.facts.refs.iter().map(move |r| (vf.file, r)))
        .rfind(|(_, r)| r.kind == RefKind::DefaultAgent);
    // The names these checks look up; the whole registry only for a "did you mean".
    let mut needed: crate::analysis::hash::FxHashSet<&str> = crate::analysis::hash::FxHashSet::default();
    needed.extend(winner.map(|(_, r)| r.name.as_str()));
    for vf in view {
        needed.extend(
            vf.facts
                .refs
                .iter()
                .filter(|r| r.kind == RefKind::CommandAgent)
                .map(|r| r.name.as_str()),
        );
        if vf.facts.reading == Some(super::markdown::Reading::NoFrontmatter) {
            needed.extend(vf.facts.agents.iter().map(|d| d.name.as_str()));
        }
    }
    let reads: Vec<usize> = view
        .iter()
        .filter(|vf| vf.facts.agents.iter().any(|d| needed.contains(d.name.as_str())))
        .map(|vf| vf.file)
        .collect();
    // The agents the Task tool lists without a description: their mode, `disable` and
    // description are in `names_key`, so they are looked up without reading their files whole.
    let undescribed = undescribed_names(view);
    let mut looked_up = needed.clone();
    looked_up.extend(undescribed.iter().map(|u| u.key));
    let reg = registry_of(view, Some(&looked_up));
    let full: std::cell::OnceCell<Registry> = std::cell::OnceCell::new();
    let all = || full.get_or_init(|| registry(view));
    if let Some((file, r)) = winner
        && let Some(d) = check_default_agent(&reg, &all, &r.name, r.span, plugins)
    {
        out.push((file, d));
    }
    let by_name = reg.index();
    for vf in view {
        for r in vf.facts.refs.iter().filter(|r| r.kind == RefKind::CommandAgent) {
            if by_name.get(r.name.as_str()).is_some_and(|a| a.disabled.is_none()) {
                continue;
            }
            let suggestion = closest(&r.name, all().active_names());
            out.push((
                vf.file,
                Diagnostic::new(
                    Code::UnknownAgent,
                    r.span,
                    format!(
                        "no agent \"{}\" is defined{}; running this command fails with `Agent not found`.{}",
                        r.name,
                        if plugins { " here (a plugin may define it)" } else { "" },
                        crate::analysis::suggest::did_you_mean(suggestion)
                    ),
                ),
            ));
        }
    }
    duplicate_markdown_agents(view, &mut out);
    markdown_without_frontmatter(view, &reg, &mut out);
    undescribed_subagents(&undescribed, &by_name, &mut out);
    let mut names: Vec<String> = needed.into_iter().map(str::to_string).collect();
    names.sort_unstable();
    (out, reads, names)
}

/// The `skill` permission maps a view writes: the config's top-level one and each agent's, with
/// the file that writes them.
fn skill_permissions<'a>(view: &[ViewFile<'a>]) -> Vec<(usize, &'a crate::analysis::syntax::Map)> {
    let skill_map = |node: Option<&'a crate::analysis::syntax::Node>| {
        node.and_then(|n| n.as_map())
            .and_then(|m| m.value("skill"))
            .and_then(|n| n.as_map())
    };
    let mut out = Vec::new();
    for vf in view {
        let a = vf.facts;
        // A Markdown file whose settings opencode cannot read sets no permission.
        if a.agents.iter().any(|d| d.whole_file) {
            continue;
        }
        let root = vf.parsed.root.as_ref();
        out.extend(skill_map(root.and_then(|r| r.as_map()).and_then(|m| m.value("permission"))).map(|m| (vf.file, m)));
        for d in a
            .agents
            .iter()
            .filter(|d| matches!(d.origin, DeclOrigin::AgentKey | DeclOrigin::ModeKey))
        {
            out.extend(skill_map(d.field("permission")).map(|m| (vf.file, m)));
        }
    }
    out
}

/// Whether a config of the view loads skills from places this analysis does not read
/// (`skills.paths`, `skills.urls`): then any skill name may exist.
pub fn has_skill_sources(view: &[ViewFile]) -> bool {
    view.iter().any(|vf| {
        // A config file (a Markdown file has a frontmatter split).
        vf.facts.split.is_none() && lists_skill_sources(vf.parsed.root.as_ref())
    })
}

/// Whether a config's root lists skill sources: a non-empty `skills.paths` or `skills.urls`.
pub fn lists_skill_sources(root: Option<&crate::analysis::syntax::Node>) -> bool {
    root.and_then(|r| r.as_map())
        .and_then(|m| m.value("skills"))
        .and_then(|n| n.as_map())
        .is_some_and(|m| {
            ["paths", "urls"].iter().any(|k| {
                m.value(k)
                    .is_some_and(|n| matches!(&n.value, crate::analysis::syntax::Value::Seq(s) if !s.is_empty()))
            })
        })
}

/// opencode's built-in skill, always there.
pub const BUILTIN_SKILL: &str = "customize-opencode";

/// `unknown-skill`: a `skill` permission pattern that matches none of `found` (the names of the
/// `SKILL.md` files opencode started in this view's directory finds) nor the built-in skill.
/// Patterns are matched as opencode matches them (`*`, `?`); a pattern of wildcards only matches
/// any name.
///
/// Skills also come from places no project file shows (a teammate's `~/.agents/skills`, a CI
/// machine without them), so the finding is graded: a warning with a fix when the pattern is a
/// near miss of a skill that exists (a typo); otherwise a hint-level info, and only when the
/// project has skills of its own to compare with; nothing when it has none.
pub fn check_skill_patterns(view: &[ViewFile], found: &[&str]) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    if has_skill_sources(view) {
        return out;
    }
    let mut skills: Vec<&str> = found.to_vec();
    skills.push(BUILTIN_SKILL);
    for (file, map) in skill_permissions(view) {
        for e in map.entries.iter() {
            let pattern = e.key.name.as_str();
            if pattern.chars().all(|c| c == '*' || c == '?') && !pattern.is_empty() {
                continue;
            }
            if skills
                .iter()
                .any(|s| crate::analysis::permission::wildcard_match(s, pattern))
            {
                continue;
            }
            let Some(near) = crate::analysis::skill::unknown_skill(pattern, &skills, !found.is_empty()) else {
                continue;
            };
            let known = format!(
                "the skills opencode finds here are {}",
                crate::analysis::skill::skill_list(&skills)
            );
            let d = match near {
                Some(n) => {
                    // The key as written: bare (YAML) when its span is its name, quoted otherwise.
                    let bare = (e.key.span.end - e.key.span.start) as usize == pattern.len();
                    let text = if bare {
                        n.to_string()
                    } else {
                        serde_json::to_string(n).unwrap_or_else(|_| format!("\"{n}\""))
                    };
                    Diagnostic::new(
                        Code::UnknownSkill,
                        e.key.span,
                        format!(
                            "the skill pattern `{pattern}` matches no skill, so this rule never applies: {known}.{}",
                            crate::analysis::suggest::did_you_mean(near)
                        ),
                    )
                    .with_suggestion(e.key.span, text)
                }
                None => Diagnostic::new(
                    Code::UnknownSkill,
                    e.key.span,
                    format!(
                        "the skill pattern `{pattern}` matches none of the skills found for this project ({known}); unless the skill is installed elsewhere (a user's skill folders, `skills.paths`), this rule never applies"
                    ),
                )
                .with_severity(Severity::Info),
            };
            out.push((file, d));
        }
    }
    out
}

/// How the declarations of one agent leave its `description`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Described {
    /// No declaration sets one: the built-in's, if any, stays.
    Unset,
    /// The last declaration that sets one sets a blank string (the file and span of that value).
    Blank(usize, Span),
    /// It has one (or one of another type, which a type error reports).
    Yes,
}

/// An agent the Task tool would list without a description.
struct Undescribed<'a> {
    /// Its registry key.
    key: &'a str,
    /// The name the Task tool lists it by.
    shown: &'a str,
    /// Where its blank description is, when it has one.
    blank: Option<(usize, Span)>,
}

/// The agents whose merged `description` is missing or blank, in first-appearance order, each
/// with the name the Task tool lists it by and, for a blank one, where the blank is: a name no
/// built-in has and no declaration describes, or whose last description is blank. Left out:
/// an agent a file declares without a frontmatter opencode reads (`no-frontmatter` and the syntax
/// findings say what is wrong with it), or with a JavaScript one, whose description agent-lsp
/// does not compute.
fn undescribed_names<'a>(view: &[ViewFile<'a>]) -> Vec<Undescribed<'a>> {
    use super::markdown::Reading;
    // First the names some declaration leaves without a description (a blank one included):
    // in most views none, and then nothing is folded.
    let described = |d: &super::AgentDecl| {
        d.field("description")
            .is_some_and(|n| n.as_str().is_none_or(|t| !t.trim().is_empty()))
    };
    let lacking: crate::analysis::hash::FxHashSet<&'a str> = view
        .iter()
        .flat_map(|vf| vf.facts.agents.iter())
        .filter(|d| !described(d))
        .map(|d| d.name.as_str())
        .collect();
    if lacking.is_empty() {
        return Vec::new();
    }
    // Per name: the name the Task tool lists it by (a config entry's `name`, a Markdown file's
    // name), and how it is described (`None`: left out).
    let mut state: crate::analysis::hash::FxHashMap<&'a str, (&'a str, Option<Described>)> = Default::default();
    let mut order: Vec<&'a str> = Vec::new();
    for vf in view {
        let unread = vf.facts.reading == Some(Reading::NoFrontmatter) || vf.facts.scripted;
        for d in &vf.facts.agents {
            let name = d.name.as_str();
            if !lacking.contains(name) {
                continue;
            }
            let (shown, slot) = state.entry(name).or_insert_with(|| {
                order.push(name);
                (name, Some(Described::Unset))
            });
            let display = match d.origin {
                DeclOrigin::Markdown | DeclOrigin::ModeFile => Some(name),
                _ => d.field("name").and_then(crate::analysis::syntax::Node::as_str),
            };
            if let Some(display) = display {
                *shown = display;
            }
            if unread || d.whole_file {
                *slot = None;
            } else if let (Some(current), Some(n)) = (slot.as_mut(), d.field("description")) {
                *current = match n.as_str() {
                    Some(text) if text.trim().is_empty() => Described::Blank(vf.file, n.span),
                    _ => Described::Yes,
                };
            }
        }
    }
    order
        .into_iter()
        .filter_map(|name| {
            let (shown, described) = state.get(name).copied()?;
            let builtin = BUILTIN_AGENTS.iter().any(|b| b.name == name);
            match described? {
                Described::Yes => None,
                Described::Unset if builtin => None,
                Described::Unset => Some(Undescribed {
                    key: name,
                    shown,
                    blank: None,
                }),
                Described::Blank(file, span) => Some(Undescribed {
                    key: name,
                    shown,
                    blank: Some((file, span)),
                }),
            }
        })
        .collect()
}

/// `undescribed-subagent`: an agent the Task tool offers the model (mode `subagent` or `all`,
/// hidden ones included, §9.3) with no description to choose it by. Seen with opencode 1.18.34:
/// the Task tool's description lists it as "This subagent should only be called manually by the
/// user." when it has none, and by its name alone when the description is blank.
fn undescribed_subagents(
    undescribed: &[Undescribed],
    by_name: &crate::analysis::hash::FxHashMap<&str, &RegisteredAgent>,
    out: &mut Vec<(usize, Diagnostic)>,
) {
    for &Undescribed {
        key,
        shown: name,
        blank,
    } in undescribed
    {
        // Offered to the Task tool; a mode opencode refuses is that error's (it does not start).
        let offered =
            |a: &&&RegisteredAgent| a.disabled.is_none() && matches!(a.mode.value.as_str(), "subagent" | "all");
        let Some(agent) = by_name.get(key).filter(offered) else {
            continue;
        };
        let (file, span, message) = match blank {
            Some((file, span)) => (
                file,
                span,
                format!(
                    "the description of \"{name}\" is empty: opencode's Task tool lists it to the model as `- {name}:` and nothing more, so the model has nothing to choose it by. Say what the agent does and when to use it"
                ),
            ),
            None => {
                // On `mode: subagent` where a file writes it, else where the agent is first
                // defined (the registry's source of the default mode).
                let Source::File { file, span } = agent.mode.source else {
                    continue;
                };
                (
                    file,
                    span,
                    format!(
                        "\"{name}\" has no `description`: opencode's Task tool lists it to the model as \"This subagent should only be called manually by the user.\", so the model will not choose it. Add a `description` that says what it does and when to use it"
                    ),
                )
            }
        };
        out.push((file, Diagnostic::new(Code::UndescribedSubagent, span, message)));
    }
}

/// `no-frontmatter`: a Markdown file of an agents folder with no frontmatter is an agent whose
/// prompt is the whole text; say which agent it creates or whose prompt it replaces.
fn markdown_without_frontmatter(view: &[ViewFile], reg: &Registry, out: &mut Vec<(usize, Diagnostic)>) {
    use super::markdown::Reading;
    for vf in view {
        let a = vf.facts;
        let plain =
            a.reading == Some(Reading::NoFrontmatter) && a.split.as_ref().is_some_and(|s| s.misplaced_open.is_none());
        let Some(decl) = a.agents.first().filter(|d| plain && d.origin == DeclOrigin::Markdown) else {
            continue;
        };
        let name = &decl.name;
        let json: Vec<(usize, &super::AgentDecl)> = view
            .iter()
            .flat_map(|o| o.facts.agents.iter().map(move |d| (o.file, d)))
            .filter(|(_, d)| &d.name == name && matches!(d.origin, DeclOrigin::AgentKey | DeclOrigin::ModeKey))
            .collect();
        // A config prompt with the same text (typically `{file:...}` naming this very file) is
        // replaced by itself: nothing changes.
        let config_prompt = json
            .iter()
            .rev()
            .find_map(|(_, d)| d.field("prompt").and_then(|p| p.as_str()));
        // A reference left unresolved (no home directory to expand `~/`) may be that file too.
        if config_prompt.is_some_and(|p| Some(super::prompt_hash(p.trim())) == decl.prompt_hash || p.contains("{file:"))
        {
            continue;
        }
        let json: Vec<(usize, Span)> = json.into_iter().map(|(f, d)| (f, d.span)).collect();
        let builtin = reg.get(name).is_some_and(|r| r.native);
        let d = if let Some(&(file, span)) = json.last() {
            Diagnostic::new(
                Code::NoFrontmatter,
                decl.span,
                format!(
                    "this file has no frontmatter, so opencode takes its whole text as the prompt of agent \"{name}\": it silently replaces the prompt of the \"{name}\" defined in a config file, and sets nothing else. If it is documentation, move it out of the agents folder"
                ),
            )
            .with_effect(super::super::diagnostic::Effect::ValueIgnored)
            .with_related(Location::File { file, span }, format!("\"{name}\" is defined here"))
        } else if builtin {
            Diagnostic::new(
                Code::NoFrontmatter,
                decl.span,
                format!(
                    "no frontmatter: opencode uses this whole text as the prompt of the built-in agent \"{name}\" and changes nothing else about it"
                ),
            )
            .with_severity(Severity::Info)
            .with_effect(super::super::diagnostic::Effect::Works)
        } else {
            Diagnostic::new(
                Code::NoFrontmatter,
                decl.span,
                format!(
                    "this file has no frontmatter, so opencode loads it as an agent \"{name}\" (mode `all`: offered to the Task tool and the `@` menu) whose prompt is this whole text. If it is documentation, move it out of the agents folder; if it is an agent, start it with a `---` frontmatter and a description"
                ),
            )
        };
        out.push((vf.file, d));
    }
}

fn check_default_agent<'r>(
    reg: &Registry,
    all: &dyn Fn() -> &'r Registry,
    name: &str,
    span: Span,
    plugins: bool,
) -> Option<Diagnostic> {
    let Some(agent) = reg.get(name) else {
        let suggestion = closest(name, all().active_names());
        let mut d = Diagnostic::new(
            Code::InvalidDefaultAgent,
            span,
            format!(
                "default agent \"{name}\" not found: no built-in, config or Markdown agent has this name, and opencode fails with `default agent \"{name}\" not found` when it starts a session.{}",
                crate::analysis::suggest::did_you_mean(suggestion)
            ),
        );
        if plugins {
            d.message = format!(
                "default agent \"{name}\" is not defined by any config or Markdown agent here; unless a plugin adds it, opencode fails with `default agent \"{name}\" not found`.{}",
                crate::analysis::suggest::did_you_mean(suggestion)
            );
            d = d.with_severity(Severity::Warning);
        }
        if let Some(s) = suggestion {
            d = d.with_suggestion(span, format!("\"{s}\""));
        }
        return Some(d);
    };
    let defined = |d: Diagnostic| match agent.definitions.iter().rev().find(|s| **s != Source::BuiltIn) {
        Some(src) => d.with_related(src.location(), format!("\"{name}\" is defined here")),
        None => d,
    };
    if let Some(src) = agent.disabled {
        return Some(
            Diagnostic::new(
                Code::InvalidDefaultAgent,
                span,
                format!("default agent \"{name}\" is disabled (`disable: true`), so opencode cannot start with it"),
            )
            .with_related(src.location(), "disabled here"),
        );
    }
    if agent.mode.value == "subagent" {
        let d = Diagnostic::new(
            Code::InvalidDefaultAgent,
            span,
            format!(
                "default agent \"{name}\" is a subagent; opencode fails with `default agent \"{name}\" is a subagent`. Use a primary agent, or give \"{name}\" `mode: primary` or `all`"
            ),
        );
        let d = match agent.mode.source {
            Source::BuiltIn => d,
            src => d.with_related(src.location(), "its mode is set here"),
        };
        return Some(d);
    }
    if agent.hidden.value {
        let d = Diagnostic::new(
            Code::InvalidDefaultAgent,
            span,
            format!("default agent \"{name}\" is hidden; opencode fails with `default agent \"{name}\" is hidden`"),
        );
        let d = match agent.hidden.source {
            Source::BuiltIn => d,
            src => d.with_related(src.location(), "hidden here"),
        };
        return Some(defined(d));
    }
    None
}

fn duplicate_markdown_agents(view: &[ViewFile], out: &mut Vec<(usize, Diagnostic)>) {
    let md: Vec<(usize, usize, &super::AgentDecl)> = view
        .iter()
        .flat_map(|vf| vf.facts.agents.iter().map(move |d| (vf.file, vf.group, d)))
        .filter(|(_, _, d)| matches!(d.origin, DeclOrigin::Markdown | DeclOrigin::ModeFile))
        .collect();
    // Only names declared more than once can collide: count first (no list per name), then
    // list the declarations of the names declared twice or more.
    let mut count: crate::analysis::hash::FxHashMap<(&str, usize), u32> = crate::analysis::hash::FxHashMap::default();
    for (_, group, decl) in &md {
        *count.entry((decl.name.as_str(), *group)).or_default() += 1;
    }
    let mut by_name: crate::analysis::hash::FxHashMap<(&str, usize), Vec<usize>> =
        crate::analysis::hash::FxHashMap::default();
    for (i, (_, group, decl)) in md.iter().enumerate() {
        let key = (decl.name.as_str(), *group);
        if count.get(&key).is_some_and(|n| *n > 1) {
            by_name.entry(key).or_default().push(i);
        }
    }
    for (i, (file, group, decl)) in md.iter().enumerate() {
        let Some(same) = by_name.get(&(decl.name.as_str(), *group)) else {
            continue;
        };
        let others: Vec<(usize, &super::AgentDecl)> = same
            .iter()
            .filter(|&&j| j != i && md[j].0 != *file)
            .map(|&j| (md[j].0, md[j].2))
            .collect();
        if others.is_empty() {
            continue;
        }
        // Files of one folder with one name replace each other; an `agents/` file and a
        // `mode/` file of one directory merge field by field (the mode file last).
        let same_folder: Vec<usize> = same
            .iter()
            .copied()
            .filter(|&j| md[j].2.origin == decl.origin)
            .collect();
        let replaced = same_folder.len() > 1;
        let last = same_folder.last() == Some(&i);
        let n = others.len();
        let files = if n == 1 { "file" } else { "files" };
        let message = if replaced && last {
            format!(
                "agent \"{}\" is also defined by {n} other Markdown {files} of this folder; opencode keeps one definition per name and folder, and this file, read last (in path order), replaces the others entirely: none of their settings apply. Which file is read last follows the file system, so keep one file per agent",
                decl.name
            )
        } else if replaced {
            format!(
                "agent \"{}\" is also defined by {n} other Markdown {files} of this folder; opencode keeps one definition per name and folder, so a file read after this one (in path order) replaces it entirely: none of its settings apply. Which file is read last follows the file system, so keep one file per agent",
                decl.name
            )
        } else {
            format!(
                "agent \"{}\" is also defined in the `agents/` and the `mode/` folder of this directory; opencode merges them field by field, the `mode/` file last (and forces `mode: primary`)",
                decl.name
            )
        };
        let mut d = Diagnostic::new(Code::DuplicateAgent, decl.span, message);
        for (f, other) in others {
            d = d.with_related(
                Location::File {
                    file: f,
                    span: other.span,
                },
                format!("\"{}\" also defined here", other.name),
            );
        }
        out.push((*file, d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::opencode::{Analysis, FileKind, analyze};

    /// One view of these analyses, all in one config directory.
    fn view_of(analyses: &[Analysis]) -> Vec<ViewFile<'_>> {
        analyses
            .iter()
            .enumerate()
            .map(|(file, analysis)| ViewFile {
                file,
                parsed: &analysis.parsed,
                facts: &analysis.facts,
                group: 0,
            })
            .collect()
    }

    fn view_diags(files: &[(FileKind, &str)]) -> Vec<(usize, Diagnostic)> {
        let analyses: Vec<Analysis> = files.iter().map(|(k, t)| analyze(k, t)).collect();
        check(&view_of(&analyses))
    }

    fn agent(name: &str) -> FileKind {
        FileKind::Agent { name: name.into() }
    }

    /// `unknown-skill` findings of a view, as (file, pattern as written, suggested text); a
    /// finding without a suggestion is an info, one with a suggestion a warning.
    fn skill_diags(files: &[(FileKind, &str)], skills: &[&str]) -> Vec<(usize, String, Option<String>)> {
        let analyses: Vec<Analysis> = files.iter().map(|(k, t)| analyze(k, t)).collect();
        check_skill_patterns(&view_of(&analyses), skills)
            .into_iter()
            .map(|(f, d)| {
                assert_eq!(d.code, Code::UnknownSkill);
                let fix = d.suggestion().map(|e| e.text.clone());
                let want = if fix.is_some() {
                    Severity::Warning
                } else {
                    Severity::Info
                };
                assert_eq!(d.severity, want, "{d:?}");
                (f, d.span.text(files[f].1).to_string(), fix)
            })
            .collect()
    }

    #[test]
    fn skill_patterns_must_match_a_skill() {
        let skills = ["tdd", "release-notes"];
        // Top level, an agent entry, a mode entry of a config; a Markdown agent.
        let cfg = r#"{"permission": {"skill": {"tdd": "allow", "release-note": "deny", "*": "ask", "rel*": "allow", "t?d": "allow"}},
            "agent": {"a": {"permission": {"skill": {"tdd-*": "deny", "?": "allow"}}}},
            "mode": {"m": {"permission": {"skill": {"customise-opencode": "allow"}}}}}"#;
        let md = "---\npermission:\n  skill:\n    releasenotes: allow\n    'tdd': deny\n---\nBody\n";
        let got = skill_diags(&[(FileKind::Config, cfg), (agent("b"), md)], &skills);
        assert_eq!(
            got,
            [
                (0, "\"release-note\"".into(), Some("\"release-notes\"".into())),
                (0, "\"tdd-*\"".into(), None),
                (
                    0,
                    "\"customise-opencode\"".into(),
                    Some("\"customize-opencode\"".into())
                ),
                (1, "releasenotes".into(), Some("release-notes".into())),
            ]
        );
        // No skill found at all: only a near miss of the built-in is reported.
        let got = skill_diags(&[(FileKind::Config, cfg), (agent("b"), md)], &[]);
        assert_eq!(
            got,
            [(
                0,
                "\"customise-opencode\"".into(),
                Some("\"customize-opencode\"".into())
            )]
        );
        // A string `skill` value is one rule for `*`: nothing to check.
        assert!(skill_diags(&[(FileKind::Config, r#"{"permission": {"skill": "deny"}}"#)], &[]).is_empty());
    }

    #[test]
    fn skill_patterns_are_not_checked_when_skills_come_from_elsewhere() {
        let cfg =
            |skills: &str| format!(r#"{{"skills": {skills}, "permission": {{"skill": {{"remote-skill": "allow"}}}}}}"#);
        for other in [
            r#"{"paths": ["~/skills"]}"#,
            r#"{"urls": ["https://example.com/skills"]}"#,
        ] {
            assert!(
                skill_diags(&[(FileKind::Config, &cfg(other))], &["tdd"]).is_empty(),
                "{other}"
            );
        }
        for none in [r#"{"paths": []}"#, r#"{}"#, r#"{"paths": "x"}"#] {
            assert_eq!(
                skill_diags(&[(FileKind::Config, &cfg(none))], &["tdd"]).len(),
                1,
                "{none}"
            );
        }
        // A Markdown agent whose settings opencode cannot read sets no rule.
        let lost = "---\npermission:\n  skill:\n    nope: allow\nmodel: a/b\nmodel: c/d\n---\nBody\n";
        assert!(skill_diags(&[(agent("x"), lost)], &["tdd"]).is_empty());
    }

    #[test]
    fn default_agent_resolves_across_files() {
        let cfg = r#"{"default_agent": "rev"}"#;
        let ok = view_diags(&[
            (FileKind::Config, cfg),
            (agent("rev"), "---\nmode: primary\n---\nBody\n"),
        ]);
        assert!(ok.is_empty(), "{ok:#?}");
        let bad = view_diags(&[
            (FileKind::Config, cfg),
            (agent("rev"), "---\ndescription: Reviews.\nmode: subagent\n---\nBody\n"),
        ]);
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].0, 0);
        assert!(bad[0].1.message.contains("is a subagent"));
        assert!(matches!(bad[0].1.related[0].location, Location::File { file: 1, .. }));
    }

    #[test]
    fn default_agent_not_found_hidden_disabled() {
        let d = view_diags(&[(
            FileKind::Config,
            r#"{"default_agent": "revieww", "agent": {"reviewer": {}}}"#,
        )]);
        assert!(d[0].1.message.contains("not found") && d[0].1.message.contains("`reviewer`"));
        let d = view_diags(&[(FileKind::Config, r#"{"default_agent": "general"}"#)]);
        assert!(d[0].1.message.contains("subagent"));
        let d = view_diags(&[(FileKind::Config, r#"{"default_agent": "title"}"#)]);
        assert!(d[0].1.message.contains("hidden"));
        let d = view_diags(&[
            (FileKind::Config, r#"{"agent": {"build": {"disable": true}}}"#),
            (FileKind::Config, r#"{"default_agent": "build"}"#),
        ]);
        assert_eq!(d[0].0, 1);
        assert!(d[0].1.message.contains("disabled"));
        // A later layer re-enables it.
        let d = view_diags(&[
            (FileKind::Config, r#"{"agent": {"build": {"disable": true}}}"#),
            (
                FileKind::Config,
                r#"{"default_agent": "build", "agent": {"build": {"disable": false}}}"#,
            ),
        ]);
        assert!(d.is_empty(), "{d:#?}");
    }

    #[test]
    fn mode_entries_win_over_agent_entries() {
        let d = view_diags(&[(
            FileKind::Config,
            r#"{"default_agent": "x", "agent": {"x": {"mode": "subagent"}}, "mode": {"x": {}}}"#,
        )]);
        assert!(d.is_empty(), "{d:#?}");
    }

    #[test]
    fn plugins_soften_not_found() {
        let d = view_diags(&[(
            FileKind::Config,
            r#"{"default_agent": "sisyphus", "plugin": ["oh-my-opencode"]}"#,
        )]);
        assert_eq!(d[0].1.severity, Severity::Warning);
    }

    #[test]
    fn a_hidden_default_agent_points_at_where_it_is_hidden_and_defined() {
        let md = "---\nmode: primary\nhidden: true\n---\nP\n";
        let d = view_diags(&[
            (FileKind::Config, r#"{"default_agent": "helper"}"#),
            (agent("helper"), md),
        ]);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(d[0].1.message.contains("is hidden"), "{}", d[0].1.message);
        let related: Vec<(&str, Option<usize>)> = d[0]
            .1
            .related
            .iter()
            .map(|r| {
                let file = match r.location {
                    Location::File { file, .. } => Some(file),
                    _ => None,
                };
                (r.message.as_str(), file)
            })
            .collect();
        // Both in the Markdown agent (file 1), the definition that is not the built-in one.
        assert_eq!(
            related,
            [("hidden here", Some(1)), ("\"helper\" is defined here", Some(1))]
        );
    }

    #[test]
    fn duplicate_markdown_agents_and_command_agents() {
        let d = view_diags(&[
            (agent("core/opencoder"), "---\nname: OpenCoder\nmode: primary\n---\nA\n"),
            (agent("eval-runner"), "---\nname: OpenCoder\nmode: primary\n---\nB\n"),
        ]);
        assert_eq!(d.len(), 2);
        assert!(d.iter().all(|(_, d)| d.code == Code::DuplicateAgent));
        let d = view_diags(&[
            (
                FileKind::Config,
                r#"{"command": {"c": {"template": "t", "agent": "steering"}}}"#,
            ),
            (agent("kiro/steering"), "---\nmode: primary\n---\nB\n"),
        ]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].1.code, Code::UnknownAgent);
    }

    /// `undescribed-subagent` findings of a view: (file, the text they sit on, message).
    fn undescribed(files: &[(FileKind, &str)]) -> Vec<(usize, String, String)> {
        view_diags(files)
            .into_iter()
            .filter(|(_, d)| d.code == Code::UndescribedSubagent)
            .map(|(f, d)| {
                assert_eq!(d.severity, Severity::Warning);
                (f, d.span.text(files[f].1).to_string(), d.message)
            })
            .collect()
    }

    #[test]
    fn a_subagent_without_a_description_is_offered_as_manual_only() {
        const MANUAL: &str = "This subagent should only be called manually by the user.";
        // On `mode: subagent`; a config agent (mode `all` by default) on its key; a hidden one
        // is listed all the same.
        let d = undescribed(&[
            (agent("tester"), "---\nmode: subagent\n---\nYou test.\n"),
            (FileKind::Config, r#"{"agent": {"cfg": {"prompt": "x"}}}"#),
            (agent("hid"), "---\nhidden: true\nmode: all\n---\nYou hide.\n"),
        ]);
        let at: Vec<(usize, &str)> = d.iter().map(|(f, t, _)| (*f, t.as_str())).collect();
        assert_eq!(at, [(0, "subagent"), (1, "\"cfg\""), (2, "all")]);
        assert!(d.iter().all(|(_, _, m)| m.contains(MANUAL)), "{d:#?}");
        assert!(d[0].2.starts_with("\"tester\" has no `description`"), "{}", d[0].2);
        // No mode and no name: on the frontmatter's opening line.
        let d = undescribed(&[(agent("plain"), "---\ntemperature: 0.2\n---\nYou plan.\n")]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].1, "---");
    }

    #[test]
    fn a_blank_description_is_on_the_value_and_the_last_one_counts() {
        let d = undescribed(&[(agent("blank"), "---\nmode: subagent\ndescription: \"  \"\n---\nX\n")]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].1, "\"  \"");
        assert!(d[0].2.contains("`- blank:` and nothing more"), "{}", d[0].2);
        // A later layer blanks what an earlier one said: on the blank; the other way round, none.
        let cfg = r#"{"agent": {"rev": {"description": "Reviews code."}}}"#;
        let md = "---\ndescription: ''\n---\nX\n";
        let d = undescribed(&[(FileKind::Config, cfg), (agent("rev"), md)]);
        assert_eq!(
            d.iter().map(|(f, t, _)| (*f, t.as_str())).collect::<Vec<_>>(),
            [(1, "''")]
        );
        assert_eq!(undescribed(&[(agent("rev"), md), (FileKind::Config, cfg)]), []);
        // A built-in's own description cannot be blanked by leaving it out, only by writing one.
        let general = r#"{"agent": {"general": {"description": ""}}}"#;
        assert_eq!(undescribed(&[(FileKind::Config, general)]).len(), 1);
    }

    #[test]
    fn a_described_primary_disabled_or_builtin_agent_gets_nothing() {
        let none = |files: &[(FileKind, &str)]| {
            let d = undescribed(files);
            assert!(d.is_empty(), "{d:#?}");
        };
        // The description comes from another file that defines the agent.
        none(&[
            (
                FileKind::Config,
                r#"{"agent": {"rev": {"description": "Reviews code."}}}"#,
            ),
            (agent("rev"), "---\nmode: subagent\n---\nX\n"),
        ]);
        // Primary agents are not offered to the Task tool; `mode.<name>` and a mode file are.
        none(&[(agent("main"), "---\nmode: primary\n---\nX\n")]);
        // A mode opencode refuses: that error says it.
        none(&[(agent("rev"), "---\nmode: main\n---\nX\n")]);
        none(&[(FileKind::Config, r#"{"mode": {"m": {"prompt": "x"}}}"#)]);
        // Disabled, in any layer after it is defined.
        none(&[
            (agent("old"), "---\nmode: subagent\n---\nX\n"),
            (FileKind::Config, r#"{"agent": {"old": {"disable": true}}}"#),
        ]);
        // A built-in customised without a description keeps its own.
        none(&[(
            FileKind::Config,
            r#"{"agent": {"general": {"temperature": 0.1}, "explore": {}}}"#,
        )]);
        // A description of another type is a type error, not this.
        none(&[(FileKind::Config, r#"{"agent": {"typed": {"description": 3}}}"#)]);
        // No frontmatter: `no-frontmatter` says what is wrong; one opencode loses (`---toml`,
        // a YAML error), the syntax error; one whose settings opencode computes (`---js`) may
        // well describe it.
        none(&[(agent("notes"), "Notes about the agents.\n")]);
        none(&[(agent("t"), "---toml\nmode = \"subagent\"\n---\nP\n")]);
        none(&[(
            agent("j"),
            "---js\n{mode: \"subagent\", description: \"a\" + \"b\"}\n---\nP\n",
        )]);
    }

    #[test]
    fn an_undescribed_subagent_is_named_as_the_task_tool_lists_it() {
        let d = undescribed(&[(
            FileKind::Config,
            r#"{"agent": {"k": {"name": "Display", "mode": "subagent"}}}"#,
        )]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].1, "\"subagent\"");
        assert!(d[0].2.starts_with("\"Display\" has no `description`"), "{}", d[0].2);
        // A Markdown file of the same name takes the name back.
        let d = undescribed(&[
            (FileKind::Config, r#"{"agent": {"k": {"name": "Display"}}}"#),
            (agent("k"), "---\nmode: subagent\n---\nP\n"),
        ]);
        assert_eq!(d.len(), 1);
        assert!(d[0].2.starts_with("\"k\" has no"), "{}", d[0].2);
    }

    #[test]
    fn markdown_without_frontmatter() {
        let d = view_diags(&[(agent("README"), "# Our agents\n")]);
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].1.code, d[0].1.severity), (Code::NoFrontmatter, Severity::Warning));
        assert!(d[0].1.message.contains("agent \"README\""), "{}", d[0].1.message);
        // Replacing a JSON agent's prompt names the definition.
        let d = view_diags(&[
            (FileKind::Config, r#"{"agent": {"doc": {"prompt": "Be brief."}}}"#),
            (agent("doc"), "Notes\n"),
        ]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].0, 1);
        assert!(d[0].1.message.contains("replaces the prompt"), "{}", d[0].1.message);
        assert!(matches!(d[0].1.related[0].location, Location::File { file: 0, .. }));
        // The same text as the config prompt (a `{file:}` of this very file), or a reference
        // that could not be resolved: nothing to report.
        for prompt in ["  Notes ", "{file:~/.config/opencode/agents/doc.md}"] {
            let config = format!(r#"{{"agent": {{"doc": {{"prompt": "{prompt}"}}}}}}"#);
            let d = view_diags(&[(FileKind::Config, config.as_str()), (agent("doc"), "Notes\n")]);
            assert!(d.is_empty(), "{d:#?}");
        }
        // A built-in's prompt replaced on purpose is information only.
        let d = view_diags(&[(agent("build"), "House rules.\n")]);
        assert_eq!(d[0].1.severity, Severity::Info);
        // A frontmatter, even after a blank line (reported as misplaced), is not this rule.
        assert!(view_diags(&[(agent("x"), "\n---\nmode: subagent\n---\nP\n")]).is_empty());
    }

    #[test]
    fn same_name_markdown_files_of_one_folder_replace_each_other() {
        let files = [
            (
                agent("a"),
                "---\nname: shared\ntemperature: 0.1\nmode: subagent\n---\nA\n",
            ),
            (agent("b"), "---\nname: shared\n---\nB\n"),
        ];
        let analyses: Vec<Analysis> = files.iter().map(|(k, t)| analyze(k, t)).collect();
        let view = view_of(&analyses);
        let decls = declarations_in_merge_order(&view);
        assert_eq!(decls[0].1.len(), 1);
        assert_eq!(decls[0].1[0].0, 1);
        assert_eq!(registry(&view).get("shared").unwrap().mode.value, "all");
        let d = check(&view);
        assert!(
            d[0].1.message.contains("a file read after this one"),
            "{}",
            d[0].1.message
        );
        assert!(d[1].1.message.contains("read last"), "{}", d[1].1.message);
    }
}
