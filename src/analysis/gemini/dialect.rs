//! Gemini CLI behind the one dialect interface ([`DialectSpec`]): which files it reads, and
//! what the workspace and the front ends ask of it.
//!
//! Files: the user's `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini/` when that is set)
//! and a project's `.gemini/settings.json` (applied only when the folder is trusted; agent-lsp
//! checks it wherever it is, since trust is the user's setting, not the file's); the subagents
//! of `.gemini/agents/*.md` and `~/.gemini/agents/*.md`.

use std::path::{Path, PathBuf};

use crate::analysis::Dialect;
use crate::analysis::discovery::{Claim, Disk, Pile, Stage};
use crate::analysis::host::{Host, Options, Role};
use crate::analysis::spec::{At, DialectSpec, DialectUnit, Reads, UnitRef};

/// The user option holding Gemini CLI's folder (`~/.gemini`, or `$GEMINI_CLI_HOME/.gemini`).
pub const HOME: &str = "gemini.home";

/// Gemini CLI's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn identity(&self) -> crate::analysis::spec::Identity {
        crate::analysis::spec::Identity {
            name: "gemini",
            product: "Gemini CLI",
            aliases: &["gemini-cli", "google-gemini"],
            checked_against: Some("0.61.0"),
        }
    }

    fn setup_help(&self) -> Option<&'static str> {
        Some(super::setup::HELP)
    }

    fn setup(&self, ask: &crate::analysis::setup::Ask) -> Result<Vec<crate::analysis::setup::Step>, String> {
        super::setup::steps(ask)
    }

    fn comments(&self, kind: &crate::analysis::FileKind) -> crate::analysis::suppress::Comments {
        match kind.own::<super::FileKind>() {
            Some(super::FileKind::Agent) => crate::analysis::suppress::Comments::Frontmatter,
            Some(super::FileKind::Command) => crate::analysis::suppress::Comments::Toml,
            _ => crate::analysis::suppress::Comments::Jsonc,
        }
    }

    fn list_rank(&self) -> u8 {
        5
    }

    fn rules(&self) -> &'static [crate::analysis::Code] {
        super::RULES
    }

    fn shares_every_dialect_rules(&self) -> bool {
        false
    }

    fn analyze(&self, kind: &crate::analysis::FileKind, text: &str) -> Option<crate::analysis::FileAnalysis> {
        let (diagnostics, parsed, facts) = super::analyze(kind.own()?, text);
        Some(crate::analysis::FileAnalysis::of(parsed, diagnostics, facts))
    }

    fn complete(
        &self,
        kind: &crate::analysis::FileKind,
        text: &str,
        offset: usize,
        _host: &dyn crate::analysis::host::Host,
        _id: Option<usize>,
    ) -> Option<Vec<crate::analysis::complete::Item>> {
        Some(match kind.own()? {
            super::FileKind::Settings { .. } => super::editor::complete(text, offset),
            super::FileKind::Agent => super::editor::complete_agent(text, offset),
            super::FileKind::Command => super::editor::complete_command(text, offset),
            super::FileKind::Context => Vec::new(),
            super::FileKind::Extension => super::editor::complete_in(&super::extension::MANIFEST, text, offset),
        })
    }

    fn hover(
        &self,
        host: &dyn crate::analysis::host::Host,
        id: usize,
        offset: usize,
        where_is: crate::analysis::provenance::WhereIs,
    ) -> Option<Option<crate::analysis::spec::Hover>> {
        let f = host.file(id)?;
        // On an agent file's `name` line: the agent as Gemini CLI builds it in that project.
        if let Some(span) = f
            .analysis
            .own::<super::Facts>()
            .and_then(|x| x.agent.as_ref()?.name_span)
            && let Some(card) = crate::analysis::spec::agent_card_on_name(&Spec, host, id, span, offset, where_is)
        {
            return Some(Some(card));
        }
        let hover = match f.kind.own()? {
            super::FileKind::Settings { .. } => super::editor::hover(&f.analysis.parsed, offset),
            super::FileKind::Agent => super::editor::hover_agent(&f.analysis.parsed, offset),
            super::FileKind::Command => super::editor::hover_command(f.path, &f.analysis.parsed, offset),
            super::FileKind::Context => super::editor::hover_context(f.text, offset),
            super::FileKind::Extension => {
                super::editor::hover_in(&super::extension::MANIFEST, &f.analysis.parsed, offset)
            }
        };
        Some(hover.map(|(text, span)| crate::analysis::spec::Hover::new(text, span)))
    }

    /// Each `agents/` folder's files together: two of one name.
    fn units(&self, host: &dyn Host) -> Vec<DialectUnit> {
        agent_folders(host)
            .into_iter()
            .map(|(dir, files)| DialectUnit::of_view("agents", dir, files))
            .collect()
    }

    fn check_unit(&self, host: &dyn Host, unit: UnitRef) -> (Vec<(usize, crate::analysis::Diagnostic)>, Reads) {
        let files: Vec<super::project::AgentFile> = unit
            .view
            .iter()
            .filter_map(|&id| {
                let f = host.file(id)?;
                let facts: &super::Facts = f.analysis.own()?;
                Some(super::project::AgentFile {
                    id,
                    path: f.path,
                    text: f.text,
                    decl: facts.agent.as_ref()?,
                })
            })
            .collect();
        (super::project::check(&files), Reads::All)
    }

    /// A `GEMINI.md`'s imports: each one Gemini CLI cannot read, or will not (outside the
    /// project, a URL); an extension's context files that are not there.
    fn disk_checks(&self, host: &dyn Host, id: usize) -> Vec<crate::analysis::spec::DiskFindings> {
        let Some(f) = host.file(id) else { return Vec::new() };
        let Some(facts) = f.analysis.own::<super::Facts>() else {
            return Vec::new();
        };
        if let Some(manifest) = facts.extension.as_ref().filter(|m| m.loads) {
            return vec![crate::analysis::spec::DiskFindings {
                own: Some(|d| d.code == crate::analysis::Code::MissingPath),
                found: super::disk::missing_context_files(f.path, manifest, host.disk()),
            }];
        }
        if f.kind.own::<super::FileKind>() != Some(&super::FileKind::Context) {
            return Vec::new();
        }
        let found = super::imports::check(f.path, &facts.imports, host.disk());
        vec![crate::analysis::spec::DiskFindings {
            own: Some(|d| d.code == crate::analysis::Code::MissingPath),
            found,
        }]
    }

    /// Gemini CLI 0.61.0 reads `GEMINI.md` and the names `context.fileName` adds to it (the
    /// project's settings where it starts, else the user's; it does not look for settings in a
    /// folder above, and it still reads `GEMINI.md`, which the docs say the setting replaces):
    /// any other instruction file only where that setting names it.
    fn instruction_reader(
        &self,
        host: &dyn Host,
        dir: &Path,
        which: crate::analysis::instructions::Which,
        _chain: &[crate::analysis::instructions::Level],
        _imported_by: Option<&str>,
    ) -> Option<crate::analysis::instructions::Verdict> {
        let name = which.name();
        let (reads, why) = match context_file_names(host, dir) {
            Some((names, from)) => {
                let listed = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
                if names.iter().any(|n| n == name) {
                    (
                        true,
                        format!("Gemini CLI reads it: `context.fileName` in `{from}` names it"),
                    )
                } else {
                    (
                        false,
                        format!(
                            "Gemini CLI reads `GEMINI.md` and {listed} here (`context.fileName` in `{from}`), not `{name}`"
                        ),
                    )
                }
            }
            None => (
                false,
                format!("Gemini CLI reads `{name}` only where `context.fileName` names it (it reads `GEMINI.md`)"),
            ),
        };
        Some(crate::analysis::instructions::Verdict {
            runtime: Dialect::Gemini,
            reads,
            why,
        })
    }

    fn config_folders(&self) -> &'static [&'static str] {
        &[".gemini"]
    }

    fn builtin_agents(&self) -> Vec<&'static str> {
        super::agents::BUILT_IN.iter().map(|(n, _)| *n).collect()
    }

    fn agent_names(&self, file: &crate::analysis::host::HostFile) -> Option<Vec<crate::analysis::spec::NameAt>> {
        let facts: &super::Facts = file.analysis.own()?;
        let decl = facts.agent.as_ref()?;
        Some(match (&decl.name, decl.name_span) {
            (Some(n), Some(span)) => vec![crate::analysis::spec::NameAt::definition(n, span)],
            _ => Vec::new(),
        })
    }

    /// The projects at or below `dir`: each folder with a `.gemini/` of settings, agents or
    /// commands.
    fn starts(&self, host: &dyn Host, dir: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = host
            .files_of(Dialect::Gemini)
            .filter(|(f, _, layer)| {
                *layer == 1
                    && matches!(
                        f.kind.own::<super::FileKind>(),
                        Some(super::FileKind::Settings { .. } | super::FileKind::Agent | super::FileKind::Command)
                    )
            })
            .map(|(_, d, _)| d.to_path_buf())
            .filter(|d| d.starts_with(dir))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The agents Gemini CLI registers started in `start` (a folder with a `.gemini/`): its
    /// built-in ones, then the agents of `start/.gemini/agents/`, then the user's; the first of
    /// a name stays.
    fn agents<'h>(
        &self,
        host: &'h dyn Host,
        start: &Path,
    ) -> (Vec<usize>, Box<dyn crate::analysis::agents::AgentSet + 'h>) {
        let dir = host.canonical(start);
        let mut agents: Vec<super::agents::GeminiAgent> = super::agents::BUILT_IN
            .iter()
            .map(|(name, description)| super::agents::GeminiAgent {
                name: name.to_string(),
                description: Some(description.to_string()),
                defined: None,
                fields: Vec::new(),
            })
            .collect();
        let mut ids = Vec::new();
        let mut files: Vec<(u8, &Path, usize)> = host
            .files_of(Dialect::Gemini)
            .filter(|(f, d, layer)| {
                (*layer == 0 || *d == dir.as_path() || *d == start)
                    && f.kind
                        .own::<super::FileKind>()
                        .is_some_and(|k| !matches!(k, super::FileKind::Context | super::FileKind::Extension))
            })
            .map(|(f, _, layer)| (layer, f.path, f.id))
            .collect();
        // The project's first, then the user's; each folder in path order.
        files.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        // Outside a project with a `.gemini/` folder, Gemini CLI builds nothing agent-lsp shows.
        if !files.iter().any(|(layer, ..)| *layer == 1) {
            return (Vec::new(), Box::new(super::agents::Agents { agents: Vec::new() }));
        }
        for (_, _, id) in files {
            ids.push(id);
            let Some(f) = host.file(id) else { continue };
            let Some(facts) = f.analysis.own::<super::Facts>() else {
                continue;
            };
            let Some(decl) = facts.agent.as_ref().filter(|d| d.loads) else {
                continue;
            };
            let (Some(name), Some(span)) = (&decl.name, decl.name_span) else {
                continue;
            };
            if agents.iter().any(|a| a.name == *name) {
                continue;
            }
            agents.push(super::agents::GeminiAgent {
                name: name.clone(),
                description: decl.description.clone(),
                defined: Some((id, span)),
                fields: super::agents::fields_of(f.analysis.parsed.root.as_ref()),
            });
        }
        ids.sort_unstable();
        (ids, Box::new(super::agents::Agents { agents }))
    }

    /// Gemini CLI expands `$NAME` and `${NAME}` in the strings of `settings.json`.
    fn secret_fix(
        &self,
        kind: &crate::analysis::FileKind,
        _path: &[String],
    ) -> Option<crate::analysis::spec::SecretFix> {
        matches!(kind.own()?, super::FileKind::Settings { .. }).then_some(crate::analysis::spec::SecretFix {
            reference: Some("${NAME}"),
            advice: "",
        })
    }

    fn skill_loader(&self) -> Option<crate::analysis::skill::Loader> {
        Some(super::skill::LOADER)
    }

    /// `.gemini/skills/<name>/SKILL.md` and `.agents/skills/<name>/SKILL.md`, one folder deep, or
    /// right in the skills folder (`.gemini/skills/SKILL.md`).
    fn skill_homes(&self) -> &'static [crate::analysis::discovery::SkillHome] {
        use crate::analysis::discovery::SkillHome;
        &[
            SkillHome {
                folder: ".gemini",
                subs: &["skills"],
                owner: true,
                depths: &[1, 2],
            },
            SkillHome {
                folder: ".agents",
                subs: &["skills"],
                owner: false,
                depths: &[1, 2],
            },
        ]
    }

    fn walk_keeps(&self, path: &Path, _depth: usize, _disk: &dyn Disk) -> Option<Pile> {
        Some(match kind_at(path, None)?.0 {
            super::FileKind::Settings { .. } => Pile::Config,
            super::FileKind::Agent => Pile::Document,
            super::FileKind::Command => Pile::Config,
            super::FileKind::Context => Pile::Document,
            super::FileKind::Extension => Pile::Config,
        })
    }

    fn kind_of(&self, path: &Path, at: &At, stage: Stage) -> Claim {
        if stage != Stage::Own {
            return None;
        }
        let (kind, role) = kind_at(path, at.host.options().user(HOME))?;
        Some(Some((kind.into(), role)))
    }

    fn kind_alone(&self, path: &Path, _at: &At, stage: Stage) -> Claim {
        if stage != Stage::Own {
            return None;
        }
        let (kind, role) = kind_at(path, None)?;
        Some(Some((kind.into(), role)))
    }

    fn watched(&self) -> &'static [&'static str] {
        &[
            "**/.gemini/settings.json",
            "**/.gemini/commands/**/*.toml",
            "**/gemini-extension.json",
        ]
    }

    fn user_options(&self, env: &dyn Fn(&str) -> Option<PathBuf>, _global_dir: Option<&Path>, o: &mut Options) {
        let home = env("GEMINI_CLI_HOME").or_else(|| o.home.clone());
        o.set_user(HOME, home.map(|h| h.join(".gemini")));
    }

    fn user_folders(&self, o: &Options) -> Vec<PathBuf> {
        o.user(HOME).map(Path::to_path_buf).into_iter().collect()
    }
}

/// The agent files of each `agents/` folder, in path order.
fn agent_folders(host: &dyn Host) -> Vec<(PathBuf, Vec<usize>)> {
    let mut by_dir: std::collections::BTreeMap<PathBuf, Vec<(&Path, usize)>> = std::collections::BTreeMap::new();
    for (f, ..) in host.files_of(Dialect::Gemini) {
        if f.kind.own::<super::FileKind>() == Some(&super::FileKind::Agent)
            && let Some(dir) = f.path.parent()
        {
            by_dir.entry(dir.to_path_buf()).or_default().push((f.path, f.id));
        }
    }
    by_dir
        .into_iter()
        .map(|(dir, mut files)| {
            files.sort();
            (dir, files.into_iter().map(|(_, id)| id).collect())
        })
        .collect()
}

/// The context file names Gemini CLI started in `dir` reads beside `GEMINI.md`, when settings
/// give some: the
/// `context.fileName` of `dir/.gemini/settings.json`, else of the user's settings; with where it
/// is set (as written in messages: `.gemini/settings.json` or `~/.gemini/settings.json`).
fn context_file_names(host: &dyn Host, dir: &Path) -> Option<(Vec<String>, &'static str)> {
    let names_of = |f: &crate::analysis::host::HostFile<'_>| {
        f.analysis
            .own::<super::Facts>()?
            .settings
            .context_file_names
            .clone()
            .filter(|n| !n.is_empty())
    };
    // Two lookups by path (this runs for every instruction file when the checks rerun).
    let of = |path: PathBuf| {
        host.id_of(&path)
            .and_then(|id| host.file(id))
            .and_then(|f| names_of(&f))
    };
    if let Some(names) = of(dir.join(".gemini").join("settings.json")) {
        return Some((names, ".gemini/settings.json"));
    }
    let home = host.options().user(HOME)?;
    of(home.join("settings.json")).map(|n| (n, "~/.gemini/settings.json"))
}

/// What a path is to Gemini CLI, with its role: `home` is the user's `.gemini` folder.
fn kind_at(path: &Path, home: Option<&Path>) -> Option<(super::FileKind, Role)> {
    let name = path.file_name()?.to_str()?;
    let dir = path.parent()?;
    if name == super::extension::FILE {
        return Some((
            super::FileKind::Extension,
            Role::Dialect {
                dir: dir.to_path_buf(),
                layer: 1,
            },
        ));
    }
    if name == super::context::NAME {
        let layer = u8::from(home != Some(dir));
        return Some((
            super::FileKind::Context,
            Role::Dialect {
                dir: dir.to_path_buf(),
                layer,
            },
        ));
    }
    // `<.gemini>/settings.json`, `<.gemini>/agents/<name>.md`.
    let (gemini, kind) = if name == "settings.json" {
        (dir, super::FileKind::Settings { project: true })
    } else if name.ends_with(".md") && !name.starts_with('_') && dir.file_name()? == "agents" {
        (dir.parent()?, super::FileKind::Agent)
    } else if name.ends_with(".toml")
        && let Some(commands) = path
            .ancestors()
            .skip(1)
            .find(|a| a.file_name().is_some_and(|n| n == "commands"))
        && commands
            .parent()
            .is_some_and(|g| g.file_name().is_some_and(|n| n == ".gemini") || home == Some(g))
    {
        (commands.parent()?, super::FileKind::Command)
    } else {
        return None;
    };
    if home == Some(gemini) {
        let kind = match kind {
            super::FileKind::Settings { .. } => super::FileKind::Settings { project: false },
            other => other,
        };
        let role = Role::Dialect {
            dir: gemini.to_path_buf(),
            layer: 0,
        };
        return Some((kind, role));
    }
    if gemini.file_name()? != ".gemini" {
        return None;
    }
    let role = Role::Dialect {
        dir: gemini.parent()?.to_path_buf(),
        layer: 1,
    };
    Some((kind, role))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_files_are_known_by_their_place() {
        let p = |s: &str| PathBuf::from(s);
        let home = p("/home/u/.gemini");
        let kind = |s: &str| kind_at(&p(s), Some(&home)).map(|(k, _)| k);
        assert_eq!(
            kind("/w/.gemini/settings.json"),
            Some(super::super::FileKind::Settings { project: true })
        );
        assert_eq!(
            kind("/home/u/.gemini/settings.json"),
            Some(super::super::FileKind::Settings { project: false })
        );
        assert_eq!(kind("/w/gemini/settings.json"), None);
        assert_eq!(kind("/w/.gemini/settings.jsonc"), None);
        assert_eq!(kind("/w/.gemini/sub/settings.json"), None);
        assert_eq!(
            kind("/w/.gemini/agents/reviewer.md"),
            Some(super::super::FileKind::Agent)
        );
        assert_eq!(
            kind("/home/u/.gemini/agents/mine.md"),
            Some(super::super::FileKind::Agent)
        );
        // Not read: a name starting with `_`, a sub-folder, another extension.
        assert_eq!(kind("/w/.gemini/agents/_draft.md"), None);
        assert_eq!(kind("/w/.gemini/agents/team/a.md"), None);
        assert_eq!(kind("/w/.gemini/agents/a.txt"), None);
        assert_eq!(kind("/w/gemini/agents/a.md"), None);
        assert_eq!(
            kind("/w/.gemini/commands/review.toml"),
            Some(super::super::FileKind::Command)
        );
        assert_eq!(
            kind("/w/.gemini/commands/git/commit.toml"),
            Some(super::super::FileKind::Command)
        );
        assert_eq!(
            kind("/home/u/.gemini/commands/mine.toml"),
            Some(super::super::FileKind::Command)
        );
        assert_eq!(kind("/w/.gemini/commands/readme.md"), None);
        assert_eq!(kind("/w/.gemini/other/x.toml"), None);
        assert_eq!(kind("/w/commands/x.toml"), None);
        assert_eq!(kind("/w/GEMINI.md"), Some(super::super::FileKind::Context));
        assert_eq!(kind("/w/src/GEMINI.md"), Some(super::super::FileKind::Context));
        assert_eq!(kind("/home/u/.gemini/GEMINI.md"), Some(super::super::FileKind::Context));
        assert_eq!(kind("/w/gemini.md"), None);
        let (_, role) = kind_at(&p("/w/.gemini/settings.json"), Some(&home)).unwrap();
        assert_eq!(role, Role::Dialect { dir: p("/w"), layer: 1 });
    }

    #[test]
    fn context_file_name_adds_the_instruction_files_gemini_cli_reads() {
        use crate::workspace::{Options, Workspace};
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let write = |rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        std::fs::create_dir_all(root.join(".git")).unwrap();
        write(".gemini/settings.json", r#"{"context": {"fileName": ["AGENTS.md"]}}"#);
        write("AGENTS.md", "Shared.\n");
        write("CONTEXT.md", "Other.\n");
        write("sub/AGENTS.md", "Started here, the root's settings are not read.\n");
        let home = root.join("home/.gemini");
        write(
            "home/.gemini/settings.json",
            r#"{"context": {"fileName": "CONTEXT.md"}}"#,
        );
        let ws = Workspace::load(&[root.clone(), home.clone()], &Options::isolated().with(HOME, &home)).unwrap();
        let gemini = |rel: &str| {
            let id = ws.id(&root.join(rel)).unwrap();
            let (_, verdicts) = ws.instruction_readers(id).unwrap();
            let v = verdicts.into_iter().find(|v| v.runtime == Dialect::Gemini).unwrap();
            (v.reads, v.why)
        };
        assert_eq!(
            gemini("AGENTS.md"),
            (
                true,
                "Gemini CLI reads it: `context.fileName` in `.gemini/settings.json` names it".to_string()
            )
        );
        assert_eq!(
            gemini("CONTEXT.md"),
            (
                false,
                "Gemini CLI reads `GEMINI.md` and `AGENTS.md` here (`context.fileName` in `.gemini/settings.json`), not `CONTEXT.md`".to_string()
            )
        );
        // Started in `sub/`, only the user's settings apply.
        assert_eq!(
            gemini("sub/AGENTS.md"),
            (
                false,
                "Gemini CLI reads `GEMINI.md` and `CONTEXT.md` here (`context.fileName` in `~/.gemini/settings.json`), not `AGENTS.md`".to_string()
            )
        );
    }

    #[test]
    fn an_edit_of_context_file_name_reaches_the_instruction_files_at_once() {
        use crate::analysis::Code;
        use crate::workspace::{Options, Workspace};
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join(".gemini")).unwrap();
        std::fs::write(root.join(".gemini/settings.json"), "{}\n").unwrap();
        std::fs::write(root.join("CONTEXT.md"), "Rules.\n").unwrap();
        // opencode reads AGENTS.md here, then no CONTEXT.md.
        std::fs::write(root.join("AGENTS.md"), "Shared.\n").unwrap();
        let mut ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
        let context = ws.id(&root.join("CONTEXT.md")).unwrap();
        let shadowed = |ws: &Workspace| {
            ws.diagnostics()
                .iter()
                .any(|(id, d)| *id == context && d.code == Code::ShadowedFile)
        };
        assert!(shadowed(&ws), "no runtime reads CONTEXT.md yet");
        let settings = ws.id(&root.join(".gemini/settings.json")).unwrap();
        ws.set_text(settings, r#"{"context": {"fileName": "CONTEXT.md"}}"#.into());
        assert!(!shadowed(&ws), "Gemini CLI reads it now: {:#?}", ws.diagnostics());
        ws.set_text(settings, "{}\n".into());
        assert!(shadowed(&ws), "and no longer");
    }
}
