//! The incremental cross-file machinery (`src/workspace/cross.rs`) against a fresh server.
//!
//! A workspace with every kind of file the cross-file checks read (an opencode config, agents,
//! a command and skills; Claude Code agents, a command, a skill and the file its links name; a
//! Zuno config and agent; GitHub Copilot agents, a chat mode, a prompt, an instructions file and
//! `.vscode/mcp.json`) goes through
//! random sequences of operations on the server's state: documents opened, edited, closed;
//! files written, created and deleted on disk with the watcher's events. The texts are picked
//! from small pools of names and modes, so that agents appear, vanish, collide, become the
//! default agent or stop being one, and skill names match or miss. At checkpoints, what the
//! server last published for every file must equal, as a set, what a fresh server publishes on
//! the same disk with the same documents open.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use agent_lsp::analysis::Encoding;
use agent_lsp::lsp::settings::{GlobalConfig, Settings};
use agent_lsp::lsp::state::{Publish, State};
use tower_lsp_server::ls_types::{FileChangeType, FileEvent, TextDocumentContentChangeEvent, Uri};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const NAMES: &[&str] = &["rev", "plan", "lead", "helper", "revv"];
const MODES: &[&str] = &["primary", "subagent", "all", "bogus"];
const SKILLS: &[&str] = &["tdd", "lint", "tdx", "release-notes"];

/// The files of the workspace (some absent at first), with how to write a random text of each.
const FILES: &[&str] = &[
    "opencode.json",
    ".opencode/agents/a.md",
    ".opencode/agents/b.md",
    ".opencode/agents/team/c.md",
    ".opencode/commands/go.md",
    ".opencode/skills/one/SKILL.md",
    ".opencode/skills/two/SKILL.md",
    ".claude/agents/x.md",
    ".claude/agents/y.md",
    ".claude/skills/lint/SKILL.md",
    // The target of the skills' links (a skill's links are checked on disk).
    ".claude/skills/lint/notes.md",
    ".claude/commands/do.md",
    "zuno.json",
    ".zuno/agents/z.md",
    // GitHub Copilot: agents (one named by its file only), a prompt, an instructions file whose
    // `applyTo` names files that come and go, the workspace's MCP servers.
    ".github/agents/p.agent.md",
    ".github/agents/q.md",
    ".github/chatmodes/old.chatmode.md",
    ".github/prompts/go.prompt.md",
    ".github/instructions/ts.instructions.md",
    ".vscode/mcp.json",
    // Team policies over every agent, changed as the agents' rules change.
    "agent-lsp.toml",
];

const ACTIONS: &[&str] = &["allow", "ask", "deny"];

fn random_text(rng: &mut Rng, rel: &str) -> String {
    let name = rng.pick(NAMES);
    let mode = rng.pick(MODES);
    let skill = rng.pick(SKILLS);
    if rel == "opencode.json" {
        return format!(
            "{{\n  \"default_agent\": \"{name}\",\n  \"agent\": {{ \"{}\": {{ \"mode\": \"{mode}\" }} }},\n  \"permission\": {{ \"skill\": {{ \"{skill}\": \"allow\" }}, \"bash\": {{ \"git *\": \"{}\" }} }}\n}}\n",
            rng.pick(NAMES),
            rng.pick(ACTIONS)
        );
    }
    if rel == "agent-lsp.toml" {
        return match rng.below(4) {
            0 => "[rules]\n".to_string(),
            1 => format!(
                "[[policy]]\nid = \"p\"\npermission = \"bash\"\ninputs = [\"git push*\"]\nat-most = \"{}\"\n",
                rng.pick(ACTIONS)
            ),
            2 => format!(
                "[[policy]]\nid = \"p\"\npermission = \"bash\"\ninputs = [\"git *\"]\nat-most = \"ask\"\nagents = [\"{name}\", \"a\", \"team/*\"]\nmodes = [\"{}\"]\n",
                rng.pick(&["primary", "subagent", "all"])
            ),
            _ => format!(
                "[[policy]]\nid = \"q\"\npermission = \"Bash\"\ninputs = [\"*\"]\nat-most = \"{}\"\n",
                rng.pick(ACTIONS)
            ),
        };
    }
    if rel == "zuno.json" {
        return format!("{{ \"default_agent\": \"{name}\" }}\n");
    }
    if let Some(text) = copilot_text(rng, rel) {
        return text;
    }
    if rel.ends_with("notes.md") {
        return "Notes.\n".to_string();
    }
    if rel.ends_with("SKILL.md") {
        return match rng.below(4) {
            0 => "no frontmatter\n".to_string(),
            1 => format!("---\nname: {skill}\ndescription: d\n---\nSee [the notes](notes.md), run `x $1`.\n"),
            _ => format!("---\nname: {skill}\ndescription: d\n---\nSteps.\n"),
        };
    }
    if rel.starts_with(".claude/commands") {
        return format!("---\ndescription: d: {name}\nargument-hint: [{skill}]\n---\nRun `echo $1`\n");
    }
    if rel.starts_with(".opencode/commands") {
        return format!("---\ndescription: d\nagent: {name}\n---\nGo $1\n");
    }
    if rel.starts_with(".claude/agents") {
        return format!(
            "---\nname: {name}\ndescription: d\ntools: Read, Agent({})\nskills: [{skill}]\n---\nBody\n",
            rng.pick(NAMES)
        );
    }
    if rel.starts_with(".zuno") {
        return format!("---\ndescription: d\nmode: {mode}\n---\nBody\n");
    }
    // An opencode agent: settings, a name, a skill rule; sometimes no frontmatter, sometimes
    // only the body changes.
    // Which agents are disabled or hidden, and their modes, decide the default agent's and the
    // commands' findings without changing any name.
    match rng.below(10) {
        0 => "Just a prompt, no frontmatter.\n".to_string(),
        // No description, or a blank one (`undescribed-subagent`), written above or below the
        // mode (the finding is on one or the other).
        8 => format!("---\nmode: {mode}\ntemperature: 0.{}\n---\nBody\n", rng.below(3)),
        9 => format!("---\nmode: {mode}\ndescription: ''\nname: {name}\n---\nBody\n"),
        1 => format!("---\ndescription: d\nmode: {mode}\nname: {name}\n---\nBody\n"),
        2 => format!("---\ndescription: d\nmode: {mode}\nname: {name}\ndisable: true\n---\nBody\n"),
        3 => format!("---\ndescription: d\nmode: {mode}\nname: {name}\nhidden: true\n---\nBody\n"),
        4 => format!(
            "---\ndescription: d\nmode: {mode}\npermission:\n  bash:\n    \"*\": {}\n    \"git push *\": {}\n---\nBody\n",
            rng.pick(ACTIONS),
            rng.pick(ACTIONS)
        ),
        _ => format!(
            "---\ndescription: d\nmode: {mode}\npermission:\n  skill:\n    {skill}: deny\n---\nBody {}\n",
            rng.below(3)
        ),
    }
}

/// A random text for a Copilot file: names that resolve or not (agents named by their `name` or
/// by their file, handoffs, a prompt's `agent`, subagents), MCP servers declared or not, `applyTo`
/// patterns matching files of the pool that come and go.
fn copilot_text(rng: &mut Rng, rel: &str) -> Option<String> {
    // Few names, so that agents collide often.
    let name = rng.pick(&["q", "rev"]);
    const SERVERS: &[&str] = &["github", "db", "gthub"];
    let other = rng.pick(&["p", "q", "old", "rev", "plan", "agent", "ask"]);
    let server = rng.pick(SERVERS);
    let text = if rel == ".vscode/mcp.json" {
        format!(
            "{{ \"servers\": {{ \"{server}\": {{ \"command\": \"x\" }}, \"{}\": {{ \"url\": \"http://127.0.0.1:1/mcp\" }} }} }}\n",
            rng.pick(SERVERS)
        )
    } else if rel.ends_with(".instructions.md") {
        let pattern = rng.pick(&[
            "**/*.prompt.md",
            ".github/agents/q.md",
            "**/*.chatmode.md",
            "src/**/*.ts",
            ".zuno/**",
        ]);
        format!("---\napplyTo: '{pattern}'\n---\nUse tabs.\n")
    } else if rel.ends_with(".prompt.md") {
        format!("---\ndescription: d\nagent: {other}\ntools: ['{server}/*', edit]\n---\nGo\n")
    } else if rel.starts_with(".github/") {
        match rng.below(4) {
            0 => "A prompt with no frontmatter.\n".to_string(),
            1 => format!(
                "---\nname: {name}\ndescription: d\ntools: ['{server}/*', read]\nhandoffs:\n  - label: Next\n    agent: {other}\n---\nBody\n"
            ),
            2 => format!("---\ndescription: d\nagents: [{other}]\n---\nBody\n"),
            _ => format!("---\nname: {name}\ndescription: d\n---\nBody {}\n", rng.below(3)),
        }
    } else {
        return None;
    };
    Some(text)
}

fn settings() -> Settings {
    Settings {
        global: GlobalConfig::Off,
        ..Settings::default()
    }
}

fn uri(root: &Path, rel: &str) -> Uri {
    Uri::from_str(&format!("file://{}", root.join(rel).display())).unwrap()
}

/// The last publish per URI, diagnostics sorted as text (the order within a publish is not the
/// property under test here; equality as sets is).
type Published = BTreeMap<String, Vec<String>>;

fn record(into: &mut Published, publishes: Vec<Publish>) {
    for p in publishes {
        let mut d: Vec<String> = p
            .diagnostics
            .iter()
            .map(|d| serde_json::to_string(d).unwrap())
            .collect();
        d.sort();
        into.insert(p.uri.as_str().to_string(), d);
    }
}

fn non_empty(p: &Published) -> BTreeMap<&String, &Vec<String>> {
    p.iter().filter(|(_, d)| !d.is_empty()).collect()
}

/// What a fresh server publishes on the disk under `root` with documents `open`.
fn fresh(root: &Path, open: &BTreeMap<&str, (i32, String)>) -> Published {
    let mut fresh = State::new(vec![root.to_path_buf()], Encoding::Utf16, settings());
    let mut want = Published::new();
    record(&mut want, fresh.scan());
    for (rel, (version, text)) in open {
        let lang = if rel.ends_with(".json") { "json" } else { "markdown" };
        record(&mut want, fresh.open(uri(root, rel), lang, *version, text.clone()));
    }
    want
}

fn run(seed: u64, steps: usize) {
    let dir = tempfile::tempdir().unwrap();
    let root: PathBuf = fs::canonicalize(dir.path()).unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    let mut rng = Rng(seed);
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    };
    // About two thirds of the files exist at the start.
    for rel in FILES {
        if rng.below(3) > 0 {
            write(rel, &random_text(&mut rng, rel));
        }
    }
    let mut state = State::new(vec![root.clone()], Encoding::Utf16, settings());
    let mut published = Published::new();
    record(&mut published, state.scan());
    // Open documents: path -> (version, text).
    let mut open: BTreeMap<&str, (i32, String)> = BTreeMap::new();
    let mut checkpoints = 0;
    let mut policy_findings = 0;
    // Copilot's cross-file findings and its `applyTo` patterns matching no file, per kind.
    let mut copilot_findings: BTreeMap<&str, usize> = BTreeMap::new();
    for step in 0..steps {
        let rel = FILES[rng.below(FILES.len())];
        let u = uri(&root, rel);
        let lang = if rel.ends_with(".json") { "json" } else { "markdown" };
        let on_disk = root.join(rel).exists();
        let out = match (open.contains_key(rel), rng.below(4)) {
            (false, 0) => {
                let text = random_text(&mut rng, rel);
                open.insert(rel, (1, text.clone()));
                state.open(u, lang, 1, text)
            }
            (true, 0 | 1) => {
                let text = random_text(&mut rng, rel);
                let (version, current) = open.get_mut(rel).unwrap();
                *version += 1;
                *current = text.clone();
                let change = TextDocumentContentChangeEvent {
                    range: None,
                    range_length: None,
                    text,
                };
                state.change(&u, *version, vec![change])
            }
            (true, _) => {
                open.remove(rel);
                state.close(&u)
            }
            (false, 1) if on_disk => {
                fs::remove_file(root.join(rel)).unwrap();
                state.watched(vec![FileEvent::new(u, FileChangeType::DELETED)])
            }
            (false, _) => {
                write(rel, &random_text(&mut rng, rel));
                let typ = if on_disk {
                    FileChangeType::CHANGED
                } else {
                    FileChangeType::CREATED
                };
                state.watched(vec![FileEvent::new(u, typ)])
            }
        };
        record(&mut published, out);
        if step % 20 == 19 || step + 1 == steps {
            let want = fresh(&root, &open);
            assert_eq!(
                non_empty(&published),
                non_empty(&want),
                "seed {seed:#x}, after step {step}; open: {:?}",
                open.keys().collect::<Vec<_>>()
            );
            checkpoints += 1;
            policy_findings += want
                .values()
                .flatten()
                .filter(|d| d.contains("policy-violation"))
                .count();
            for (uri, diags) in &want {
                if !uri.contains("/.github/") {
                    continue;
                }
                for code in ["unknown-agent", "unknown-mcp-server", "missing-path", "duplicate-agent"] {
                    *copilot_findings.entry(code).or_default() +=
                        diags.iter().filter(|d| d.contains(&format!("\"{code}\""))).count();
                }
            }
        }
    }
    assert!(checkpoints >= steps / 20);
    // The policies' findings came and went with the rules (not a vacuous agreement).
    assert!(
        policy_findings > 0,
        "seed {seed:#x}: no policy finding at any checkpoint"
    );
    for (code, n) in &copilot_findings {
        assert!(*n > 0, "seed {seed:#x}: no Copilot `{code}` finding at any checkpoint");
    }
}

#[test]
fn random_operations_agree_with_a_fresh_server() {
    for seed in [
        0x9E37_79B9_7F4A_7C15,
        0x1234_5678_9ABC_DEF1,
        0x0F0F_1E1E_2D2D_3C3C,
        0xDEAD_BEEF_CAFE_F00D,
    ] {
        run(seed, 200);
    }
}

/// Edits that keep every name but change what a name-level check depends on: whether the agent
/// a command names is disabled, the mode of the default agent, whether it is hidden. A view
/// recomputes its name-level checks only when names change, plus the checks of the agents they
/// name when those change: each step must still equal a fresh server.
#[test]
fn edits_that_keep_names_update_the_findings_that_depend_on_them() {
    let dir = tempfile::tempdir().unwrap();
    let root: PathBuf = fs::canonicalize(dir.path()).unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    let files = [
        ("opencode.json", "{ \"default_agent\": \"lead\" }\n"),
        (
            ".opencode/agents/lead.md",
            "---\ndescription: d\nmode: primary\n---\nBody\n",
        ),
        (
            ".opencode/agents/rev.md",
            "---\ndescription: d\nmode: subagent\n---\nBody\n",
        ),
        (
            ".opencode/agents/other.md",
            "---\ndescription: d\nmode: subagent\n---\nBody\n",
        ),
        (".opencode/commands/go.md", "---\ndescription: d\nagent: rev\n---\nGo\n"),
    ];
    for (rel, text) in files {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    let mut state = State::new(vec![root.clone()], Encoding::Utf16, settings());
    let mut published = Published::new();
    record(&mut published, state.scan());
    let mut open: BTreeMap<&str, (i32, String)> = BTreeMap::new();
    let steps: &[(&str, &str, usize)] = &[
        // The command's agent disabled, then enabled again: its finding comes and goes.
        (
            ".opencode/agents/rev.md",
            "---\ndescription: d\nmode: subagent\ndisable: true\n---\nBody\n",
            1,
        ),
        (
            ".opencode/agents/rev.md",
            "---\ndescription: d\nmode: subagent\n---\nBody\n",
            0,
        ),
        // The default agent becomes a subagent, hidden (which is also its own warning), then
        // primary again.
        (
            ".opencode/agents/lead.md",
            "---\ndescription: d\nmode: subagent\n---\nBody\n",
            1,
        ),
        (
            ".opencode/agents/lead.md",
            "---\ndescription: d\nmode: primary\nhidden: true\n---\nBody\n",
            2,
        ),
        (
            ".opencode/agents/lead.md",
            "---\ndescription: d\nmode: primary\n---\nBody\n",
            0,
        ),
        // The same with an edit that keeps the length of the text (and every span).
        (
            ".opencode/agents/lead.md",
            "---\ndescription: d\nmode: primary\nhidden: false\n---\nBody\n",
            0,
        ),
        (
            ".opencode/agents/lead.md",
            "---\ndescription: d\nmode: primary\nhidden: true \n---\nBody\n",
            2,
        ),
        (
            ".opencode/agents/lead.md",
            "---\ndescription: d\nmode: primary\n---\nBody\n",
            0,
        ),
        // An agent no check names: nothing changes anywhere else.
        (
            ".opencode/agents/other.md",
            "---\ndescription: d\nmode: primary\n---\nBody\n",
            0,
        ),
        // The default agent disabled: the config's finding says so, and the command's agent is
        // still there.
        (
            ".opencode/agents/lead.md",
            "---\ndescription: d\nmode: primary\ndisable: true\n---\nBody\n",
            1,
        ),
        (
            ".opencode/agents/lead.md",
            "---\ndescription: d\nmode: primary\n---\nBody\n",
            0,
        ),
        // The same through the config: an agent's settings there, and its `disable`.
        (
            "opencode.json",
            "{ \"default_agent\": \"lead\", \"agent\": { \"rev\": { \"mode\": \"primary\" } } }\n",
            0,
        ),
        (
            "opencode.json",
            "{ \"default_agent\": \"lead\", \"agent\": { \"rev\": { \"disable\": true } } }\n",
            1,
        ),
        (
            "opencode.json",
            "{ \"default_agent\": \"lead\", \"agent\": { \"rev\": { \"disable\": false } } }\n",
            0,
        ),
        // A subagent loses its description, gets it back, then a blank one of the same length
        // (every span kept): `undescribed-subagent` comes and goes.
        (".opencode/agents/other.md", "---\nmode: subagent\n---\nBody\n", 1),
        (
            ".opencode/agents/other.md",
            "---\ndescription: \"x\"\nmode: subagent\n---\nBody\n",
            0,
        ),
        (
            ".opencode/agents/other.md",
            "---\ndescription: \" \"\nmode: subagent\n---\nBody\n",
            1,
        ),
        (
            ".opencode/agents/other.md",
            "---\ndescription: \"x\"\nmode: subagent\n---\nBody\n",
            0,
        ),
        // A top-level deny, then an agent's allow over it (`overridden-deny`), taken back and
        // given again with edits of the same length, in the agent and in the config.
        (
            "opencode.json",
            "{ \"default_agent\": \"lead\", \"permission\": { \"bash\": { \"git push *\": \"deny\" } } }\n",
            0,
        ),
        (
            ".opencode/agents/rev.md",
            "---\ndescription: d\nmode: subagent\npermission:\n  bash: allow\n---\nBody\n",
            1,
        ),
        (
            ".opencode/agents/rev.md",
            "---\ndescription: d\nmode: subagent\npermission:\n  bash: deny \n---\nBody\n",
            0,
        ),
        (
            ".opencode/agents/rev.md",
            "---\ndescription: d\nmode: subagent\npermission:\n  bash: allow\n---\nBody\n",
            1,
        ),
        // The agent restates the deny after its allow, then names another command instead.
        (
            ".opencode/agents/rev.md",
            "---\ndescription: d\nmode: subagent\npermission:\n  bash:\n    \"*\": allow\n    \"git push *\": deny\n---\nBody\n",
            0,
        ),
        (
            ".opencode/agents/rev.md",
            "---\ndescription: d\nmode: subagent\npermission:\n  bash:\n    \"*\": allow\n    \"git pull *\": deny\n---\nBody\n",
            1,
        ),
        (
            "opencode.json",
            "{ \"default_agent\": \"lead\", \"permission\": { \"bash\": { \"git push *\": \"ask\"  } } }\n",
            0,
        ),
        (
            "opencode.json",
            "{ \"default_agent\": \"lead\", \"permission\": { \"bash\": { \"git push *\": \"deny\" } } }\n",
            1,
        ),
    ];
    for (i, (rel, text, findings)) in steps.iter().enumerate() {
        let entry = open.entry(rel).or_insert((0, String::new()));
        entry.0 += 1;
        entry.1 = text.to_string();
        let lang = if rel.ends_with(".json") { "json" } else { "markdown" };
        let out = if entry.0 == 1 {
            state.open(uri(&root, rel), lang, 1, text.to_string())
        } else {
            let change = TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: text.to_string(),
            };
            state.change(&uri(&root, rel), entry.0, vec![change])
        };
        record(&mut published, out);
        assert_eq!(non_empty(&published), non_empty(&fresh(&root, &open)), "after step {i}");
        let total: usize = published.values().map(Vec::len).sum();
        assert_eq!(total, *findings, "after step {i}: {published:#?}");
    }
}

/// A file a skill links to appears on disk, changes, vanishes, and its folder goes too; the
/// skill itself is edited open and closed: each step must equal a fresh server (a skill's links
/// are checked on disk, not by the cross-file units).
#[test]
fn files_a_skill_links_to_appear_and_vanish() {
    let dir = tempfile::tempdir().unwrap();
    let root: PathBuf = fs::canonicalize(dir.path()).unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    let skill = ".claude/skills/lint/SKILL.md";
    let text =
        "---\nname: lint\ndescription: d\n---\nSee [notes](refs/notes.md) and [run](${CLAUDE_SKILL_DIR}/run.sh).\n";
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    };
    write(skill, text);
    let mut state = State::new(vec![root.clone()], Encoding::Utf16, settings());
    let mut published = Published::new();
    record(&mut published, state.scan());
    let mut open: BTreeMap<&str, (i32, String)> = BTreeMap::new();
    let check = |published: &Published, open: &BTreeMap<&str, (i32, String)>, what: &str, broken: usize| {
        let want = fresh(&root, open);
        assert_eq!(non_empty(published), non_empty(&want), "after {what}");
        let count = published
            .get(uri(&root, skill).as_str())
            .map_or(0, |d| d.iter().filter(|d| d.contains("broken-link")).count());
        assert_eq!(count, broken, "after {what}");
    };
    check(&published, &open, "the scan", 2);
    let event = |rel: &str, typ| vec![FileEvent::new(uri(&root, rel), typ)];
    // Created, in a new folder (the watcher reports the file).
    write(".claude/skills/lint/refs/notes.md", "Notes.\n");
    record(
        &mut published,
        state.watched(event(".claude/skills/lint/refs/notes.md", FileChangeType::CREATED)),
    );
    check(&published, &open, "creating refs/notes.md", 1);
    // A plain change of the target changes nothing.
    write(".claude/skills/lint/refs/notes.md", "More notes.\n");
    record(
        &mut published,
        state.watched(event(".claude/skills/lint/refs/notes.md", FileChangeType::CHANGED)),
    );
    check(&published, &open, "changing refs/notes.md", 1);
    // A script, which no Markdown glob would watch.
    write(".claude/skills/lint/run.sh", "#!/bin/sh\n");
    record(
        &mut published,
        state.watched(event(".claude/skills/lint/run.sh", FileChangeType::CREATED)),
    );
    check(&published, &open, "creating run.sh", 0);
    // The skill open and edited: a new missing link warns at once.
    open.insert(skill, (1, text.to_string()));
    record(
        &mut published,
        state.open(uri(&root, skill), "markdown", 1, text.to_string()),
    );
    let edited = text.replace("refs/notes.md", "refs/other.md");
    open.insert(skill, (2, edited.clone()));
    let change = TextDocumentContentChangeEvent {
        range: None,
        range_length: None,
        text: edited,
    };
    record(&mut published, state.change(&uri(&root, skill), 2, vec![change]));
    check(&published, &open, "editing the open skill", 1);
    open.remove(skill);
    record(&mut published, state.close(&uri(&root, skill)));
    check(&published, &open, "closing it (the text on disk again)", 0);
    // The folder deleted (the watcher reports the folder only).
    fs::remove_dir_all(root.join(".claude/skills/lint/refs")).unwrap();
    record(
        &mut published,
        state.watched(event(".claude/skills/lint/refs", FileChangeType::DELETED)),
    );
    check(&published, &open, "deleting refs/", 1);
    fs::remove_file(root.join(".claude/skills/lint/run.sh")).unwrap();
    record(
        &mut published,
        state.watched(event(".claude/skills/lint/run.sh", FileChangeType::DELETED)),
    );
    check(&published, &open, "deleting run.sh", 2);
}
