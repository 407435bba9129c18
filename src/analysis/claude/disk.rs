//! What Claude Code's files name on disk, looked up as Claude Code looks them up: the scripts
//! hooks run and the path rules anchored at the project, a rule's `paths` patterns, a plugin
//! manifest's component paths, a memory file's `@path` imports (and theirs) and a command's
//! `@path` mentions. The analysis finds them; the disk (through the host) decides. Run when a
//! file is analysed and again when files appear or vanish.

use std::path::{Path, PathBuf};

use super::Source;
use super::memory;
use super::place::{Place, dir_at, place};
use super::plugin::members::{Plugin, plugin_files};
use super::settings::{PermissionRule, SettingsFile};
use crate::analysis::diagnostic::{Edit, Effect, Severity};
use crate::analysis::discovery::normalize;
use crate::analysis::host::{Disk, Host, Role, memoized};
use crate::analysis::prompt::FileRef;
use crate::analysis::spec::DiskFindings;
use crate::analysis::{Code, Diagnostic, Span};

/// Claude Code's checks of file `id` that look at the disk.
pub fn checks(host: &dyn Host, id: usize) -> Vec<DiskFindings> {
    [
        imports(host, id),
        hook_scripts(host, id),
        rule_paths(host, id),
        manifest(host, id),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Whether a rule's `paths` pattern matches a file of its project (`None`: no verdict).
#[derive(Clone, Copy)]
struct RuleMatch(Option<bool>);

/// Which kind of reference: where a relative path starts and what the finding says.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Refs {
    /// A memory file's imports: relative to the file's folder.
    Import,
    /// A command's mentions: relative to the project (the folder Claude Code starts in).
    Mention,
}

/// The references of file `id` and the folder relative paths start at, if it has any.
fn file_refs(host: &dyn Host, id: usize) -> Option<(Refs, &[FileRef], PathBuf)> {
    let f = host.file(id)?;
    if let Some(m) = f.analysis.memory() {
        return Some((Refs::Import, &m.imports, f.path.parent()?.to_path_buf()));
    }
    // Only Claude Code's reading of a command finds mentions; a plugin's command runs in
    // whatever project the user starts Claude Code in.
    if f.kind.command()?.plugin {
        return None;
    }
    let Role::Command { dir } = f.role else { return None };
    Some((Refs::Mention, &f.analysis.command()?.mentions, dir.clone()))
}

/// Where a reference of file `id` leads on disk, if it can be told (`~/` needs the home
/// folder).
pub fn file_ref_target(host: &dyn Host, id: usize, r: &FileRef) -> Option<PathBuf> {
    let (_, _, base) = file_refs(host, id)?;
    target(&r.path, &base, host.options().home.as_deref())
}

/// The references of file `id` that lead to a file or folder, with where: for document
/// links.
pub fn file_ref_links(host: &dyn Host, id: usize) -> Vec<(Span, PathBuf)> {
    let Some((_, refs, base)) = file_refs(host, id) else {
        return Vec::new();
    };
    let home = host.options().home.as_deref();
    let disk = host.disk();
    refs.iter()
        .filter_map(|r| {
            let t = target(&r.path, &base, home)?;
            disk.exists(&t).then_some((r.span, t))
        })
        .collect()
}

/// Look up the references of file `id` and replace its `missing-path` findings; returns
/// whether they changed.
fn imports(host: &dyn Host, id: usize) -> Option<DiskFindings> {
    let disk = host.disk();
    let found: Vec<Diagnostic> = match file_refs(host, id) {
        Some((which, refs, base)) => {
            let home = host.options().home.as_deref();
            let mut out = Vec::new();
            for r in refs {
                match problem(which, r, &base, home, disk) {
                    Some(d) => out.push(d),
                    None if which == Refs::Import => out.extend(nested(r, &base, home, disk)),
                    None => {}
                }
            }
            out
        }
        // Not a file with references: its `missing-path` findings, if any, are another
        // check's (opencode's paths, `paths.rs`).
        None => return None,
    };
    // Warnings only: a rule's `paths` that match no file are information of its own
    // (`check_rule_paths`).
    Some(DiskFindings {
        own: Some(|d| d.code == Code::MissingPath && d.severity == Severity::Warning),
        found,
    })
}

fn hook_scripts(host: &dyn Host, id: usize) -> Option<DiskFindings> {
    let f = host.file(id)?;
    let disk = host.disk();
    let mut rules: &[PermissionRule] = &[];
    let (scripts, project, plugin) = match (place(&f), f.analysis.settings(), f.analysis.claude()) {
        (Some((dir, Place::Settings)), Some(s), _) if f.kind.settings() != Some(SettingsFile::User) => {
            rules = &s.rules;
            (s.scripts.as_slice(), Some(dir), None)
        }
        // A plugin's hooks file: `${CLAUDE_PLUGIN_ROOT}` is the plugin.
        (Some((dir, Place::Plugin)), _, _) if f.kind.is_plugin_hooks() => {
            (f.analysis.plugin_hook_scripts().unwrap_or_default(), None, Some(dir))
        }
        // A plugin's agents ignore `hooks`; a user's run in whichever project.
        (Some((dir, Place::Agent)), _, Some(c)) if f.kind.claude().map(|k| &k.source) == Some(&Source::Project) => {
            (c.agent.hook_scripts.as_slice(), Some(dir), None)
        }
        _ => return None,
    };
    let had = f.analysis.diagnostics.iter().any(|d| d.code == Code::MissingPath);
    if scripts.is_empty() && rules.is_empty() && !had {
        return None;
    }
    let mut found = Vec::new();
    // A path rule with one leading `/` is anchored at the project: a first folder the
    // project does not hold most likely meant the absolute path (`//etc/**`).
    for r in rules {
        let Some(project) = project else { break };
        let Some(at) = project_anchored(r).filter(|&at| f.text.as_bytes().get(at) == Some(&b'/')) else {
            continue;
        };
        let first = r.specifier.as_deref().unwrap_or_default()[1..]
            .split('/')
            .next()
            .unwrap_or_default();
        if first.is_empty() || first.contains(['*', '?', '[', '{']) {
            continue;
        }
        let path = project.join(first);
        let exists = disk.exists(&path);
        if exists {
            continue;
        }
        let spec = r.specifier.as_deref().unwrap_or_default();
        let slash = Span::new(at, at + 1);
        found.push(
            Diagnostic::new(
                Code::MissingPath,
                slash,
                format!(
                    "`{spec}` starts at the project's root (one leading `/`), which holds no `{first}`: for the absolute path write `/{spec}`"
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::RuleNeverApplies)
            .with_fix(format!("Write the absolute path `/{spec}`"), vec![Edit::new(Span::new(at, at), "/")], false),
        );
    }
    for s in scripts {
        let Some((base, rest, anchor)) = script_base(&s.path, project, plugin) else {
            continue;
        };
        let path = base.join(rest);
        let exists = disk.exists(&path);
        if !exists {
            found.push(
                Diagnostic::new(
                    Code::MissingPath,
                    s.span,
                    format!(
                        "there is no file `{rest}` in {anchor}: this hook's command fails each time it runs (and a failing hook blocks nothing)"
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored),
            );
        }
    }
    Some(DiskFindings {
        own: Some(|d| d.code == Code::MissingPath),
        found,
    })
}

fn rule_paths(host: &dyn Host, id: usize) -> Option<DiskFindings> {
    let f = host.file(id)?;
    let (Some(m), Some(crate::analysis::claude::memory::MemoryFile::Rule)) = (f.analysis.memory(), f.kind.memory())
    else {
        return None;
    };
    // Its own findings: information (an import that names no file is a warning, see
    // `check_imports`).
    let own: fn(&Diagnostic) -> bool = |d| d.code == Code::MissingPath && d.severity == Severity::Info;
    let had = f.analysis.diagnostics.iter().any(own);
    if m.paths.is_empty() && !had {
        return None;
    }
    let dir = dir_at(&f, Place::Memory)?.to_path_buf();
    let patterns = m.paths.clone();
    let mut unmatched = Vec::new();
    for (pattern, span) in &patterns {
        let key = PathBuf::from(format!("{}\u{0}{pattern}", dir.display()));
        let matched = memoized(host, &key, || {
            RuleMatch(
                host.disk()
                    .files_below(&dir)
                    .map(|files| gitignore_match(&dir, pattern, &files)),
            )
        })
        .0;
        if matched != Some(false) {
            unmatched.clear();
            break;
        }
        unmatched.push((pattern.as_str(), *span));
    }
    let mut found = Vec::new();
    if let (Some(first), Some(last)) = (unmatched.first(), unmatched.last()) {
        let message = match unmatched.as_slice() {
            [(pattern, _)] => format!(
                "`{pattern}` matches no file of this project yet: Claude Code loads this rule only when it reads a file that `paths` matches"
            ),
            all => format!(
                "none of the {} patterns of `paths` matches a file of this project yet: Claude Code loads this rule only when it reads a file they match",
                all.len()
            ),
        };
        let span = Span::new(first.1.start as usize, last.1.end.max(first.1.end) as usize);
        found.push(
            Diagnostic::new(Code::MissingPath, span, message)
                .with_severity(Severity::Info)
                .with_effect(Effect::ValueIgnored),
        );
    }
    Some(DiskFindings { own: Some(own), found })
}

fn manifest(host: &dyn Host, id: usize) -> Option<DiskFindings> {
    use super::plugin::{Manifest, Want};
    let f = host.file(id)?;
    let disk = host.disk();
    let (Some(kind), Some(m), Some(root)) = (
        f.kind.manifest(),
        f.analysis.manifest(),
        f.path.parent().and_then(Path::parent),
    ) else {
        return None;
    };
    let error = |span: Span, message: String, effect: Effect| {
        Diagnostic::new(Code::InvalidValue, span, message)
            .with_severity(Severity::Error)
            .with_effect(effect)
    };
    let mut out = Vec::new();
    match kind {
        Manifest::Plugin => {
            for p in &m.paths {
                let target = root.join(p.path.trim_start_matches("./"));
                let is_dir = disk.is_dir(&target);
                let problem = match disk.exists(&target) {
                    false => Some(format!(
                        "`{}` does not exist in the plugin: `claude plugin validate` rejects the manifest, and Claude Code loads the plugin without it",
                        p.path
                    )),
                    true if p.want == Want::Dir && !is_dir => Some(format!(
                        "`{}` is a file: `{}` lists folders that hold `SKILL.md` (here `./{}`); Claude Code skips it",
                        p.path,
                        p.field,
                        Path::new(p.path.trim_start_matches("./"))
                            .parent()
                            .map(|d| d.to_string_lossy().into_owned())
                            .unwrap_or_default()
                    )),
                    true if p.want == Want::File && is_dir => Some(format!(
                        "`{}` is a folder: `{}` lists files; Claude Code skips it",
                        p.path, p.field
                    )),
                    true => None,
                };
                if let Some(message) = problem {
                    out.push(error(p.span, message, Effect::ValueIgnored));
                }
            }
            // `agents`, `commands` and `outputStyles` replace their default folder.
            let root_map = f.analysis.parsed.root.as_ref().and_then(|r| r.as_map());
            for (field, set, folder_name) in [
                ("agents", m.layout.agents.is_some(), "agents"),
                ("commands", m.layout.commands.is_some(), "commands"),
                ("outputStyles", !m.layout.output_styles.is_empty(), "output-styles"),
            ] {
                let Some(entry) = root_map.and_then(|r| r.get(field)).filter(|_| set) else {
                    continue;
                };
                // As the text says (an editor's buffer may differ from the disk).
                let plugin = Plugin {
                    root: root.to_path_buf(),
                    name: m.name.clone().unwrap_or_default(),
                    layout: m.layout.clone(),
                };
                let listed: std::collections::HashSet<PathBuf> =
                    plugin_files(&plugin, disk).into_iter().map(|(p, _)| p).collect();
                // What the default folder would give without the field.
                let mut default = plugin.clone();
                match field {
                    "agents" => default.layout.agents = None,
                    "commands" => default.layout.commands = None,
                    _ => default.layout.output_styles.clear(),
                }
                let folder = root.join(folder_name);
                let mut left_out: Vec<PathBuf> = plugin_files(&default, disk)
                    .into_iter()
                    .map(|(p, _)| p)
                    .filter(|p| p.starts_with(&folder) && !listed.contains(p))
                    .collect();
                if left_out.is_empty() {
                    continue;
                }
                left_out.sort();
                let first = left_out[0]
                    .strip_prefix(root)
                    .map(|r| r.to_string_lossy().into_owned())
                    .unwrap_or_default();
                out.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        entry.key.span,
                        format!(
                            "setting `{field}` replaces the plugin's `{folder_name}/` folder: Claude Code does not load the {} file{} there that `{field}` leaves out (`{first}`{})",
                            left_out.len(),
                            if left_out.len() == 1 { "" } else { "s" },
                            if left_out.len() > 1 { ", ..." } else { "" }
                        ),
                    )
                    .with_severity(Severity::Warning)
                    // Not `file-ignored`: on a manifest, that effect means the plugin does
                    // not load.
                    .with_effect(Effect::ValueIgnored),
                );
            }
        }
        Manifest::Marketplace => {
            // An entry's `version` beside a local plugin's own: plugin.json wins at install.
            let items = f
                .analysis
                .parsed
                .root
                .as_ref()
                .and_then(|r| r.as_map())
                .and_then(|r| r.value("plugins"))
                .and_then(|p| match &p.value {
                    crate::analysis::syntax::Value::Seq(items) => Some(items),
                    _ => None,
                });
            for item in items.into_iter().flatten() {
                let Some(entry) = item.as_map() else { continue };
                let (Some(name), Some(version)) =
                    (entry.value("name").and_then(|n| n.as_str()), entry.value("version"))
                else {
                    continue;
                };
                let Some(written) = version.as_str() else { continue };
                let Some(Some((p, _))) = m.entries.iter().find(|(n, _)| n == name).map(|(_, s)| s) else {
                    continue;
                };
                let manifest = root.join(p).join(".claude-plugin").join("plugin.json");
                let own = disk
                    .read_text(&manifest, 1 << 20)
                    .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                    .and_then(|v| v.get("version").and_then(|v| v.as_str()).map(str::to_string));
                if let Some(own) = own.filter(|o| o != written) {
                    out.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            version.span,
                            format!(
                                "`{name}`'s plugin.json says version \"{own}\": Claude Code installs \"{own}\" and ignores this one (`claude plugin validate` warns)"
                            ),
                        )
                        .with_severity(Severity::Warning)
                        .with_effect(Effect::ValueIgnored)
                        .with_fix(
                            format!("Write \"{own}\""),
                            vec![crate::analysis::diagnostic::Edit::new(version.span, format!("\"{own}\""))],
                            true,
                        ),
                    );
                }
            }
            for (name, source) in &m.entries {
                let Some((p, span)) = source else { continue };
                if !disk.is_dir(&root.join(p)) {
                    out.push(error(
                        *span,
                        format!(
                            "`{p}` is no folder of this marketplace: Claude Code cannot install `{name}` (\"Source path does not exist\"); `claude plugin validate` does not check it"
                        ),
                        Effect::FailsWhenUsed,
                    ));
                }
            }
        }
    }
    // Added to the file's own findings: the analysis that precedes it found none of these.
    Some(DiskFindings { own: None, found: out })
}

/// The byte offset of the leading `/` of a path rule anchored at the project (`Edit(/src/**)`):
/// a file tool, a specifier with exactly one leading slash, written as read (no escapes).
fn project_anchored(r: &PermissionRule) -> Option<usize> {
    if !matches!(
        r.tool.as_str(),
        "Read" | "Edit" | "Write" | "MultiEdit" | "NotebookEdit"
    ) {
        return None;
    }
    let spec = r.specifier.as_deref()?;
    if !spec.starts_with('/') || spec.starts_with("//") {
        return None;
    }
    // The rule's text starts right after the opening quote.
    let open = r.text.find('(')?;
    (r.text.get(open + 1..open + 2) == Some("/")).then_some(r.span.start as usize + 1 + open + 1)
}

/// Where a hook's script path starts: (folder, path below it, how the message names the folder).
fn script_base<'a>(
    path: &'a str,
    project: Option<&'a Path>,
    plugin: Option<&'a Path>,
) -> Option<(&'a Path, &'a str, &'static str)> {
    for prefix in ["${CLAUDE_PROJECT_DIR}/", "$CLAUDE_PROJECT_DIR/"] {
        if let Some(rest) = path.strip_prefix(prefix) {
            return Some((project?, rest, "the project (`$CLAUDE_PROJECT_DIR`)"));
        }
    }
    for prefix in ["${CLAUDE_PLUGIN_ROOT}/", "$CLAUDE_PLUGIN_ROOT/"] {
        if let Some(rest) = path.strip_prefix(prefix) {
            return Some((plugin?, rest, "the plugin (`${CLAUDE_PLUGIN_ROOT}`)"));
        }
    }
    let rest = path.strip_prefix("./").unwrap_or(path);
    Some((
        project?,
        rest,
        "the project (hooks run in the folder Claude Code starts in)",
    ))
}

/// Whether a rule's `paths` pattern matches one of `files` (relative to `dir`), gitignore-style as
/// Claude Code matches it: a pattern without `/` at any depth, `dir/**` below `dir`.
fn gitignore_match(dir: &Path, pattern: &str, files: &[PathBuf]) -> bool {
    let mut b = ignore::gitignore::GitignoreBuilder::new(dir);
    if b.add_line(None, pattern).is_err() {
        // A pattern the reader cannot read: no verdict.
        return true;
    }
    let Ok(g) = b.build() else { return true };
    files
        .iter()
        .any(|f| g.matched_path_or_any_parents(dir.join(f), false).is_ignore())
}

/// The imports of the file an import reads, and theirs, as deep as Claude Code goes
/// ([`memory::MAX_IMPORT_DEPTH`]), that name no file: each a finding on `r`, the import that leads
/// there (the file imported is no file agent-lsp checks on its own). A file Claude Code reads as a
/// memory file anyway (a `CLAUDE.md`, a rule) is checked on its own, and not followed here.
fn nested(r: &FileRef, base: &Path, home: Option<&Path>, disk: &dyn Disk) -> Vec<Diagnostic> {
    let Some(first) = target(&r.path, base, home) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut seen = vec![first.clone()];
    // (the file, how deep it is, the chain of paths that leads to it)
    let mut stack = vec![(first, 1usize, vec![r.path.clone()])];
    while let Some((file, depth, chain)) = stack.pop() {
        if depth >= memory::MAX_IMPORT_DEPTH
            || super::discover::memory_kind(&file, home).is_some()
            || !memory::is_text(&file.to_string_lossy())
        {
            continue;
        }
        let Ok(text) = disk.read_file(&file) else {
            continue;
        };
        let Some(folder) = file.parent() else { continue };
        for inner in memory::imports(&text) {
            let Some(t) = target(&inner.path, folder, home) else {
                continue;
            };
            if seen.contains(&t) {
                continue;
            }
            seen.push(t.clone());
            let via = chain.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" → ");
            if !disk.exists(&t) {
                out.push(
                    Diagnostic::new(
                        Code::MissingPath,
                        r.span,
                        format!(
                            "`{}` (imported by {via}, from its folder) names no file: Claude Code leaves that import out without a word",
                            inner.path
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_effect(Effect::ValueIgnored),
                );
            } else if disk.is_file(&t) {
                let mut chain = chain.clone();
                chain.push(inner.path.clone());
                stack.push((t, depth + 1, chain));
            }
        }
    }
    out
}

/// The punctuation a sentence puts right after a path, which Claude Code keeps in an import.
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', ')', ']', '"', '\''];

/// Where a path leads: `~/` from the home folder, an absolute path as is, anything else from
/// `base`.
fn target(path: &str, base: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let p = if let Some(rest) = path.strip_prefix("~/") {
        home?.join(rest)
    } else if path == "~" {
        home?.to_path_buf()
    } else {
        base.join(path)
    };
    Some(normalize(&p))
}

/// The finding for a reference Claude Code does not read, if it does not.
fn problem(which: Refs, r: &FileRef, base: &Path, home: Option<&Path>, disk: &dyn Disk) -> Option<Diagnostic> {
    let t = target(&r.path, base, home)?;
    let message = match which {
        Refs::Import if disk.is_dir(&t) => format!(
            "`{}` is a folder: Claude Code imports files only and leaves this import out without a word",
            r.path
        ),
        Refs::Import if disk.is_file(&t) && !memory::is_text(&r.path) => format!(
            "`{}` is not a text file Claude Code imports (its extension is not one of a text file's): the import is left out, said only in the debug log",
            r.path
        ),
        Refs::Import
            if !disk.exists(&t)
                && let p = r.path.trim_end_matches(TRAILING)
                && p.len() < r.path.len()
                && target(p, base, home).is_some_and(|t| disk.is_file(&t)) =>
        {
            let punct = &r.path[p.len()..];
            format!(
                "`{}` names no file: `{punct}` right after the path is part of it for Claude Code, which leaves the import out without a word (`{p}` exists; put a blank before the `{punct}`)",
                r.path
            )
        }
        Refs::Import if !disk.exists(&t) => format!(
            "`{}` names no file (an import resolves from this file's folder{}): Claude Code leaves the import out without a word, so the model never sees it",
            r.path,
            if r.path.starts_with("~/") {
                ", `~/` from the home folder"
            } else {
                ""
            }
        ),
        Refs::Mention if !disk.exists(&t) => format!(
            "`{}` names no file (a command's `@path` resolves from the folder Claude Code starts in, the project): Claude Code attaches nothing for it, without a word",
            r.path
        ),
        _ => return None,
    };
    Some(
        Diagnostic::new(Code::MissingPath, r.span, message)
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
    )
}

/// Which instruction file a memory file is: `AGENTS.md`, `CONTEXT.md`, `CLAUDE.md`,
/// `CLAUDE.local.md` (or one in `.claude/`), with its folder; not a rule or the user's.
pub fn instruction_file(host: &dyn Host, id: usize) -> Option<(crate::analysis::instructions::Which, PathBuf)> {
    use super::instructions::{AGENTS, CLAUDE, CLAUDE_LOCAL, CONTEXT, DOT_CLAUDE_AGENTS, DOT_CLAUDE_CLAUDE};
    use memory::MemoryFile;
    let f = host.file(id)?;
    let dir = dir_at(&f, Place::Memory)?;
    let in_dot_claude = f
        .path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == ".claude");
    let which = match (f.kind.memory()?, in_dot_claude) {
        (MemoryFile::Agents, true) => DOT_CLAUDE_AGENTS,
        (MemoryFile::Agents, false) => AGENTS,
        (MemoryFile::Context, _) => CONTEXT,
        (MemoryFile::Project, true) => DOT_CLAUDE_CLAUDE,
        (MemoryFile::Project, false) => CLAUDE,
        (MemoryFile::Local, _) => CLAUDE_LOCAL,
        (MemoryFile::Rule | MemoryFile::User, _) => return None,
    };
    Some((which, dir.to_path_buf()))
}

/// The files the memory files Claude Code reads (a `CLAUDE.md` and the like, not an `AGENTS.md`)
/// import with `@path`, each with the file that imports it.
pub fn instruction_imports(host: &dyn Host) -> Vec<(PathBuf, PathBuf)> {
    use memory::MemoryFile;
    let mut out = Vec::new();
    for f in host.files() {
        if !matches!(
            f.kind.memory(),
            Some(MemoryFile::Project | MemoryFile::Local | MemoryFile::User)
        ) {
            continue;
        }
        let Some(m) = f.analysis.memory() else { continue };
        for r in &m.imports {
            if let Some(t) = file_ref_target(host, f.id, r)
                && t != f.path
            {
                out.push((t, f.path.to_path_buf()));
            }
        }
    }
    out
}
