//! Team policies (`[[policy]]` in `agent-lsp.toml`) run over every agent the project file
//! governs, in every dialect, and their findings placed.
//!
//! A project file's policies are judged against the agents of the runtimes started in its
//! directory and below: opencode's effective agents of every view there, Claude Code's agents
//! with the project's settings rules, Zuno's merged agents. Each (policy, agent, tool) is
//! proved by the solver (`analysis/policy`); identical questions (the same patterns, limit and
//! ruleset, as built-in agents ask in every view) are answered once and remembered.
//!
//! A violation is reported on the rule that lets the input through; when a default decides
//! (no rule matches), on the agent's definition; for a built-in agent no file touches, on the
//! policy's `id` in the project file. Agents failing one policy at one place make one finding.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Workspace;
use crate::analysis::diagnostic::Location;
use crate::analysis::policy::judge::{self, Ruleset, Verdict};
use crate::analysis::policy::solve::{Action, Decider, Order, Outcome};
use crate::analysis::policy::spec::Policy;
use crate::analysis::provenance::Source;
use crate::analysis::{Code, Diagnostic, Dialect, Severity};

/// An agent's rulesets for one permission, by tool (see `ExplainedAgent::rulesets`).
type Rulesets = Vec<(String, Ruleset)>;

/// One policy judged for one agent and tool.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The index of the policy in its project file.
    pub policy: usize,
    pub agent: String,
    pub dialect: Dialect,
    /// The permission or tool the ruleset is about (`bash`, `Bash`, `shell`).
    pub tool: String,
    pub ruleset: Ruleset,
    pub verdict: Arc<Verdict>,
    /// The agent's last definition in a file (`None`: a built-in no file touches).
    pub defined_at: Option<Source>,
}

fn question_key(policy: &Policy, r: &Ruleset) -> u64 {
    let mut h = crate::analysis::hash::FxHasher::default();
    for (p, _) in &policy.inputs {
        p.hash(&mut h);
    }
    h.write_u8(0xff);
    for rule in &r.rules {
        (&rule.pattern, rule.action).hash(&mut h);
    }
    h.write_u8(0xfe);
    match r.order {
        Order::LastMatch { default } => (0u8, default, false).hash(&mut h),
        Order::Claude { default, split } => (1u8, default, split).hash(&mut h),
    }
    (r.syntax as u8).hash(&mut h);
    r.home.hash(&mut h);
    r.root.hash(&mut h);
    policy.at_most.hash(&mut h);
    h.finish()
}

impl Workspace {
    /// The project files that hold policies, with their directories.
    pub fn policy_files(&self) -> Vec<(usize, PathBuf)> {
        self.project_files
            .iter()
            .copied()
            .filter(|&id| self.files[id].live)
            .filter(|&id| {
                self.files[id]
                    .analysis
                    .project()
                    .is_some_and(|p| !p.policies.is_empty())
            })
            .filter_map(|id| Some((id, self.files[id].path.parent()?.to_path_buf())))
            .collect()
    }

    /// Every policy of project file `pid` (in `dir`) judged for every agent it selects (what
    /// hover and the tests read; the cross-file units split the same work by file).
    pub fn judge_policies(&self, pid: usize, dir: &Path) -> Vec<Judged> {
        let Some(project) = self.files[pid].analysis.project() else {
            return Vec::new();
        };
        let gathered = self.governed_agents(dir);
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for group in &gathered {
            self.judge_agents(&project.policies, group.agents().into_iter(), &mut seen, &mut out);
        }
        out
    }

    /// Judge every policy that selects them for `agents`, once per agent (`seen`).
    fn judge_agents<'a>(
        &self,
        policies: &[Policy],
        agents: impl Iterator<Item = super::dialects::ExplainedAgent<'a>>,
        seen: &mut std::collections::HashSet<(Dialect, String)>,
        out: &mut Vec<Judged>,
    ) {
        let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
        for a in agents {
            if !seen.insert((a.dialect, a.name.to_string())) {
                continue;
            }
            // One ruleset per permission, shared by the policies about it.
            let mut rulesets: Vec<(&str, Option<Rulesets>)> = Vec::new();
            for (i, policy) in policies.iter().enumerate() {
                if !policy.selects(a.name, a.dialect.as_str(), a.mode()) {
                    continue;
                }
                let at = match rulesets.iter().position(|(p, _)| *p == policy.permission) {
                    Some(at) => at,
                    None => {
                        rulesets.push((
                            &policy.permission,
                            a.rulesets(self, &policy.permission, home.as_deref()),
                        ));
                        rulesets.len() - 1
                    }
                };
                for (tool, ruleset) in rulesets[at].1.iter().flatten() {
                    let verdict = self.verdict(policy, ruleset);
                    out.push(Judged {
                        policy: i,
                        agent: a.name.to_string(),
                        dialect: a.dialect,
                        tool: tool.clone(),
                        ruleset: ruleset.clone(),
                        verdict,
                        defined_at: a.defined_at(),
                    });
                }
            }
        }
    }

    /// The cross-file units of project file `pid`'s policies (in `dir`): one per part a dialect
    /// splits its agents into (an opencode Markdown agent file, judged from its view's config
    /// files and itself: a keystroke in it costs that agent; see `DialectSpec::policy_parts`),
    /// and one for every other agent.
    pub(super) fn policy_units(&self, pid: usize, dir: &Path) -> Vec<super::UnitDef> {
        use super::{Unit, UnitDef};
        let mut out = Vec::new();
        let mut parts: std::collections::BTreeSet<usize> = std::collections::BTreeSet::new();
        for d in Dialect::ALL {
            for part in d.spec().policy_parts(self, dir) {
                if !parts.insert(part.file) {
                    continue;
                }
                let mut inputs = part.view.clone();
                inputs.push(pid);
                out.push(UnitDef {
                    unit: Unit::PolicyFile {
                        project: pid,
                        file: part.file,
                    },
                    groups: part.groups,
                    view: part.view,
                    inputs,
                });
            }
        }
        let inputs: Vec<usize> = (0..self.files.len())
            .filter(|&i| self.files[i].live && !parts.contains(&i))
            .collect();
        out.push(UnitDef {
            unit: Unit::Policies(pid),
            view: Vec::new(),
            inputs,
            groups: Vec::new(),
        });
        out
    }

    /// The findings of unit `Policies(pid)`: every agent but those of the dialects' parts.
    pub(super) fn policy_diagnostics(&self, pid: usize, dir: &Path) -> Vec<(usize, Diagnostic)> {
        let Some(project) = self.files[pid].analysis.project() else {
            return Vec::new();
        };
        let mut judged = Vec::new();
        let mut rest = Vec::new();
        for d in Dialect::ALL {
            // Each group judged whole; the same finding twice is placed once.
            let grouped = d.spec().policy_agents(self, dir, &mut |agents| {
                let mut seen = std::collections::HashSet::new();
                self.judge_agents(&project.policies, agents, &mut seen, &mut judged);
            });
            if !grouped {
                rest.push(d);
            }
        }
        let mut seen = std::collections::HashSet::new();
        for group in self.governed_agents_of(dir, &rest) {
            self.judge_agents(&project.policies, group.agents().into_iter(), &mut seen, &mut judged);
        }
        place(pid, &project.policies, &judged, None)
    }

    /// The findings of unit `PolicyFile`: the agents of part `file`, built from `view` (with
    /// its groups) as its runtime started in the file's project would.
    pub(super) fn policy_diagnostics_of_file(
        &self,
        pid: usize,
        file: usize,
        view: (&[usize], &[usize]),
    ) -> Vec<(usize, Diagnostic)> {
        let Some(project) = self.files[pid].analysis.project() else {
            return Vec::new();
        };
        let mut judged = Vec::new();
        let mut seen = std::collections::HashSet::new();
        self.files[file]
            .kind
            .dialect()
            .spec()
            .part_agents(self, file, view, &mut |agents| {
                self.judge_agents(&project.policies, agents, &mut seen, &mut judged);
            });
        place(pid, &project.policies, &judged, Some(file))
    }

    fn verdict(&self, policy: &Policy, ruleset: &Ruleset) -> Arc<Verdict> {
        let key = question_key(policy, ruleset);
        if let Some(v) = self.policy_memo.0.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return v;
        }
        let v = Arc::new(judge::judge(policy, ruleset));
        if let Ok(mut m) = self.policy_memo.0.lock() {
            if m.len() > 100_000 {
                m.clear();
            }
            m.insert(key, v.clone());
        }
        v
    }
}

/// Place the violations of `judged` (see the module documentation): on the deciding rule, the
/// agent's definition when a default decides, the policy for a built-in agent. With `home`,
/// every finding stays in that file (a unit of one Markdown agent): a rule written elsewhere
/// decides, the finding sits on the agent's definition and links the rule.
fn place(pid: usize, policies: &[Policy], judged: &[Judged], home: Option<usize>) -> Vec<(usize, Diagnostic)> {
    // (policy, file, span) -> the violations placed there, and the rule written elsewhere.
    type Place = (usize, usize, u32, u32);
    let mut places: BTreeMap<Place, (Vec<&Judged>, Option<Source>)> = BTreeMap::new();
    let mut unproved: BTreeMap<usize, Vec<&Judged>> = BTreeMap::new();
    for j in judged {
        match &*j.verdict {
            Verdict::Holds { .. } => {}
            Verdict::NotProved => unproved.entry(j.policy).or_default().push(j),
            Verdict::Violated { worst, .. } => {
                let policy = &policies[j.policy];
                let decider = j.ruleset.decider(worst.decider).1;
                let (mut file, mut span) = match (decider, j.defined_at) {
                    (Source::File { file, span }, _) | (Source::BuiltIn, Some(Source::File { file, span })) => {
                        (file, span)
                    }
                    _ => (pid, policy.id_span),
                };
                let mut elsewhere = None;
                if let (Some(h), Some(Source::File { file: f, span: s })) = (home, j.defined_at)
                    && file != h
                    && f == h
                {
                    elsewhere = Some(decider);
                    (file, span) = (f, s);
                }
                let entry = places.entry((j.policy, file, span.start, span.end)).or_default();
                entry.0.push(j);
                entry.1 = entry.1.or(elsewhere);
            }
        }
    }
    let mut out = Vec::new();
    for ((pi, file, start, end), (group, elsewhere)) in places {
        let policy = &policies[pi];
        let span = crate::analysis::text::Span::new(start as usize, end as usize);
        let mut d = Diagnostic::new(Code::PolicyViolation, span, violation_message(policy, &group));
        // A default the fact sheets do not confirm (Zuno's) is a warning, not an error.
        if group.iter().all(|j| {
            j.ruleset.assumed_default
                && matches!(&*j.verdict, Verdict::Violated { worst, .. } if worst.decider == Decider::Default)
        }) {
            d = d.with_severity(Severity::Warning);
        }
        if let Some(Source::File { file: f, span: s }) = elsewhere {
            d = d.with_related(Location::File { file: f, span: s }, "the rule that decides");
        }
        if file != pid {
            d = d.with_related(
                Location::File {
                    file: pid,
                    span: policy.id_span,
                },
                format!("policy `{}`", policy.id),
            );
        }
        for (loc, message) in involved(&group, file, span) {
            d = d.with_related(loc, message);
        }
        out.push((file, d));
    }
    for (pi, group) in unproved {
        let policy = &policies[pi];
        let names = agent_list(&group);
        out.push((
            pid,
            Diagnostic::new(
                Code::PolicyViolation,
                policy.id_span,
                format!(
                    "policy `{}` could not be proved for {names}: their rules are too intricate for agent-lsp's proof (it gives up rather than guess); check them with `agent-lsp explain --who`",
                    policy.id
                ),
            )
            .with_severity(Severity::Warning),
        ));
    }
    out
}

/// The id of the policy a `policy-violation` finding is about (its message names it first).
pub fn policy_id(d: &Diagnostic) -> Option<&str> {
    if d.code != Code::PolicyViolation {
        return None;
    }
    let rest = d.message.strip_prefix("policy `")?;
    rest.split_once('`').map(|(id, _)| id)
}

/// "agent `build` (opencode)", "agents `a`, `b` (opencode) and `c` (Claude Code)".
fn agent_list(group: &[&Judged]) -> String {
    let mut by_dialect: Vec<(Dialect, Vec<&str>)> = Vec::new();
    let mut count = 0;
    for j in group {
        match by_dialect.iter_mut().find(|(d, _)| *d == j.dialect) {
            Some((_, names)) if !names.contains(&j.agent.as_str()) => {
                names.push(&j.agent);
                count += 1;
            }
            Some(_) => {}
            None => {
                by_dialect.push((j.dialect, vec![&j.agent]));
                count += 1;
            }
        }
    }
    let parts: Vec<String> = by_dialect
        .iter()
        .map(|(d, names)| {
            let shown: Vec<String> = names.iter().take(6).map(|n| format!("`{n}`")).collect();
            let more = names.len().saturating_sub(6);
            let list = if more > 0 {
                format!("{} and {more} more", shown.join(", "))
            } else {
                shown.join(", ")
            };
            format!("{list} ({})", d.product())
        })
        .collect();
    format!(
        "{} {}",
        if count == 1 { "agent" } else { "agents" },
        parts.join(" and ")
    )
}

/// An input as a message shows it.
pub fn show_input(s: &str) -> String {
    if s.is_empty() {
        "the empty input".to_string()
    } else {
        format!("`{}`", s.replace('\n', "\\n"))
    }
}

fn violation_message(policy: &Policy, group: &[&Judged]) -> String {
    let first = group[0];
    let Verdict::Violated { worst, .. } = &*first.verdict else {
        return String::new();
    };
    let (_, _, by) = first.ruleset.decider(worst.decider);
    let input = match worst.witness.is_empty() {
        true => format!("`{}` with an empty input", first.tool),
        false => format!("`{}` `{}`", first.tool, worst.witness.replace('\n', "\\n")),
    };
    let mut m = format!(
        "policy `{}` does not hold for {}: {input} gets `{}` ({by}), and the policy allows at most `{}`",
        policy.id,
        agent_list(group),
        worst.action.as_str(),
        policy.at_most.as_str(),
    );
    if let Some(why) = &policy.message {
        m.push_str(&format!(" ({})", why.trim()));
    }
    if let Some(note) = &first.ruleset.note {
        m.push_str(&format!(". Note: {note}"));
    }
    m
}

/// The other rules that decide some input of the policy for the first agent of a group: the
/// ones above the limit first. At most five, never the diagnostic's own place.
fn involved(group: &[&Judged], file: usize, span: crate::analysis::text::Span) -> Vec<(Location, String)> {
    let first = group[0];
    let Verdict::Violated { others, .. } = &*first.verdict else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for o in others {
        let (_, source, label) = first.ruleset.decider(o.decider);
        let Source::File { file: f, span: s } = source else {
            continue;
        };
        if f == file && s == span {
            continue;
        }
        out.push((
            Location::File { file: f, span: s },
            format!("`{}` for {}: {label}", o.action.as_str(), show_input(&o.witness)),
        ));
        if out.len() == 5 {
            break;
        }
    }
    out
}

/// Who may: every agent's decision for one input (or the strongest over a pattern's inputs),
/// with the rule that decides it.
#[derive(Clone, Debug)]
pub struct WhoMay {
    /// The input decided (for a pattern: a shortest input getting `action`).
    pub input: String,
    pub agent: String,
    pub dialect: Dialect,
    pub tool: String,
    pub action: Action,
    /// The deciding rule's place (`None`: a built-in default decides).
    pub rule: Option<Source>,
    pub by: String,
    /// A rule the runtime does not apply (its settings file is voided) that would decide
    /// otherwise, and what stops it.
    pub unapplied: Option<crate::analysis::policy::judge::Unapplies>,
}

impl Workspace {
    /// Every agent of every dialect under `dir` (each once) with its rulesets for `permission`.
    fn each_ruleset(&self, dir: &Path, permission: &str, mut f: impl FnMut(&str, Dialect, Vec<(String, Ruleset)>)) {
        let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
        let mut seen = std::collections::HashSet::new();
        for group in self.governed_agents(dir) {
            for a in group.agents() {
                if !seen.insert((a.dialect, a.name.to_string())) {
                    continue;
                }
                if let Some(rulesets) = a.rulesets(self, permission, home.as_deref()) {
                    f(a.name, a.dialect, rulesets);
                }
            }
        }
    }

    /// Every agent of every dialect under `dir` with its decision for `(permission, input)`:
    /// what `explain --who` prints. Of Claude Code's four edit tools, the one that gives the
    /// agent the most decides.
    pub fn who_may(&self, dir: &Path, permission: &str, input: &str) -> Vec<WhoMay> {
        let mut out: Vec<WhoMay> = Vec::new();
        self.each_ruleset(dir, permission, |agent, dialect, rulesets| {
            let rows = rulesets.into_iter().map(|(tool, r)| {
                let input = r.input(input);
                let (action, decider) =
                    crate::analysis::policy::solve::decide(&input, &r.solver_rules(), r.syntax, r.order);
                let unapplied = r.would_decide(&input);
                WhoMay {
                    unapplied,
                    ..WhoMay::new(agent, dialect, tool, &r, decider, action, input)
                }
            });
            out.extend(strongest(rows));
        });
        sort_who(&mut out);
        out
    }

    /// Every agent under `dir` with the strongest decision any input matching `pattern` gets
    /// for `permission` (the pattern key a hover is on), a shortest such input and the rule
    /// deciding it; strongest first.
    pub fn who_may_pattern(&self, dir: &Path, permission: &str, pattern: &str) -> Vec<WhoMay> {
        let nowhere = crate::analysis::text::Span::empty(0);
        let probe = Policy {
            id: String::new(),
            id_span: nowhere,
            range: nowhere,
            header: nowhere,
            message: None,
            permission: permission.to_string(),
            permission_span: nowhere,
            inputs: vec![(pattern.to_string(), nowhere)],
            at_most: Action::Deny,
            at_most_span: nowhere,
            agents: Vec::new(),
            dialects: None,
            modes: None,
        };
        let mut out: Vec<WhoMay> = Vec::new();
        self.each_ruleset(dir, permission, |agent, dialect, rulesets| {
            let rows = rulesets.into_iter().filter_map(|(tool, r)| {
                let verdict = self.verdict(&probe, &r);
                let o = headline(&verdict)?;
                Some(WhoMay::new(
                    agent,
                    dialect,
                    tool,
                    &r,
                    o.decider,
                    o.action,
                    o.witness.clone(),
                ))
            });
            out.extend(strongest(rows));
        });
        sort_who(&mut out);
        out
    }
}

impl WhoMay {
    fn new(
        agent: &str,
        dialect: Dialect,
        tool: String,
        r: &Ruleset,
        decider: Decider,
        action: Action,
        input: String,
    ) -> WhoMay {
        let (_, source, by) = r.decider(decider);
        WhoMay {
            input,
            agent: agent.to_string(),
            dialect,
            tool,
            action,
            rule: matches!(source, Source::File { .. }).then_some(source),
            by: by.to_string(),
            unapplied: None,
        }
    }
}

/// Of one agent's rows (Claude Code's four edit tools), the one that gives it the most.
fn strongest(rows: impl Iterator<Item = WhoMay>) -> Option<WhoMay> {
    rows.fold(None, |best: Option<WhoMay>, row| match best {
        Some(b) if b.action >= row.action => Some(b),
        _ => Some(row),
    })
}

/// Strongest decision first, then by dialect and name.
fn sort_who(rows: &mut [WhoMay]) {
    rows.sort_by(|a, b| {
        b.action
            .cmp(&a.action)
            .then(a.dialect.as_str().cmp(b.dialect.as_str()))
            .then(a.agent.cmp(&b.agent))
    });
}

/// The outcome a policy verdict shows first (for hover): the worst, or the strongest holding.
pub fn headline(v: &Verdict) -> Option<&Outcome> {
    match v {
        Verdict::Violated { worst, .. } => Some(worst),
        Verdict::Holds { deciders } => deciders.first(),
        Verdict::NotProved => None,
    }
}
