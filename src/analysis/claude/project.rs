//! Claude Code agents across files: which file wins a name, duplicate names in one source, and
//! `Agent(<type>)` entries that name no agent (spec `claude-code.md` §1.1, §1.5, §7.4), `skills`
//! entries that name no skill (§1.2, §5.1).
//!
//! Precedence, highest first: project agents (the `.claude/agents/` closest to the working
//! directory wins over those of its ancestors), user agents (`~/.claude/agents/`), plugin agents
//! (namespaced `plugin:name`, with the sub-folders of `agents/` between: `plugin:review:name`, so
//! they never collide with the others). Within one source, several files with one name all load
//! and one is active: the one whose path sorts last (Claude Code 2.1.332, by the harness in
//! `tests/claude_runtime`: `a.md` < `a/b.md` < `a_b.md` < `b.md`, upper case before lower case).
//!
//! Pure: the caller gives each file's owner directory (the project that holds its `.claude/`,
//! the home directory, the plugin root) as data.

use std::path::Path;

use super::agent::Agent;
use super::{AgentFile, Source, schema};
use crate::analysis::diagnostic::{Diagnostic, Effect, Location, Severity};
use crate::analysis::rules::Code;

/// One Claude agent file, as the cross-file checks see it.
#[derive(Clone, Copy, Debug)]
pub struct ClaudeFile<'a> {
    pub file: usize,
    /// The file's path: the active one of several with one name is the one that sorts last.
    pub path: &'a Path,
    pub kind: &'a AgentFile,
    /// The directory that owns the file's `.claude/agents/` (or the plugin root).
    pub owner: &'a Path,
    pub agent: &'a Agent,
}

impl ClaudeFile<'_> {
    /// The name the agent is registered under: plugin agents are namespaced by the plugin and
    /// the sub-folders of its `agents/` (`plugin:review:name` for `agents/review/x.md`).
    pub fn registered(&self) -> Option<String> {
        let name = self.agent.name.as_ref().filter(|_| self.agent.loaded())?;
        Some(match &self.kind.source {
            // The plugin's name with the sub-folders below `agents/` (`pk:review`), as
            // discovery namespaces it.
            Source::Plugin { plugin } => format!("{plugin}:{name}"),
            _ => name.clone(),
        })
    }

    fn rank(&self) -> (u8, usize) {
        match self.kind.source {
            // Deeper project directories are closer to where Claude Code runs.
            Source::Project => (0, usize::MAX - self.owner.components().count()),
            Source::User => (1, 0),
            Source::Plugin { .. } => (2, 0),
        }
    }

    /// The order in which files defining one name win: by source, then within one source the
    /// path that sorts last (compared as text, byte by byte).
    fn precedence(&self) -> ((u8, usize), std::cmp::Reverse<String>) {
        (self.rank(), std::cmp::Reverse(self.path.to_string_lossy().into_owned()))
    }
}

/// The files Claude Code started in `dir` reads: project agents of `dir` and its ancestors,
/// user agents, plugin agents.
pub fn visible<'a>(files: &[ClaudeFile<'a>], dir: &Path) -> Vec<ClaudeFile<'a>> {
    files
        .iter()
        .filter(|f| match f.kind.source {
            Source::Project => dir.starts_with(f.owner),
            _ => true,
        })
        .copied()
        .collect()
}

/// The files that define `name` as seen from `dir`, the active one first.
pub fn candidates<'a>(files: &[ClaudeFile<'a>], dir: &Path, name: &str) -> Vec<ClaudeFile<'a>> {
    let mut out: Vec<ClaudeFile> = visible(files, dir)
        .into_iter()
        .filter(|f| f.registered().as_deref() == Some(name))
        .collect();
    out.sort_by_key(ClaudeFile::precedence);
    out
}

/// Every Claude agent visible from `dir`, by registered name, the winning file of each.
pub fn registry<'a>(files: &[ClaudeFile<'a>], dir: &Path) -> Vec<(String, ClaudeFile<'a>)> {
    let mut out: Vec<(String, ClaudeFile)> = Vec::new();
    let mut seen = visible(files, dir);
    seen.sort_by_key(ClaudeFile::precedence);
    for f in seen {
        if let Some(n) = f.registered()
            && !out.iter().any(|(m, _)| *m == n)
        {
            out.push((n, f));
        }
    }
    // Listed by source, then in the order the files were read (not by which file won).
    out.sort_by_key(|(_, f)| (f.rank(), f.file));
    out
}

/// The cross-file diagnostics: duplicate names within one source, `Agent(<type>)` entries that
/// name no agent Claude Code can see from the file's project. Linear in the number of files (one
/// pass to index names by source folder; each reference looks up its project's ancestors).
pub fn check(files: &[ClaudeFile]) -> Vec<(usize, Diagnostic)> {
    use std::collections::{HashMap, HashSet};
    let mut out = Vec::new();
    // Registered names per source folder, and the project names per owner directory.
    // (source, owner directory, name) -> indices into `files`.
    type Folder<'a> = (&'a Source, &'a Path, String);
    let mut by_folder: HashMap<Folder, Vec<usize>> = HashMap::new();
    let mut project_names: HashMap<&Path, HashSet<String>> = HashMap::new();
    let mut global_names: HashSet<String> = HashSet::new();
    for (i, f) in files.iter().enumerate() {
        let Some(name) = f.registered() else { continue };
        match f.kind.source {
            Source::Project => {
                project_names.entry(f.owner).or_default().insert(name.clone());
            }
            _ => {
                global_names.insert(name.clone());
            }
        }
        by_folder.entry((&f.kind.source, f.owner, name)).or_default().push(i);
    }
    // Duplicates within one source (one agents directory tree).
    let mut groups: Vec<(&Folder, &Vec<usize>)> = by_folder.iter().filter(|(_, v)| v.len() > 1).collect();
    groups.sort_by_key(|(_, v)| v[0]);
    for ((_, _, name), members) in groups {
        for &i in members {
            let f = &files[i];
            let others: Vec<&ClaudeFile> = members.iter().filter(|&&j| j != i).map(|&j| &files[j]).collect();
            let active = others.iter().all(|g| g.path.as_os_str() < f.path.as_os_str());
            let mut d = Diagnostic::new(
                Code::DuplicateAgent,
                f.agent.name_span,
                format!(
                    "{} other file{} in this {} agents folder also define{} `{name}`: Claude Code loads all of them and keeps active the one whose path sorts last, {} (it logs \"Duplicate agent name\"). Rename or remove the others",
                    others.len(),
                    if others.len() == 1 { "" } else { "s" },
                    f.kind.source.label(),
                    if others.len() == 1 { "s" } else { "" },
                    if active { "this one" } else { "not this one" },
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored);
            for g in others {
                d = d.with_related(
                    Location::File {
                        file: g.file,
                        span: g.agent.name_span,
                    },
                    format!("`{name}` is also defined here"),
                );
            }
            out.push((f.file, d));
        }
    }
    // `Agent(<type>)` references. The names a project sees, for "did you mean", once per project.
    let mut seen_from: HashMap<&Path, Vec<String>> = HashMap::new();
    for f in files.iter().filter(|f| f.agent.name.is_some()) {
        if f.agent.agent_refs.is_empty() {
            continue;
        }
        let visible = |name: &str| {
            global_names.contains(name)
                || f.owner
                    .ancestors()
                    .any(|a| project_names.get(a).is_some_and(|n| n.contains(name)))
        };
        for (name, span) in &f.agent.agent_refs {
            let builtin = schema::BUILTIN_AGENTS.iter().any(|(b, _)| b == name);
            if builtin || visible(name) {
                continue;
            }
            let names = seen_from
                .entry(f.owner)
                .or_insert_with(|| registry(files, f.owner).into_iter().map(|(n, _)| n).collect())
                .clone();
            let near = schema::BUILTIN_AGENTS
                .iter()
                .map(|(b, _)| b.to_string())
                .chain(names)
                .map(|n| (strsim::levenshtein(&n, name), n))
                .filter(|(d, n)| *d <= 2 || n.eq_ignore_ascii_case(name))
                .min_by_key(|(d, _)| *d)
                .map(|(_, n)| n);
            let message = match &near {
                Some(n) => format!("no agent `{name}` is defined for this project (nor built in); did you mean `{n}`?"),
                None => format!(
                    "no agent `{name}` is defined for this project (nor built in): Claude Code cannot start it from this agent"
                ),
            };
            let mut d = Diagnostic::new(Code::UnknownAgent, *span, message)
                .with_severity(Severity::Warning)
                .with_effect(Effect::FailsWhenUsed);
            if let Some(n) = near {
                d = d.with_suggestion(*span, n);
            }
            out.push((f.file, d));
        }
    }
    out
}

/// `unknown-agent` on a forked skill's `agent` (`context: fork`) that names no agent the
/// project sees (its agents, the user's, the plugins', the built-in ones): Claude Code 2.1.332
/// runs the skill on `general-purpose` instead, with a debug-log line only. `skills`: (file,
/// the skill's project, the agent named, where).
pub fn check_skill_agents(
    files: &[ClaudeFile],
    skills: &[(usize, &Path, &str, crate::analysis::Span)],
) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    for &(file, owner, name, span) in skills {
        let known: Vec<String> = registry(files, owner)
            .into_iter()
            .map(|(n, _)| n)
            .chain(super::schema::BUILTIN_AGENTS.iter().map(|(n, _)| n.to_string()))
            .collect();
        if known.iter().any(|k| k == name) {
            continue;
        }
        let near = crate::analysis::suggest::closest(name, known.iter().map(String::as_str));
        let mut d = Diagnostic::new(
            Code::UnknownAgent,
            span,
            format!(
                "no agent `{name}` for this project: Claude Code runs this forked skill on `general-purpose` instead, and says so only in its debug log.{}",
                crate::analysis::suggest::did_you_mean(near)
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::FailsWhenUsed);
        if let Some(n) = near {
            d = d.with_suggestion(span, n);
        }
        out.push((file, d));
    }
    out
}

/// `unknown-skill`: a `skills` entry of a project agent that names no skill Claude Code finds.
/// `skills` gives, per owner directory, the skills found for that project (its
/// `.claude/skills/<name>/` folders and the user's `~/.claude/skills/<name>/`: a personal or
/// project skill is named by its folder) and whether the project has skills of its own. Entries
/// with a `:` (a plugin's `plugin:skill`, a nested folder's `apps/web:deploy`) are not checked.
/// Claude Code skips a skill it cannot find, with a debug-log line only: the agent starts
/// without it.
pub fn check_skills<'a>(
    files: &[ClaudeFile],
    skills: &dyn Fn(&Path) -> (Vec<&'a str>, bool),
) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    for f in files.iter().filter(|f| matches!(f.kind.source, Source::Project)) {
        if f.agent.skills.is_empty() {
            continue;
        }
        let (names, own) = skills(f.owner);
        for (entry, span, exact) in &f.agent.skills {
            if entry.contains(':') || names.contains(&entry.as_str()) {
                continue;
            }
            let Some(near) = crate::analysis::skill::unknown_skill(entry, &names, own) else {
                continue;
            };
            let mut d = Diagnostic::new(
                Code::UnknownSkill,
                *span,
                format!(
                    "no skill `{entry}` is found for this project (skills: {}): Claude Code skips it and the agent starts without it.{}",
                    crate::analysis::skill::skill_list(&names),
                    crate::analysis::suggest::did_you_mean(near)
                ),
            )
            .with_effect(Effect::ValueIgnored);
            match near {
                Some(n) if *exact => d = d.with_suggestion(*span, n),
                Some(_) => {}
                None => d = d.with_severity(Severity::Info),
            }
            out.push((f.file, d));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::claude::analyze;

    fn agent(text: &str) -> Agent {
        analyze(&AgentFile::project("x"), text).1
    }

    #[test]
    fn skills_entries_must_name_a_skill() {
        let text = "---\nname: rev\ndescription: d\nskills: [tdd, tddd, deploy-prod, 'chnagelog', web:lint]\n---\n";
        let a = agent(text);
        let project = AgentFile::project("x");
        let plugin = AgentFile {
            source: Source::Plugin { plugin: "p".into() },
            stem: "x".into(),
        };
        let p = Path::new("/p");
        let run = |kind: &AgentFile, skills: Vec<&'static str>, own: bool| -> Vec<(String, Severity, Option<String>)> {
            let files = [ClaudeFile {
                file: 0,
                path: Path::new("/p/.claude/agents/x.md"),
                kind,
                owner: p,
                agent: &a,
            }];
            let f = |_: &Path| (skills.clone(), own);
            check_skills(&files, &f)
                .into_iter()
                .map(|(_, d)| {
                    assert_eq!((d.code, d.effect), (Code::UnknownSkill, Effect::ValueIgnored));
                    (
                        d.span.text(text).to_string(),
                        d.severity,
                        d.suggestion().map(|e| e.text.clone()),
                    )
                })
                .collect()
        };
        // `tdd` exists; `tddd` is a near miss (fixed); `deploy-prod` nothing like any skill (an
        // info, since the project has skills); a quoted entry's fix replaces what is inside the
        // quotes; `web:lint` is not checked.
        assert_eq!(
            run(&project, vec!["tdd", "changelog"], true),
            [
                ("tddd".into(), Severity::Warning, Some("tdd".into())),
                ("deploy-prod".into(), Severity::Info, None),
                ("chnagelog".into(), Severity::Warning, Some("changelog".into())),
            ]
        );
        // Only the user's skills: near misses only.
        assert_eq!(run(&project, vec!["tdd"], false).len(), 1);
        // Plugin agents are not checked.
        assert!(run(&plugin, vec!["tdd"], true).is_empty());
    }

    #[test]
    fn duplicates_in_one_source_and_unknown_agent_types() {
        let a = agent("---\nname: rev\ndescription: d\ntools: Agent(helper, Explore, revv)\n---\n");
        let b = agent("---\nname: rev\ndescription: d\n---\n");
        let h = agent("---\nname: helper\ndescription: d\n---\n");
        let kind = AgentFile::project("x");
        let p = Path::new("/p");
        let files = [
            ClaudeFile {
                file: 0,
                path: Path::new("/p/.claude/agents/a.md"),
                kind: &kind,
                owner: p,
                agent: &a,
            },
            ClaudeFile {
                file: 1,
                path: Path::new("/p/.claude/agents/b.md"),
                kind: &kind,
                owner: p,
                agent: &b,
            },
            ClaudeFile {
                file: 2,
                path: Path::new("/p/.claude/agents/h.md"),
                kind: &kind,
                owner: p,
                agent: &h,
            },
        ];
        let d = check(&files);
        let codes: Vec<(usize, Code)> = d.iter().map(|(f, d)| (*f, d.code)).collect();
        assert_eq!(
            codes,
            [
                (0, Code::DuplicateAgent),
                (1, Code::DuplicateAgent),
                (0, Code::UnknownAgent)
            ]
        );
        let unknown = &d[2].1;
        assert!(unknown.message.contains("`revv`") && unknown.message.contains("did you mean `rev`"));
        // A nested project sees its ancestors' agents; the closest wins.
        let nested = Path::new("/p/sub");
        let files2 = [
            ClaudeFile {
                file: 0,
                path: Path::new("/p/.claude/agents/b.md"),
                kind: &kind,
                owner: p,
                agent: &b,
            },
            ClaudeFile {
                file: 1,
                path: Path::new("/p/sub/.claude/agents/b.md"),
                kind: &kind,
                owner: nested,
                agent: &b,
            },
        ];
        let c = candidates(&files2, Path::new("/p/sub/src"), "rev");
        assert_eq!(c.iter().map(|f| f.file).collect::<Vec<_>>(), [1, 0]);
        assert_eq!(candidates(&files2, Path::new("/p"), "rev").len(), 1);
    }

    /// Several files of one name in one folder: Claude Code 2.1.332 keeps the one whose path
    /// sorts last as text (so `a/b.md` after `a.md`, since `.` sorts before `/`; upper case
    /// before lower case), whatever the order the file system lists them in.
    #[test]
    fn the_active_file_is_the_last_path() {
        let a = agent("---\nname: dup\ndescription: d\n---\n");
        let kind = AgentFile::project("x");
        let p = Path::new("/p");
        let paths = [
            "/p/.claude/agents/a/b.md",
            "/p/.claude/agents/B.md",
            "/p/.claude/agents/a.md",
            "/p/.claude/agents/a-b.md",
        ];
        let files: Vec<ClaudeFile> = paths
            .iter()
            .enumerate()
            .map(|(i, path)| ClaudeFile {
                file: i,
                path: Path::new(path),
                kind: &kind,
                owner: p,
                agent: &a,
            })
            .collect();
        let c = candidates(&files, p, "dup");
        assert_eq!(c.iter().map(|f| f.file).collect::<Vec<_>>(), [0, 2, 3, 1]);
        assert_eq!(registry(&files, p)[0].1.file, 0);
        let d = check(&files);
        let active: Vec<usize> = d
            .iter()
            .filter(|(_, d)| d.message.contains(", this one"))
            .map(|(f, _)| *f)
            .collect();
        assert_eq!(active, [0]);
    }

    /// A plugin agent is registered under the namespace discovery gives it (the plugin and the
    /// folders between `agents/` and the file, `pk:review`) and its name: `pk:review:security`.
    /// The folders are counted once (they once were twice, by discovery and here).
    #[test]
    fn plugin_agents_are_registered_under_their_namespace() {
        let in_sub = AgentFile {
            source: Source::Plugin {
                plugin: "pk:review".into(),
            },
            stem: "security".into(),
        };
        let top = AgentFile {
            source: Source::Plugin { plugin: "pk".into() },
            stem: "x".into(),
        };
        let nameless = analyze(&in_sub, "---\ndescription: d\n---\n").1;
        let named = agent("---\nname: named\ndescription: d\n---\n");
        let root = Path::new("/w/plugins/pk");
        let f = |path: &'static str, kind, agent| ClaudeFile {
            file: 0,
            path: Path::new(path),
            kind,
            owner: root,
            agent,
        };
        let name = |c: ClaudeFile| c.registered();
        assert_eq!(
            name(f("/w/plugins/pk/agents/review/security.md", &in_sub, &nameless)).as_deref(),
            Some("pk:review:security")
        );
        assert_eq!(
            name(f("/w/plugins/pk/agents/review/security.md", &in_sub, &named)).as_deref(),
            Some("pk:review:named")
        );
        assert_eq!(
            name(f("/w/plugins/pk/agents/x.md", &top, &named)).as_deref(),
            Some("pk:named")
        );
    }
}
