//! The corpus test: real agent files from public repositories (`../shared/corpus/`, see its
//! README.md and MANIFEST.tsv) are laid back out at their original paths, one temporary tree per
//! repository, and checked the way `agent-lsp check --no-global` checks a checkout.
//!
//! - Every opencode file (kinds `A_opencode_agent` and `B_opencode_config`) must be analysed, and
//!   none may get an error, except the files of `EXPECTED_ERRORS`, which really fail at run time
//!   (and each of whose errors must still fire, so the table cannot rot).
//! - Claude Code agents, skills and command files (kinds `C_claude_agent` and `D_skill_command`)
//!   laid out at their original paths must not be picked up as opencode files.
//! - Claude Code agents (kind `C_claude_agent`), laid out in each repository's `.claude/agents/`
//!   (where Claude Code reads them; several come from collections kept elsewhere), must be read
//!   exactly as release 2.1.332 reads them (`shared/spec/claude-code.md` §7.8): which files load,
//!   which parse only through the lenient retry, and errors only on the files it skips. Every
//!   diagnostic is pinned in `tests/corpus/claude.snap`.
//! - Every diagnostic of every opencode corpus file (file, line, column, severity, effect,
//!   code) is pinned in `tests/corpus/opencode.snap`, with the files that get none listed as
//!   `ok`: any change in what is reported shows up as a diff to review. Refresh it after an
//!   intended change with `UPDATE_EXPECT=1 cargo test --test corpus`.
//! - `cargo test --test corpus -- --nocapture` prints the warning counts by code.
//!
//! The expectations come from the facts in `shared/spec/opencode.md` (opencode 1.18.34), not from
//! the hand labels in MANIFEST.tsv. Hand labels this test disagrees with:
//!
//! - ryan-brosas/opencode-coding-template `.opencode/agent/{build,explore,general,plan,review,
//!   scout}.md`, labelled "error" for a `"*": ask` catch-all placed last under `permission.bash`:
//!   opencode loads these files; "last match wins" (spec §6.4) makes the earlier rules dead, which
//!   is a trap worth a warning (`shadowed-rule`), not a load failure.
//! - Kyohei-Prj/opencode-config `.opencode/agents/review-consolidator.md`, labelled "error" for the
//!   unquoted `description: Checks five patterns: ...`: strict YAML rejects it, but opencode's
//!   sanitizer retry turns the value into a block scalar and the agent loads with all its settings
//!   (spec §3.2), so this is a warning.
//! - shahboura/agents-opencode `.opencode/agents/{codebase,em-advisor,orchestrator}.md`, labelled
//!   "error" for `"rm -rf *"`-style keys directly under `permission`: the permission schema has a
//!   rest record (spec §6.1), so the file loads; the rules match no tool and do nothing, which is
//!   a warning (`unknown-permission`).
//! - david-eve-za/opencode-config `opencode.jsonc` and slaid098/opencode-config
//!   `.opencode/opencode.json`, labelled "error" for a duplicate key in a `bash` map: JSON parsing
//!   keeps the last value and opencode starts, so this is a warning (`duplicate-key`).
//! - fishead/opencode-config `opencode.jsonc`, labelled "error": a dead `permission.write` is a
//!   warning, and two Markdown files both named `OpenCoder` are merged (a duplicate, not a failure);
//!   the config also lists plugins. Nothing in it stops opencode.
//! - darellchua2/opencode-config-template `opencode_app/opencode.json`, labelled "error" for
//!   `permission.tool: {"codegraph*": ...}` and `read: {"mcp:*": ...}`: any permission key and any
//!   pattern is accepted by the schema (spec §6.1), and `subagent_depth` is a 1.18 key (§9.4), so
//!   the file loads; those rules simply never match.
//! - Theme colors labelled "warn" as "newer opencode only": ada-x64/opencode-config
//!   `src/opencode.json`, 0serna/opencode-config `dotfiles/opencode/opencode.jsonc`,
//!   Akese315/my-agents `agents/orchestrator.md` and `agents/c-security-reviewer.md`,
//!   Ahmed-ES-SH/opencode-configration `agents/Agent-verification.md`: `primary`, `secondary`,
//!   `accent`, `success`, `error` are valid colors in 1.18 (spec §5); nothing to report.
//! - mgajewskik/opencode-config `opencode.json`, labelled "ok (theme/keybinds top-level)": `theme`
//!   and `keybinds` are not top-level keys of the 1.18.34 config (spec §10), so opencode drops them
//!   silently (`unknown-key` warnings); its bash map also has real shadowed rules (a
//!   `"kubectl apply --force*": deny` followed by `"kubectl apply*": ask`).
//! - BontaVlad/NimDrake `.opencode/agents/{ask,review}.md` and mpazik/binder
//!   `.opencode/agent/explore.md`, labelled "ok": they set `codesearch` / `list` permissions, which
//!   no 1.18 tool consults (spec §6.2), so those rules do nothing (`unknown-permission` warnings).
//! - mikekwright/opencode-configuration `opencode.json`, labelled "ok (default_agent resolves to md
//!   agent)": that Markdown agent (and the command agent `flake-setup-tester`) was not collected,
//!   so in the laid-out corpus `default_agent` names no agent, which is an error there.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use agent_lsp::analysis::{Code, Encoding, Severity};
use agent_lsp::workspace::{Options, Workspace};

/// The opencode corpus files that really fail at run time, with the error codes they must get.
const EXPECTED_ERRORS: &[(&str, &[&str])] = &[
    // `{file:...}` references to prompt, model and key files that were not collected: in the
    // laid-out corpus opencode refuses to start with `bad file reference` (the runtime
    // harness, tests/runtime, confirms each). In their repositories the files exist.
    (
        "B_opencode_config/Aidanmcgrath94__opencode-config__opencode.jsonc",
        &["bad-file-reference"],
    ),
    (
        "B_opencode_config/MadMartigane__opencode-config__opencode.jsonc",
        &["bad-file-reference"],
    ),
    (
        "B_opencode_config/ada-x64__opencode-config__src__opencode.json",
        &["bad-file-reference"],
    ),
    (
        "B_opencode_config/mgajewskik__opencode-config__opencode.json",
        &["bad-file-reference"],
    ),
    // A stray `}` after the `command` map: the JSONC does not parse, opencode stops with
    // ConfigJsonError.
    (
        "B_opencode_config/CowboyLogic__ai-dev__docs__tools__opencode__standard-config__opencode.json",
        &["syntax-error"],
    ),
    // `default_agent: "neo"`: no agent of that name in the repository's opencode layout (the
    // neo.agent.md file sits outside any agent directory), so `default agent "neo" not found`.
    (
        "B_opencode_config/CowboyLogic__ai-dev__harness__opencode__opencode.jsonc",
        &["invalid-default-agent"],
    ),
    // `default_agent: "conductor"`: conductor.md sits outside any agent directory, so
    // `default agent "conductor" not found`.
    (
        "B_opencode_config/CowboyLogic__ai-dev__harness__opencode-lane__opencode.jsonc",
        &["invalid-default-agent"],
    ),
    // `default_agent: "opencode-configuration-manager"`: the corpus holds no file defining it (the
    // repository's Markdown agent was not collected), so in this tree it is not found.
    (
        "B_opencode_config/mikekwright__opencode-configuration__opencode.json",
        &["invalid-default-agent"],
    ),
];

const OPENCODE_KINDS: &[&str] = &["A_opencode_agent", "B_opencode_config"];
const OTHER_KINDS: &[&str] = &["C_claude_agent", "D_skill_command"];

struct Entry {
    kind: String,
    local_file: String,
    repo: String,
    /// The file's path inside its repository.
    path: String,
}

fn corpus_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        dir.join("MANIFEST.tsv").is_file(),
        "the corpus is missing: expected {} (the shared/ directory checked out beside the repository)",
        dir.join("MANIFEST.tsv").display()
    );
    dir
}

/// A TSV field, unquoted CSV-style (`"a ""b"""` is `a "b"`).
fn unquote(field: &str) -> String {
    match field.strip_prefix('"').and_then(|f| f.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => field.to_string(),
    }
}

fn manifest(dir: &Path) -> Vec<Entry> {
    let text = fs::read_to_string(dir.join("MANIFEST.tsv")).expect("read MANIFEST.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("MANIFEST.tsv is empty").split('\t').collect();
    assert_eq!(header, ["kind", "local_file", "repo", "path", "commit", "notes"]);
    let mut entries = Vec::new();
    for (i, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let fields: Vec<String> = line.split('\t').map(unquote).collect();
        assert_eq!(fields.len(), 6, "MANIFEST.tsv line {}: {line:?}", i + 2);
        let local = dir.join(&fields[1]);
        assert!(
            local.is_file(),
            "MANIFEST.tsv line {}: {} is missing",
            i + 2,
            local.display()
        );
        let [kind, local_file, repo, path, _commit, _notes] = <[String; 6]>::try_from(fields).unwrap();
        entries.push(Entry {
            kind,
            local_file,
            repo,
            path,
        });
    }
    entries
}

/// Copy each entry to its original path under `root`.
fn lay_out(corpus: &Path, root: &Path, entries: &[&Entry]) {
    for e in entries {
        let dest = root.join(&e.path);
        fs::create_dir_all(dest.parent().unwrap()).unwrap();
        fs::copy(corpus.join(&e.local_file), &dest).unwrap();
    }
}

fn by_repo<'a>(entries: &'a [Entry], kinds: &[&str]) -> BTreeMap<&'a str, Vec<&'a Entry>> {
    let mut repos: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in entries.iter().filter(|e| kinds.contains(&e.kind.as_str())) {
        repos.entry(e.repo.as_str()).or_default().push(e);
    }
    repos
}

/// Whether the workspace walk finds this file on its own: a config file anywhere, a Markdown file
/// under `.opencode/{agent,agents,mode,modes}/`, or one in an agent or mode folder next to an
/// `opencode.json(c)` of the same repository. The others (the "global-config layout" repositories
/// without their config) are given to `Workspace::load` as files.
fn found_by_walk(path: &str, repo_paths: &BTreeSet<&str>) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    let name = parts[parts.len() - 1];
    if name == "opencode.json" || name == "opencode.jsonc" {
        return true;
    }
    parts.iter().enumerate().take(parts.len() - 1).any(|(i, dir)| {
        let depth_ok = match *dir {
            "agent" | "agents" => true,
            "mode" | "modes" => i + 2 == parts.len(),
            _ => false,
        };
        let parent = &parts[..i];
        let config_dir = parent.last() == Some(&".opencode")
            || ["opencode.json", "opencode.jsonc"].iter().any(|c| {
                let mut config = parent.to_vec();
                config.push(c);
                repo_paths.contains(config.join("/").as_str())
            });
        depth_ok && config_dir
    })
}

fn canonical(p: &Path) -> PathBuf {
    fs::canonicalize(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn opencode_corpus_files_are_all_analysed_and_only_broken_ones_get_errors() {
    let corpus = corpus_dir();
    let entries = manifest(&corpus);
    let repos = by_repo(&entries, OPENCODE_KINDS);
    assert!(!repos.is_empty(), "no opencode files in MANIFEST.tsv");
    for (file, codes) in EXPECTED_ERRORS {
        assert!(
            entries.iter().any(|e| e.local_file == *file),
            "EXPECTED_ERRORS names {file}, which MANIFEST.tsv does not list"
        );
        for c in *codes {
            assert!(Code::from_name(c).is_some(), "EXPECTED_ERRORS: unknown code {c}");
        }
    }

    let mut problems: Vec<String> = Vec::new();
    // "<repo>/<path>:<line>:<column> <severity> <effect> <code>" per diagnostic, "<repo>/<path> ok"
    // per file without any.
    let mut snapshot: Vec<String> = Vec::new();
    // local_file -> the error codes it got.
    let mut errors: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    let mut warnings: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut infos: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut analysed = 0;
    let mut explicit_count = 0;

    for (repo, files) in &repos {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        lay_out(&corpus, &root, files);
        let repo_paths: BTreeSet<&str> = files.iter().map(|e| e.path.as_str()).collect();
        let mut paths = vec![root.clone()];
        for e in files.iter().filter(|e| !found_by_walk(&e.path, &repo_paths)) {
            paths.push(root.join(&e.path));
            explicit_count += 1;
        }
        let ws = Workspace::load(&paths, &Options::isolated()).unwrap_or_else(|e| panic!("{repo}: {e}"));
        assert!(ws.errors.is_empty(), "{repo}: unreadable: {:?}", ws.errors);

        // Every manifest file is in the workspace, in scope, with the right kind; nothing else is.
        let mut local_of: BTreeMap<usize, &str> = BTreeMap::new();
        for e in files {
            let want = canonical(&root.join(&e.path));
            match ws.files.iter().position(|f| canonical(&f.path) == want) {
                Some(id) if ws.files[id].in_scope => {
                    let is_md = e.path.ends_with(".md");
                    assert_eq!(ws.files[id].kind.is_markdown(), is_md, "{repo}: {}", e.path);
                    local_of.insert(id, &e.local_file);
                }
                Some(_) => problems.push(format!("{repo}: {} was loaded but not in scope", e.path)),
                None => problems.push(format!("{repo}: {} was not analysed", e.path)),
            }
        }
        assert_eq!(
            ws.files.len(),
            files.len(),
            "{repo}: files loaded that the manifest does not list"
        );
        analysed += local_of.len();

        let diagnostics = ws.diagnostics();
        for &id in local_of.keys() {
            let f = &ws.files[id];
            let rel = f.path.strip_prefix(&root).unwrap_or(&f.path).display().to_string();
            let own: Vec<&agent_lsp::analysis::Diagnostic> =
                diagnostics.iter().filter(|(i, _)| *i == id).map(|(_, d)| d).collect();
            if own.is_empty() {
                snapshot.push(format!("{repo}/{rel} ok"));
            }
            for d in own {
                let pos = f.index.line_col(&f.text, d.span.start as usize, Encoding::Utf32);
                snapshot.push(format!(
                    "{repo}/{rel}:{}:{} {} {} {}",
                    pos.line + 1,
                    pos.col + 1,
                    d.severity.as_str(),
                    d.effect.as_str(),
                    d.code.as_str()
                ));
            }
        }
        for (id, d) in diagnostics {
            let f = &ws.files[id];
            let local = local_of.get(&id).copied().unwrap_or("?");
            match d.severity {
                Severity::Error => {
                    errors.entry(local.to_string()).or_default().insert(d.code.as_str());
                    let pos = f.index.line_col(&f.text, d.span.start as usize, Encoding::Utf32);
                    let expected = EXPECTED_ERRORS
                        .iter()
                        .any(|(file, codes)| *file == local && codes.contains(&d.code.as_str()));
                    if !expected {
                        problems.push(format!(
                            "unexpected error on {repo}/{}:{}:{}: {} {}",
                            f.path.strip_prefix(&root).unwrap_or(&f.path).display(),
                            pos.line + 1,
                            pos.col + 1,
                            d.code.as_str(),
                            d.message
                        ));
                    }
                }
                Severity::Warning => *warnings.entry(d.code.as_str()).or_default() += 1,
                Severity::Info | Severity::Hint => *infos.entry(d.code.as_str()).or_default() += 1,
            }
        }
    }

    for (file, codes) in EXPECTED_ERRORS {
        let got = errors.get(*file).cloned().unwrap_or_default();
        let want: BTreeSet<&str> = codes.iter().copied().collect();
        if got != want {
            problems.push(format!("{file}: expected errors {want:?}, got {got:?}"));
        }
    }

    eprintln!(
        "corpus: {analysed} opencode files from {} repositories analysed ({explicit_count} given as files)",
        repos.len()
    );
    eprintln!("errors by file:");
    for (file, codes) in &errors {
        eprintln!("  {file}: {}", codes.iter().copied().collect::<Vec<_>>().join(", "));
    }
    eprintln!("warnings by code ({} in all):", warnings.values().sum::<usize>());
    for (code, n) in &warnings {
        eprintln!("  {code:<24}{n:>5}");
    }
    eprintln!("infos by code ({} in all):", infos.values().sum::<usize>());
    for (code, n) in &infos {
        eprintln!("  {code:<24}{n:>5}");
    }

    snapshot.sort_by(|a, b| {
        // By file, then by line and column as numbers.
        let key = |l: &str| {
            let head = l.split(' ').next().unwrap_or("").to_string();
            let mut parts = head.rsplitn(3, ':');
            let (c, l2, f) = (parts.next(), parts.next(), parts.next());
            match (
                f,
                l2.and_then(|x| x.parse::<u32>().ok()),
                c.and_then(|x| x.parse::<u32>().ok()),
            ) {
                (Some(f), Some(l), Some(c)) => (f.to_string(), l, c),
                _ => (head, 0, 0),
            }
        };
        key(a).cmp(&key(b)).then_with(|| a.cmp(b))
    });
    expect_test::expect_file!["corpus/opencode.snap"].assert_eq(&(snapshot.join("\n") + "\n"));

    let total: usize = repos.values().map(Vec::len).sum();
    assert_eq!(analysed, total, "not every opencode corpus file was analysed");
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn claude_agents_skills_and_commands_are_not_loaded_as_opencode_files() {
    let corpus = corpus_dir();
    let entries = manifest(&corpus);
    let repos = by_repo(&entries, OTHER_KINDS);
    assert!(
        !repos.is_empty(),
        "no Claude agent, skill or command files in MANIFEST.tsv"
    );
    for (repo, files) in &repos {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        lay_out(&corpus, &root, files);
        let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
        let loaded: Vec<String> = ws
            .files
            .iter()
            .filter(|f| {
                f.kind.dialect() == agent_lsp::analysis::Dialect::Opencode
                    && !matches!(
                        f.kind,
                        agent_lsp::analysis::FileKind::Skill(_) | agent_lsp::analysis::FileKind::Command(_)
                    )
            })
            .map(|f| f.path.strip_prefix(&root).unwrap_or(&f.path).display().to_string())
            .collect();
        assert!(loaded.is_empty(), "{repo}: loaded as opencode files: {loaded:?}");
    }
}

/// Where a Claude corpus file goes: its path when it is under `.claude/agents/`, else the same
/// path inside `.claude/agents/`.
fn claude_path(path: &str) -> String {
    if path.starts_with(".claude/agents/") {
        path.to_string()
    } else {
        format!(".claude/agents/{path}")
    }
}

#[test]
fn claude_corpus_is_read_as_claude_code_reads_it() {
    use agent_lsp::analysis::claude::read::Outcome;
    let corpus = corpus_dir();
    let entries = manifest(&corpus);
    let repos = by_repo(&entries, &["C_claude_agent"]);
    let mut snapshot: Vec<String> = Vec::new();
    let mut outcomes: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut loaded = 0;
    let mut files = 0;
    for (repo, list) in &repos {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        for e in list {
            let dest = root.join(claude_path(&e.path));
            fs::create_dir_all(dest.parent().unwrap()).unwrap();
            fs::copy(corpus.join(&e.local_file), &dest).unwrap();
        }
        let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
        let root = canonical(&root);
        let diags = ws.diagnostics();
        for e in list {
            let dest = canonical(&root.join(claude_path(&e.path)));
            let id = ws
                .files
                .iter()
                .position(|f| f.path == dest)
                .unwrap_or_else(|| panic!("{repo}: {} was not loaded", e.path));
            let f = &ws.files[id];
            assert_eq!(
                f.kind.dialect(),
                agent_lsp::analysis::Dialect::Claude,
                "{}",
                e.local_file
            );
            files += 1;
            let c = f.analysis.claude().expect("a Claude file");
            let outcome = match c.reading.outcome {
                Outcome::NoFrontmatter => "no frontmatter",
                Outcome::FirstPass => "first pass",
                Outcome::Retry => "retry only",
                Outcome::Failed => "fails both passes",
                Outcome::NotMapping => "not a mapping",
            };
            let name = e.local_file.trim_start_matches("C_claude_agent/").to_string();
            outcomes.entry(outcome).or_default().push(name.clone());
            if c.agent.loaded() {
                loaded += 1;
            }
            let mine: Vec<_> = diags.iter().filter(|(i, _)| *i == id).map(|(_, d)| d).collect();
            // Errors exactly where Claude Code skips the file.
            let errors = mine.iter().any(|d| d.severity == Severity::Error);
            let skipped_for_a_reason = matches!(c.agent.status, agent_lsp::analysis::claude::agent::Status::Skipped(_));
            assert_eq!(errors, skipped_for_a_reason, "{name}: errors {mine:#?}");
            if mine.is_empty() {
                snapshot.push(format!("{name} ok"));
            }
            for d in mine {
                let p = f.index.line_col(&f.text, d.span.start as usize, Encoding::Utf16);
                snapshot.push(format!(
                    "{name}:{}:{} {} {} {}",
                    p.line + 1,
                    p.col + 1,
                    d.severity.as_str(),
                    d.effect.as_str(),
                    d.code.as_str()
                ));
            }
        }
    }
    // Spec §7.8, all confirmed by running the released loader.
    assert_eq!(files, 40);
    let count = |o: &str| outcomes.get(o).map_or(0, Vec::len);
    assert_eq!(
        (
            count("first pass"),
            count("retry only"),
            count("fails both passes"),
            count("no frontmatter")
        ),
        (29, 8, 1, 2),
        "{outcomes:#?}"
    );
    let mut retry = outcomes["retry only"].clone();
    retry.sort();
    assert_eq!(
        retry,
        [
            "1215-Labs__claude-code-templates__.claude__agents__code-reviewer.md",
            "12306hujunjie__workflow__.claude__agents__code-reviewer.md",
            "12306hujunjie__workflow__.claude__agents__senior-architect-coder.md",
            "VoltAgent__awesome-claude-code-subagents__categories__04-quality-security__gdpr-ccpa-compliance.md",
            "VoltAgent__awesome-claude-code-subagents__categories__10-research-analysis__first-principles-thinking.md",
            "contains-studio__agents__design__whimsy-injector.md",
            "contains-studio__agents__engineering__ai-engineer.md",
            "contains-studio__agents__marketing__app-store-optimizer.md",
        ]
    );
    assert_eq!(
        outcomes["fails both passes"],
        ["contains-studio__agents__testing__workflow-optimizer.md"]
    );
    assert_eq!(loaded, 36);
    // By file, then by line and column as numbers.
    snapshot.sort_by_key(|line| {
        let head = line.split(' ').next().unwrap_or("").to_string();
        let mut parts = head.rsplitn(3, ':');
        let (c, l2, f) = (parts.next(), parts.next(), parts.next());
        match (
            f,
            l2.and_then(|x| x.parse::<u32>().ok()),
            c.and_then(|x| x.parse::<u32>().ok()),
        ) {
            (Some(f), Some(l), Some(c)) => (f.to_string(), l, c, line.clone()),
            _ => (head, 0, 0, line.clone()),
        }
    });
    expect_test::expect_file!["corpus/claude.snap"].assert_eq(&(snapshot.join("\n") + "\n"));
}

/// The skills and commands of the corpus (`D_skill_command`), at their original paths, are read
/// as skills and commands: none of them gets an error, and every diagnostic is pinned in
/// `tests/corpus/skills.snap`.
///
/// andrewhowdencom/dux `.agents/skills/go/SKILL.md` links to `./references/layout.md` and
/// `./references/tooling.md`, which were not collected: in the laid-out tree they do not exist,
/// so each link is a `broken-link` warning. equinor/design-system's `new-component` command uses
/// `$ARGUMENTS` inside code on purpose (the component's file names); that is Claude Code's own
/// spelling and is not reported.
#[test]
fn skill_corpus_is_read_as_skills() {
    let corpus = corpus_dir();
    let entries = manifest(&corpus);
    let repos = by_repo(&entries, &["D_skill_command"]);
    // The repositories' agents and configs too, so that a command's `agent` resolves as there.
    let context = by_repo(&entries, &["A_opencode_agent", "B_opencode_config", "C_claude_agent"]);
    let mut snapshot: Vec<String> = Vec::new();
    let mut skills = 0;
    for (repo, list) in &repos {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        lay_out(&corpus, &root, list);
        if let Some(more) = context.get(repo) {
            lay_out(&corpus, &root, more);
        }
        let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
        let root = canonical(&root);
        let diags = ws.diagnostics();
        for e in list.iter() {
            let dest = canonical(&root.join(&e.path));
            let id = ws
                .files
                .iter()
                .position(|f| f.path == dest)
                .unwrap_or_else(|| panic!("{} was not loaded", e.path));
            let f = &ws.files[id];
            assert!(
                matches!(
                    f.kind,
                    agent_lsp::analysis::FileKind::Skill(_) | agent_lsp::analysis::FileKind::Command(_)
                ),
                "{}",
                e.path
            );
            skills += 1;
            let name = e.local_file.trim_start_matches("D_skill_command/").to_string();
            let mine: Vec<_> = diags.iter().filter(|(i, _)| *i == id).map(|(_, d)| d).collect();
            assert!(mine.iter().all(|d| d.severity != Severity::Error), "{name}: {mine:#?}");
            if mine.is_empty() {
                snapshot.push(format!("{name} ok"));
            }
            for d in mine {
                let p = f.index.line_col(&f.text, d.span.start as usize, Encoding::Utf16);
                snapshot.push(format!(
                    "{name}:{}:{} {} {}",
                    p.line + 1,
                    p.col + 1,
                    d.severity.as_str(),
                    d.code.as_str()
                ));
            }
        }
    }
    assert_eq!(skills, 13, "{snapshot:#?}");
    snapshot.sort();
    expect_test::expect_file!["corpus/skills.snap"].assert_eq(&(snapshot.join("\n") + "\n"));
}

#[test]
fn manifest_fields_and_walk_prediction() {
    assert_eq!(unquote("ok"), "ok");
    assert_eq!(unquote(r#""error: ""*"": ask is LAST""#), r#"error: "*": ask is LAST"#);
    let repo: BTreeSet<&str> = ["opencode.json", "agents/a.md", "x/agent/b.md"].into_iter().collect();
    assert!(found_by_walk("agents/a.md", &repo));
    assert!(found_by_walk("p/.opencode/agents/team/r.md", &repo));
    assert!(found_by_walk("p/.opencode/mode/m.md", &repo));
    assert!(!found_by_walk("p/.opencode/mode/deep/m.md", &repo));
    assert!(!found_by_walk("x/agent/b.md", &repo));
    assert!(found_by_walk("src/opencode.jsonc", &repo));
}

/// Team policies over the corpus: each repository (its opencode files at their paths, its
/// Claude Code agents in `.claude/agents/`) gets a project file with four common policies, and
/// every policy is proved for every agent. Each violation's counterexample is decided again by
/// the runtime's plain matcher (last matching rule for opencode, deny-ask-allow for Claude Code)
/// and must get exactly the decision and rule the finding names. The verdicts are pinned in
/// `tests/corpus/policies.snap`.
#[test]
fn policies_hold_or_fail_with_counterexamples_on_the_corpus() {
    use agent_lsp::analysis::policy::judge::Verdict;
    use agent_lsp::analysis::policy::solve::{self, Decider};
    const POLICIES: &str = r#"[[policy]]
id = "no-unattended-push"
permission = "bash"
inputs = ["git push*"]
at-most = "ask"

[[policy]]
id = "no-rm-rf"
permission = "bash"
inputs = ["rm -rf *", "rm -fr *"]
at-most = "ask"

[[policy]]
id = "secrets-need-asking"
permission = "read"
inputs = ["*.env", "*.env.local"]
at-most = "ask"

[[policy]]
id = "subagents-read-only"
permission = "edit"
inputs = ["*"]
at-most = "ask"
modes = ["subagent"]
"#;
    let corpus = corpus_dir();
    let entries = manifest(&corpus);
    let repos = by_repo(&entries, &["A_opencode_agent", "B_opencode_config", "C_claude_agent"]);
    let mut failing: BTreeMap<(String, String), (Vec<String>, String)> = BTreeMap::new();
    let (mut judged, mut violated, mut proved) = (0, 0, 0);
    for (repo, list) in &repos {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        for e in list {
            let path = match e.kind.as_str() {
                "C_claude_agent" => claude_path(&e.path),
                _ => e.path.clone(),
            };
            let dest = root.join(path);
            fs::create_dir_all(dest.parent().unwrap()).unwrap();
            fs::copy(corpus.join(&e.local_file), &dest).unwrap();
        }
        fs::write(root.join("agent-lsp.toml"), POLICIES).unwrap();
        let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
        let root = canonical(&root);
        let (pid, dir) = ws.policy_files().into_iter().next().expect("the project file is read");
        let project = ws.files[pid].analysis.project().unwrap();
        for j in ws.judge_policies(pid, &dir) {
            judged += 1;
            let policy = &project.policies[j.policy];
            let rules = j.ruleset.solver_rules();
            match &*j.verdict {
                Verdict::Violated { worst, others } => {
                    violated += 1;
                    for o in std::iter::once(worst).chain(others) {
                        // The counterexample is an input of the policy, decided as claimed.
                        assert!(
                            policy
                                .inputs
                                .iter()
                                .any(|(p, _)| agent_lsp::analysis::permission::wildcard_match(&o.witness, p)),
                            "{repo} {} {}: {:?} is no input of the policy",
                            policy.id,
                            j.agent,
                            o.witness
                        );
                        let (action, decider) = solve::decide(&o.witness, &rules, j.ruleset.syntax, j.ruleset.order);
                        assert_eq!(
                            (action, decider),
                            (o.action, o.decider),
                            "{repo} {} {}: {:?}",
                            policy.id,
                            j.agent,
                            o.witness
                        );
                    }
                    assert!(worst.action > policy.at_most);
                    let (_, source, by) = j.ruleset.decider(worst.decider);
                    let at = match (source, worst.decider) {
                        (agent_lsp::analysis::provenance::Source::File { file, span }, _) => {
                            let f = &ws.files[file];
                            let line = f.text[..span.start as usize].matches('\n').count() + 1;
                            format!("{}:{line}", f.path.strip_prefix(&root).unwrap_or(&f.path).display())
                        }
                        (_, Decider::Default) => "default".to_string(),
                        _ => "built-in".to_string(),
                    };
                    let line = format!(
                        "{} ({}): {} {:?} by {by} at {at}",
                        j.agent,
                        j.dialect.as_str(),
                        worst.action.as_str(),
                        worst.witness
                    );
                    let entry = failing.entry((repo.to_string(), policy.id.clone())).or_default();
                    entry.0.push(format!("{} ({})", j.agent, j.dialect.as_str()));
                    // The example: a rule written in the repository where there is one.
                    if entry.1.is_empty()
                        || (entry.1.ends_with("at default") || entry.1.ends_with("at built-in"))
                            && !(at == "default" || at == "built-in")
                    {
                        entry.1 = line;
                    }
                }
                Verdict::Holds { .. } => proved += 1,
                Verdict::NotProved => panic!("{repo} {} {}: not proved", policy.id, j.agent),
            }
        }
    }
    println!("policies on the corpus: {judged} judgements, {violated} violated, {proved} hold");
    let snapshot: Vec<String> = failing
        .into_iter()
        .map(|((repo, id), (mut agents, example))| {
            agents.sort();
            agents.dedup();
            format!("{repo} {id}: {} fail, e.g. {example}", agents.len())
        })
        .collect();
    assert!(
        judged > 500 && violated > 0 && proved > 0,
        "{judged} {violated} {proved}"
    );
    expect_test::expect_file!["corpus/policies.snap"].assert_eq(&(snapshot.join("\n") + "\n"));
}
