//! The cases Gemini CLI judges: hand-written projects (every fact of the issue and the fact
//! sheet) and `settings.json` files generated from agent-lsp's schema (`gemini::settings_schema`,
//! itself generated from the release): every setting given a valid value, a value of the wrong
//! type, a value outside its set, and every section a misspelt key.

use agent_lsp::analysis::gemini::settings_schema::SETTINGS;
use agent_lsp::analysis::shape::{Field, Lit, Object, Rest, Shape};
use serde_json::{Map, Value, json};

use super::verdict_support;

/// One project: files by path relative to it.
pub struct Case {
    pub id: String,
    pub files: Vec<(String, String)>,
    /// What Gemini CLI is asked (`hi` unless a case types a command).
    pub prompt: Option<String>,
}

impl Case {
    pub fn new(id: &str, files: Vec<(&str, String)>) -> Case {
        Case {
            id: id.to_string(),
            files: files.into_iter().map(|(p, t)| (p.to_string(), t)).collect(),
            prompt: None,
        }
    }

    fn settings(id: &str, text: &str) -> Case {
        Case::new(id, vec![(SETTINGS_FILE, text.to_string())])
    }

    pub fn hash(&self) -> String {
        let prompt = self.prompt.as_ref().map(|p| ("(prompt)", p.as_bytes()));
        verdict_support::hash_files(self.files.iter().map(|(r, t)| (r.as_str(), t.as_bytes())).chain(prompt))
    }
}

pub const SETTINGS_FILE: &str = ".gemini/settings.json";

/// Where a case keeps the user's settings: the judge makes it `~/.gemini/settings.json` of the
/// run (agent-lsp reads it with the same validator, as the settings of a folder `_home/`).
pub const USER_SETTINGS_FILE: &str = "_home/.gemini/settings.json";

pub fn all() -> Vec<Case> {
    let mut out = hand_written();
    out.extend(agents());
    out.extend(commands());
    out.extend(contexts());
    out.extend(skills());
    out.extend(user_settings());
    out.extend(extensions());
    out.extend(corpus());
    out.extend(test_workspace());
    out.extend(generated());
    out
}

// ---------------------------------------------------------------------------------------------
// Hand-written

fn hand_written() -> Vec<Case> {
    let s = Case::settings;
    vec![
        s(
            "settings:a-valid-project",
            r#"{
  // Comments are stripped before the file is parsed.
  "general": { "vimMode": true, "preferredEditor": "neovim", "checkpointing": { "enabled": false } },
  "ui": { "theme": "GitHub", "footer": { "hideCWD": true } },
  "context": { "fileName": ["AGENTS.md", "GEMINI.md"] },
  "model": { "name": "gemini-2.5-pro", "maxSessionTurns": 20 },
  "tools": { "sandbox": false, "exclude": ["run_shell_command"] },
  "telemetry": false,
  "mcpServers": {
    "docs": { "command": "npx", "args": ["-y", "docs-mcp"], "env": { "TOKEN": "$DOCS_TOKEN" }, "trust": false },
    "remote": { "httpUrl": "http://127.0.0.1:9/mcp", "headers": { "X-Key": "k" }, "timeout": 5000 }
  }
}
"#,
        ),
        s(
            "settings:strings-read-as-booleans-and-numbers",
            r#"{ "general": { "vimMode": "TRUE", "maxAttempts": " 3 " }, "model": { "maxSessionTurns": "0x10" } }"#,
        ),
        s(
            "settings:strings-that-do-not-read-as-one",
            r#"{ "general": { "vimMode": "yes", "maxAttempts": "3 times" }, "model": { "maxSessionTurns": "" } }"#,
        ),
        // What `agent-lsp setup gemini --write` adds to an empty project (`tests/setup.rs` holds
        // setup to this text): Gemini CLI takes it without a warning.
        s(
            "setup:the-entry-setup-gemini-writes",
            "{\n  \"mcpServers\": {\n    \"agent-lsp\": {\n      \"command\": \"agent-lsp\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n",
        ),
        s("settings:a-trailing-comma", "{ \"general\": { \"vimMode\": true }, }\n"),
        s("settings:not-an-object", "[1, 2]\n"),
        s("settings:an-empty-file", ""),
        s("settings:a-bom", "\u{feff}{ \"general\": { \"vimMode\": true } }\n"),
        s("settings:unclosed", "{ \"general\": { \"vimMode\": true }\n"),
        s(
            "settings:flat-v1-keys",
            r#"{ "contextFileName": "AGENTS.md", "model": "gemini-2.5-pro", "autoAccept": true, "vimMode": true, "theme": "GitHub" }"#,
        ),
        s(
            "settings:a-misspelt-key-in-a-server",
            r#"{ "mcpServers": { "docs": { "comand": "x", "args": ["a"] } } }"#,
        ),
        s(
            "settings:two-misspelt-keys-in-a-server",
            r#"{ "mcpServers": { "docs": { "command": "x", "arg": ["a"], "enviroment": {} } } }"#,
        ),
        s(
            "settings:args-as-one-string",
            r#"{ "mcpServers": { "docs": { "command": "x", "args": "--stdio --port 1" } } }"#,
        ),
        s(
            "settings:a-server-type-outside-its-set",
            r#"{ "mcpServers": { "docs": { "url": "http://127.0.0.1:9/sse", "type": "websocket" } } }"#,
        ),
        s(
            "settings:a-key-twice",
            r#"{ "ui": { "theme": "GitHub", "theme": "ANSI" } }"#,
        ),
        s(
            "settings:telemetry-as-an-object-with-a-wrong-type",
            r#"{ "telemetry": { "enabled": "sometimes" } }"#,
        ),
        s("settings:telemetry-as-a-number", r#"{ "telemetry": 5 }"#),
        s(
            "settings:a-required-field-missing",
            r#"{ "advanced": { "bugCommand": {} } }"#,
        ),
        s(
            "settings:six-mistakes-five-shown",
            r#"{ "general": { "vimMode": 1, "maxAttempts": true, "debugKeystrokeLogging": 2 }, "ui": { "hideBanner": 3, "hideTips": 4, "hideFooter": 5 } }"#,
        ),
        s("settings:null-for-a-setting", r#"{ "general": { "vimMode": null } }"#),
        s(
            "settings:an-unknown-section-and-setting",
            r#"{ "generl": { "vimMode": true }, "general": { "vimMod": true } }"#,
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// Real files

/// The real files of `tests/corpus/gemini/`, one case per repository (`corpus:<owner>__<repo>`).
fn corpus() -> Vec<Case> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/gemini");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("tests/corpus/gemini")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.iter()
        .map(|dir| {
            let mut files = Vec::new();
            collect(dir, dir, &mut files);
            files.sort();
            Case {
                id: format!("corpus:{}", dir.file_name().unwrap().to_string_lossy()),
                files,
                prompt: None,
            }
        })
        .collect()
}

/// The Gemini CLI files of `test-workspace/` (its README says what Gemini CLI does with each).
fn test_workspace() -> Vec<Case> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test-workspace");
    let mut files = Vec::new();
    collect(&root, &root.join(".gemini"), &mut files);
    for name in ["GEMINI.md", "CLAUDE.md", "prompts/build.md"] {
        files.push((name.to_string(), std::fs::read_to_string(root.join(name)).unwrap()));
    }
    files.sort();
    vec![Case {
        id: "test-workspace".into(),
        files,
        prompt: None,
    }]
}

fn collect(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            collect(root, &p, out);
        } else {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Agents

pub const AGENTS_DIR: &str = ".gemini/agents/";

fn agent(file: &str, text: &str) -> (String, String) {
    (format!("{AGENTS_DIR}{file}"), text.to_string())
}

fn agents() -> Vec<Case> {
    let case = |id: &str, files: Vec<(String, String)>| Case {
        id: format!("agents:{id}"),
        files,
        prompt: None,
    };
    let one = |id: &str, text: &str| case(id, vec![agent("a.md", text)]);
    vec![
        case(
            "valid-local-agents",
            vec![
                agent(
                    "reviewer.md",
                    "---\nname: reviewer\ndescription: Reviews code for bugs.\nkind: local\ndisplay_name: Reviewer\ntools: [read_file, grep_search, search_file_content, \"mcp_github_*\", mcp_docs_lookup, \"*\"]\nmodel: gemini-2.5-pro\ntemperature: 0.2\nmax_turns: 12\ntimeout_mins: 5\nmcp_servers:\n  docs:\n    command: docs-mcp\n    args: [--stdio]\n    trust: false\n---\nYou review code.\n",
                ),
                agent(
                    "writer.md",
                    "---\nname: docs_writer-2\ndescription: Writes docs.\n---\n",
                ),
                agent(
                    "crlf.md",
                    "---\r\nname: crlf\r\ndescription: Written with CRLF.\r\n---\r\nBody.\r\n",
                ),
            ],
        ),
        case(
            "built-in-name",
            vec![
                agent(
                    "generalist.md",
                    "---\nname: generalist\ndescription: My own generalist.\n---\nYou are mine.\n",
                ),
                agent("helper.md", "---\nname: helper\ndescription: Helps.\n---\nHelp.\n"),
            ],
        ),
        one(
            "name-not-a-slug",
            "---\nname: Code Reviewer\ndescription: Reviews.\n---\n",
        ),
        one(
            "an-unknown-key",
            "---\nname: styled\ndescription: Reviews.\ncolour: red\n---\n",
        ),
        one(
            "temperature-as-a-word",
            "---\nname: warm\ndescription: Reviews.\ntemperature: hot\n---\n",
        ),
        one("no-description", "---\nname: silent\n---\nBody.\n"),
        one("an-empty-description", "---\nname: blank\ndescription: \"\"\n---\n"),
        one("no-name", "---\ndescription: Nameless.\n---\n"),
        one("no-frontmatter", "# Reviewer\n\nReview the code.\n"),
        one("broken-yaml", "---\nname: broken\ndescription: \"Reviews code\n---\n"),
        one(
            "a-key-twice",
            "---\nname: twice\nname: again\ndescription: Reviews.\n---\n",
        ),
        one(
            "an-unknown-tool",
            "---\nname: tooled\ndescription: Reviews.\ntools: [read_fiel]\n---\n",
        ),
        one(
            "mcp-tool-names",
            "---\nname: mcp-tools\ndescription: Reviews.\ntools: [\"mcp_*\", \"mcp_srv_*\", mcp_srv_tool, mcp_srv]\n---\n",
        ),
        one(
            "max-turns-zero",
            "---\nname: zero\ndescription: Reviews.\nmax_turns: 0\n---\n",
        ),
        one(
            "max-turns-not-whole",
            "---\nname: half\ndescription: Reviews.\ntimeout_mins: 2.5\n---\n",
        ),
        one(
            "a-misspelt-key-in-its-server",
            "---\nname: served\ndescription: Reviews.\nmcp_servers:\n  docs:\n    comand: docs-mcp\n---\n",
        ),
        one(
            "kind-unknown",
            "---\nname: kindly\ndescription: Reviews.\nkind: hybrid\n---\n",
        ),
        one(
            "a-remote-agent-with-its-card",
            "---\nkind: remote\nname: remote-card\ndescription: A remote agent.\nagent_card_json: '{\"name\": \"remote-card\", \"url\": \"http://127.0.0.1:9/a2a\", \"version\": \"1.0.0\", \"capabilities\": {}, \"skills\": [], \"defaultInputModes\": [\"text\"], \"defaultOutputModes\": [\"text\"], \"description\": \"A remote agent.\", \"protocolVersion\": \"0.3.0\"}'\n---\n",
        ),
        one(
            "a-remote-agent-with-bad-json",
            "---\nkind: remote\nname: remote-bad\nagent_card_json: '{not json'\n---\n",
        ),
        one(
            "a-remote-agent-with-local-keys",
            "---\nkind: remote\nname: remote-mixed\nagent_card_url: http://127.0.0.1:9/card\ntools: [read_file]\n---\n",
        ),
        case(
            "files-gemini-cli-does-not-read",
            vec![
                agent("_draft.md", "---\nname: draft\ndescription: A draft.\n---\n"),
                agent(
                    "team/nested.md",
                    "---\nname: nested\ndescription: In a sub-folder.\n---\n",
                ),
                agent("notes.txt", "---\nname: notes\ndescription: Not Markdown.\n---\n"),
                agent("kept.md", "---\nname: kept\ndescription: Read.\n---\n"),
            ],
        ),
        case(
            "two-files-one-name",
            vec![
                agent("a.md", "---\nname: twin\ndescription: The first.\n---\n"),
                agent("b.md", "---\nname: twin\ndescription: The second.\n---\n"),
            ],
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// Commands

pub const COMMANDS_DIR: &str = ".gemini/commands/";

/// Each case types `/` and the command its one file names: Gemini CLI sends the command's prompt
/// to the model when it loads the file, and the typed text as it is when it skips it.
fn commands() -> Vec<Case> {
    let case = |id: &str, rel: &str, text: &str| Case {
        id: format!("commands:{id}"),
        files: vec![(format!("{COMMANDS_DIR}{rel}"), text.to_string())],
        prompt: Some(format!("/{}", agent_lsp::analysis::gemini::command::name_of(rel))),
    };
    vec![
        case(
            "a-valid-command",
            "review.toml",
            "description = \"Review the change\"\nprompt = \"Review the staged change: COMMAND-PROMPT-MARKER.\"\n",
        ),
        case(
            "in-a-folder",
            "git/commit.toml",
            "prompt = \"\"\"\nWrite a commit message: COMMAND-PROMPT-MARKER.\n\"\"\"\n",
        ),
        case(
            "a-literal-string",
            "lit.toml",
            "prompt = 'Use C:\\path as written: COMMAND-PROMPT-MARKER.'\n",
        ),
        case("no-prompt", "empty.toml", "description = \"Nothing to send\"\n"),
        case("a-misspelt-prompt", "typo.toml", "promt = \"COMMAND-PROMPT-MARKER\"\n"),
        case("prompt-not-a-string", "num.toml", "prompt = 42\n"),
        case(
            "an-unknown-key",
            "extra.toml",
            "prompt = \"COMMAND-PROMPT-MARKER\"\nmodel = \"gemini-2.5-pro\"\n",
        ),
        case("not-toml", "broken.toml", "prompt = \"unclosed\n"),
        case(
            "a-key-twice",
            "twice.toml",
            "prompt = \"a COMMAND-PROMPT-MARKER\"\nprompt = \"b COMMAND-PROMPT-MARKER\"\n",
        ),
        case(
            "a-dotted-key",
            "dotted.toml",
            "prompt = \"COMMAND-PROMPT-MARKER\"\nmeta.owner = \"team\"\n",
        ),
        case(
            "a-name-with-a-space",
            "my review.toml",
            "prompt = \"COMMAND-PROMPT-MARKER\"\n",
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// GEMINI.md

/// `GEMINI.md` files and their imports: the imports Gemini CLI cannot make are the ones the
/// context it sends marks `Import failed`.
fn contexts() -> Vec<Case> {
    let case = |id: &str, files: Vec<(&str, &str)>| Case {
        id: format!("context:{id}"),
        files: files.into_iter().map(|(p, t)| (p.to_string(), t.to_string())).collect(),
        prompt: None,
    };
    vec![
        case(
            "imports",
            vec![
                (
                    "GEMINI.md",
                    "# Project\nSee @docs/style.md and @./docs/style.md for style.\nThen @docs/missng.md\nEnd of a sentence: @docs/style.md.\nAsk @alice first.\nMail me@example.com.\n`@inline.md` and\n```\n@fenced.md\n```\nA folder: @docs\nOutside: @../outside.md\nA URL: @https://example.com/x.md\n",
                ),
                ("docs/style.md", "Use short sentences.\n"),
            ],
        ),
        case(
            "nested-imports-and-sub-folders",
            vec![
                ("GEMINI.md", "@docs/a.md\n"),
                ("docs/a.md", "A imports @b.md\n"),
                ("docs/b.md", "B.\n"),
                ("pkg/GEMINI.md", "Package rules: @../docs/b.md and @gone.md\n"),
            ],
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// The user's settings

/// The user's `~/.gemini/settings.json`: Gemini CLI validates it as it does a project's, and
/// warns about it by its own path. Each case selects the API-key sign-in and turns hooks off, as
/// the judge's own user settings do.
fn user_settings() -> Vec<Case> {
    let case = |id: &str, user: &str| Case {
        id: format!("user-settings:{id}"),
        files: vec![
            ("GEMINI.md".to_string(), "Project.\n".to_string()),
            (USER_SETTINGS_FILE.to_string(), user.to_string()),
        ],
        prompt: None,
    };
    const BASE: &str = r#""security": { "auth": { "selectedType": "gemini-api-key" } }, "hooksConfig": { "enabled": false }, "privacy": { "usageStatisticsEnabled": false }"#;
    vec![
        case(
            "valid",
            &format!("{{ {BASE}, \"general\": {{ \"vimMode\": true }}, \"ui\": {{ \"theme\": \"GitHub\" }} }}\n"),
        ),
        case(
            "wrong-types-and-a-server-key",
            &format!(
                "{{ {BASE},\n  \"general\": {{ \"vimMode\": \"yes\" }},\n  \"ui\": {{ \"theme\": 3 }},\n  \"mcpServers\": {{ \"a\": {{ \"comand\": \"x\" }} }},\n  \"contextFileName\": \"AGENTS.md\"\n}}\n"
            ),
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// Skills

/// Where Gemini CLI looks for skills in a project.
pub const SKILL_HOMES: &[&str] = &[".gemini/skills/", ".agents/skills/"];

/// Skills: the ones Gemini CLI offers the model (`<available_skills>`) are those of the files
/// agent-lsp says it loads.
fn skills() -> Vec<Case> {
    let case = |id: &str, files: Vec<(&str, &str)>| Case {
        id: format!("skill:{id}"),
        files: files.into_iter().map(|(p, t)| (p.to_string(), t.to_string())).collect(),
        prompt: None,
    };
    vec![
        case(
            "gemini-folder",
            vec![
                ("GEMINI.md", "Project.\n"),
                (
                    ".gemini/skills/good/SKILL.md",
                    "---\nname: good\ndescription: A good skill\n---\nBody.\n",
                ),
                (
                    ".gemini/skills/noname/SKILL.md",
                    "---\ndescription: No name here\n---\nBody.\n",
                ),
                (".gemini/skills/nodesc/SKILL.md", "---\nname: nodesc\n---\nBody.\n"),
                (
                    ".gemini/skills/number/SKILL.md",
                    "---\nname: 123\ndescription: A number for a name\n---\nBody.\n",
                ),
                (
                    ".gemini/skills/colon/SKILL.md",
                    "---\nname: colon\ndescription: Use when: a thing happens\n---\nBody.\n",
                ),
                (
                    ".gemini/skills/crlf/SKILL.md",
                    "---\r\nname: crlf\r\ndescription: Lines end in CRLF\r\n---\r\nBody.\r\n",
                ),
                (
                    ".gemini/skills/bom/SKILL.md",
                    "\u{feff}---\nname: bom\ndescription: A BOM first\n---\nBody.\n",
                ),
                (".gemini/skills/none/SKILL.md", "# No frontmatter\n"),
                (
                    ".gemini/skills/broken/SKILL.md",
                    "---\nname: [broken\ndescription\n---\nBody.\n",
                ),
                (
                    ".gemini/skills/block/SKILL.md",
                    "---\nname: block\ndescription: >\n  Folded over\n  two lines\nlicense: MIT\n---\nBody.\n",
                ),
                (
                    ".gemini/skills/deep/er/SKILL.md",
                    "---\nname: deeper\ndescription: Two folders down\n---\n",
                ),
                (
                    ".gemini/skills/SKILL.md",
                    "---\nname: top\ndescription: Right in the skills folder\n---\n",
                ),
            ],
        ),
        case(
            "agents-folder",
            vec![
                ("GEMINI.md", "Project.\n"),
                (
                    ".agents/skills/shared/SKILL.md",
                    "---\nname: shared\ndescription: Read by several agents\n---\nBody.\n",
                ),
                (".agents/skills/nodesc/SKILL.md", "---\nname: nodesc\n---\nBody.\n"),
                (
                    ".agents/skills/noname/SKILL.md",
                    "---\ndescription: Named after nothing\n---\nBody.\n",
                ),
                (
                    ".agents/skills/nested/inner/SKILL.md",
                    "---\nname: inner\ndescription: Too deep for Gemini CLI\n---\n",
                ),
            ],
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// Extensions

/// The folder of a case whose sub-folders the judge installs as extensions (copies in
/// `~/.gemini/extensions/`, as `gemini extensions install` leaves them).
pub const EXTENSIONS_DIR: &str = "extensions/";

impl Case {
    /// The extension folders of the case (`extensions/<name>`).
    pub fn extensions(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .files
            .iter()
            .filter_map(|(rel, _)| {
                let name = rel.strip_prefix(EXTENSIONS_DIR)?.split('/').next()?;
                Some(format!("{EXTENSIONS_DIR}{name}"))
            })
            .collect();
        out.dedup();
        out
    }
}

/// Extensions: the ones Gemini CLI skips ("Skipping extension in ..."), the context files it
/// loads from the others.
fn extensions() -> Vec<Case> {
    let manifest = |dir: &str| format!("{EXTENSIONS_DIR}{dir}/gemini-extension.json");
    let mut files: Vec<(String, String)> = Vec::new();
    let mut add = |dir: &str, json: &str, others: &[(&str, &str)]| {
        files.push((manifest(dir), json.to_string()));
        for (f, t) in others {
            files.push((format!("{EXTENSIONS_DIR}{dir}/{f}"), t.to_string()));
        }
    };
    add(
        "good",
        r#"{"name": "good", "version": "1.0.0", "contextFileName": "RULES.md", "excludeTools": ["run_shell_command(rm -rf)"]}"#,
        &[("RULES.md", "Good rules.\n")],
    );
    add(
        "default-context",
        r#"{"name": "default-context", "version": "2.0.0"}"#,
        &[("GEMINI.md", "Default context.\n")],
    );
    add(
        "bad-name",
        r#"{"name": "bad name", "version": "1.0.0"}"#,
        &[("GEMINI.md", "Bad name.\n")],
    );
    add(
        "underscore",
        r#"{"name": "my_ext", "version": "1.0.0"}"#,
        &[("GEMINI.md", "Underscore.\n")],
    );
    add(
        "number-name",
        r#"{"name": 42, "version": "1.0.0"}"#,
        &[("GEMINI.md", "Number name.\n")],
    );
    add(
        "no-version",
        r#"{"name": "no-version"}"#,
        &[("GEMINI.md", "No version.\n")],
    );
    add(
        "empty-version",
        r#"{"name": "empty-version", "version": ""}"#,
        &[("GEMINI.md", "Empty.\n")],
    );
    add(
        "comment",
        "{\n  // a comment\n  \"name\": \"comment\", \"version\": \"1.0.0\"\n}\n",
        &[("GEMINI.md", "Comment.\n")],
    );
    add(
        "trailing",
        "{\"name\": \"trailing\", \"version\": \"1.0.0\",}\n",
        &[("GEMINI.md", "Trailing.\n")],
    );
    add(
        "bom",
        "\u{feff}{\"name\": \"bom\", \"version\": \"1.0.0\"}\n",
        &[("GEMINI.md", "BOM.\n")],
    );
    add("array", "[]\n", &[("GEMINI.md", "Array.\n")]);
    add(
        "contexts",
        r#"{"name": "contexts", "version": "1", "contextFileName": ["A.md", "../x.md", "/etc/hostname", "missing.md", "docs", "%2e%2e/y.md", "sub/B.md"]}"#,
        &[("A.md", "A.\n"), ("docs/x.md", "x\n"), ("sub/B.md", "B.\n")],
    );
    add(
        "ignored-keys",
        r#"{"name": "ignored-keys", "version": "1.0.0", "contextFilename": "U.md", "mcpServers": {"s": {"command": "true", "comand": "x"}}, "excludeTools": "run_shell_command"}"#,
        &[("GEMINI.md", "Ignored keys.\n"), ("U.md", "U.\n")],
    );
    // Real manifests (`tests/corpus/gemini-extensions/<owner>__<repo>/`), installed side by side.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/gemini-extensions");
    let mut real = Vec::new();
    collect(&root, &root, &mut real);
    real.retain(|(rel, _)| rel.ends_with("/gemini-extension.json"));
    real.sort();
    let project = ("GEMINI.md".to_string(), "Project.\n".to_string());
    vec![
        Case {
            id: "extension:installed".into(),
            files: std::iter::once(project.clone()).chain(files).collect(),
            prompt: None,
        },
        Case {
            id: "extension:corpus".into(),
            files: std::iter::once(project)
                .chain(
                    real.into_iter()
                        .map(|(rel, text)| (format!("{EXTENSIONS_DIR}{rel}"), text)),
                )
                .collect(),
            prompt: None,
        },
    ]
}

/// The `name:` an agent file gives itself, as the comparison needs it.
pub fn name_of(text: &str) -> Option<String> {
    let yaml = text.strip_prefix("---")?;
    yaml.lines().find_map(|l| {
        let v = l.trim_end_matches('\r').strip_prefix("name:")?.trim();
        let v = v.trim_matches(|c| c == '"' || c == '\'');
        (!v.is_empty()).then(|| v.to_string())
    })
}

// ---------------------------------------------------------------------------------------------
// Generated from the schema

/// One step of a path in a settings file: a key, or the first item of an array.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    First,
}

/// A setting to set: where it is (each object on the way with its required fields filled in by
/// `needs`), and its shape.
struct Leaf {
    path: Vec<Step>,
    shape: &'static Shape,
    /// Objects on the way that need other fields: (depth, field name, valid value).
    needs: Vec<(usize, &'static str, Value)>,
}

impl Leaf {
    fn top(&self) -> String {
        match self.path.first() {
            Some(Step::Key(k)) => k.clone(),
            _ => String::new(),
        }
    }
}

/// A valid, inert value of a shape: `false`, `1`, `""`, the first of a set, empty collections.
fn valid(shape: &Shape) -> Option<Value> {
    Some(match shape {
        Shape::Str => json!(""),
        Shape::Bool => json!(false),
        Shape::Num(_) | Shape::Int(_) => json!(1),
        Shape::Lit(lits) => match lits.first()? {
            Lit::Str(s) => json!(s),
            Lit::Bool(b) => json!(b),
        },
        Shape::Array(_) => json!([]),
        Shape::Record(_) => json!({}),
        Shape::Object(o) => {
            let mut m = Map::new();
            for f in o.fields.iter().filter(|f| f.required) {
                m.insert(f.name.to_string(), valid(&f.shape)?);
            }
            Value::Object(m)
        }
        Shape::Union(members) => valid(members.first()?)?,
        _ => return None,
    })
}

/// A value of a type the shape does not take.
fn wrong_type(shape: &Shape) -> Option<Value> {
    let takes = |probe: &Value| accepts(shape, probe);
    [json!(7), json!("zz"), json!([]), json!({}), json!(true)]
        .into_iter()
        .find(|v| !takes(v))
}

/// Whether a value of `v`'s JSON type (and, for strings, this string) could be taken.
fn accepts(shape: &Shape, v: &Value) -> bool {
    match (shape, v) {
        (Shape::Any, _) => true,
        (Shape::Str, Value::String(_)) => true,
        (Shape::Pattern(ok, _), Value::String(s)) => ok(s),
        (Shape::Bool, Value::Bool(_)) => true,
        (Shape::Num(_) | Shape::Int(_), Value::Number(_)) => true,
        (Shape::Lit(lits), Value::String(s)) => lits.iter().any(|l| *l == Lit::Str(leak(s))),
        (Shape::Array(_), Value::Array(_)) => true,
        (Shape::Record(_) | Shape::Object(_), Value::Object(_)) => true,
        (Shape::Union(ms), _) => ms.iter().any(|m| accepts(m, v)),
        _ => false,
    }
}

fn leak(s: &str) -> &'static str {
    // Only compared, in a test: a small leak per probe.
    Box::leak(s.to_string().into_boxed_str())
}

fn leaves() -> Vec<Leaf> {
    let Shape::Object(top) = &SETTINGS else { unreachable!() };
    let mut out = Vec::new();
    walk(top, &[], &[], &mut out);
    out
}

/// The fields of `object` (at `path`) as leaves, and the objects inside as their fields.
fn walk(object: &'static Object, path: &[Step], needs: &[(usize, &'static str, Value)], out: &mut Vec<Leaf>) {
    let depth = path.len();
    let mut here: Vec<(usize, &'static str, Value)> = needs.to_vec();
    for f in object.fields.iter().filter(|f| f.required) {
        if let Some(v) = valid(&f.shape) {
            here.push((depth, f.name, v));
        }
    }
    for f in object.fields.iter() {
        let mut p = path.to_vec();
        p.push(Step::Key(f.name.to_string()));
        let needs: Vec<_> = here
            .iter()
            .filter(|(d, name, _)| !(*d == depth && *name == f.name))
            .cloned()
            .collect();
        inside(f, &f.shape, p, needs, out);
    }
}

fn inside(
    f: &'static Field,
    shape: &'static Shape,
    path: Vec<Step>,
    needs: Vec<(usize, &'static str, Value)>,
    out: &mut Vec<Leaf>,
) {
    out.push(Leaf {
        path: path.clone(),
        shape,
        needs: needs.clone(),
    });
    match shape {
        Shape::Object(o) => walk(o, &path, &needs, out),
        Shape::Record(Shape::Object(o)) => {
            let mut p = path.clone();
            p.push(Step::Key("x".into()));
            walk(o, &p, &needs, out);
        }
        Shape::Array(Shape::Object(o)) => {
            let mut p = path.clone();
            p.push(Step::First);
            walk(o, &p, &needs, out);
        }
        _ => {}
    }
    let _ = f;
}

/// A settings file with `value` at the leaf's place, and what that place needs.
fn document(leaf: &Leaf, value: Value) -> Value {
    let mut root = json!({});
    for (depth, name, v) in &leaf.needs {
        let mut p = leaf.path[..*depth].to_vec();
        p.push(Step::Key(name.to_string()));
        set(&mut root, &p, v.clone());
    }
    set(&mut root, &leaf.path, value);
    root
}

fn set(root: &mut Value, path: &[Step], value: Value) {
    let Some((last, rest)) = path.split_last() else {
        *root = value;
        return;
    };
    let mut at = root;
    for (i, step) in rest.iter().enumerate() {
        let next_is_first = matches!(path.get(i + 1), Some(Step::First));
        let fresh = if next_is_first { json!([]) } else { json!({}) };
        at = match step {
            Step::Key(k) => {
                let m = at.as_object_mut().expect("an object on the way");
                m.entry(k.clone()).or_insert(fresh)
            }
            Step::First => {
                let a = at.as_array_mut().expect("an array on the way");
                if a.is_empty() {
                    a.push(fresh);
                }
                &mut a[0]
            }
        };
    }
    match last {
        Step::Key(k) => {
            at.as_object_mut().expect("an object").insert(k.clone(), value);
        }
        Step::First => {
            let a = at.as_array_mut().expect("an array");
            if a.is_empty() {
                a.push(value);
            } else {
                a[0] = value;
            }
        }
    }
}

/// Merge `b` into `a` (objects key by key; anything else replaced).
fn merge(a: &mut Value, b: Value) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in y {
                match x.get_mut(&k) {
                    Some(old) => merge(old, v),
                    None => {
                        x.insert(k, v);
                    }
                }
            }
        }
        (a, b) => *a = b,
    }
}

/// At most this many mistakes in one file: Gemini CLI shows five.
const BATCH: usize = 5;

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap() + "\n"
}

fn generated() -> Vec<Case> {
    let leaves = leaves();
    let mut out = Vec::new();
    let mut tops: Vec<String> = leaves.iter().map(Leaf::top).collect();
    tops.dedup();
    for top in &tops {
        let mine: Vec<&Leaf> = leaves.iter().filter(|l| l.top() == *top).collect();
        // Every setting of the section at once, each with a valid value (a deeper setting is
        // written inside its section's value).
        let mut all = json!({});
        for l in &mine {
            if let Some(v) = valid(l.shape) {
                merge(&mut all, document(l, v));
            }
        }
        out.push(Case::settings(&format!("gen:valid:{top}"), &pretty(&all)));
        // A wrong type, five settings a file.
        let wrong: Vec<(&Leaf, Value)> = mine
            .iter()
            .filter_map(|l| Some((*l, document(l, wrong_type(l.shape)?))))
            .collect();
        for (i, docs) in batches(&wrong).iter().enumerate() {
            out.push(Case::settings(&format!("gen:type:{top}:{i}"), &pretty(&batch(docs))));
        }
        // A string outside the set, five settings a file.
        let outside: Vec<(&Leaf, Value)> = mine
            .iter()
            .filter(|l| matches!(l.shape, Shape::Lit(_)))
            .map(|l| (*l, document(l, json!("zz-not-a-value"))))
            .collect();
        for (i, docs) in batches(&outside).iter().enumerate() {
            out.push(Case::settings(&format!("gen:value:{top}:{i}"), &pretty(&batch(docs))));
        }
        // A misspelt key in each object of the section (a strict one in a file of its own).
        let mut silent = json!({});
        let mut strict = Vec::new();
        for l in mine.iter() {
            let object = match l.shape {
                Shape::Object(o) => o,
                Shape::Record(Shape::Object(o)) | Shape::Array(Shape::Object(o)) => o,
                _ => continue,
            };
            let Some(first) = object.fields.first() else { continue };
            let typo = misspell(first.name);
            let mut path = l.path.clone();
            match l.shape {
                Shape::Record(_) => path.push(Step::Key("x".into())),
                Shape::Array(_) => path.push(Step::First),
                _ => {}
            }
            let mut needs = l.needs.clone();
            for f in object.fields.iter().filter(|f| f.required) {
                if let Some(v) = valid(&f.shape) {
                    needs.push((path.len(), f.name, v));
                }
            }
            path.push(Step::Key(typo));
            let leaf = Leaf {
                path,
                shape: &Shape::Any,
                needs,
            };
            let doc = document(&leaf, valid(&first.shape).unwrap_or(json!(1)));
            if matches!(object.rest, Rest::Refuse) {
                strict.push(doc);
            } else {
                merge(&mut silent, doc);
            }
        }
        out.push(Case::settings(&format!("gen:misspelt:{top}"), &pretty(&silent)));
        for (i, doc) in strict.into_iter().enumerate() {
            out.push(Case::settings(&format!("gen:misspelt-strict:{top}:{i}"), &pretty(&doc)));
        }
    }
    out
}

/// The documents in files of at most [`BATCH`] mistakes, none inside another one's setting
/// (a section of the wrong type and a setting in it go to different files).
fn batches(docs: &[(&Leaf, Value)]) -> Vec<Vec<Value>> {
    let key = |l: &Leaf| {
        l.path
            .iter()
            .map(|s| match s {
                Step::Key(k) => k.clone(),
                Step::First => "[0]".into(),
            })
            .collect::<Vec<_>>()
    };
    let mut out: Vec<(Vec<Vec<String>>, Vec<Value>)> = Vec::new();
    for (leaf, doc) in docs {
        let k = key(leaf);
        let fits = |paths: &Vec<Vec<String>>| {
            paths.len() < BATCH && !paths.iter().any(|p| p.starts_with(&k) || k.starts_with(p))
        };
        match out.iter_mut().find(|(paths, _)| fits(paths)) {
            Some((paths, ds)) => {
                paths.push(k);
                ds.push(doc.clone());
            }
            None => out.push((vec![k], vec![doc.clone()])),
        }
    }
    out.into_iter().map(|(_, d)| d).collect()
}

fn batch(docs: &[Value]) -> Value {
    let mut all = json!({});
    for d in docs {
        merge(&mut all, d.clone());
    }
    all
}

/// A near miss of a field's name: its last letter dropped (or an `x` added to a short one).
fn misspell(name: &str) -> String {
    if name.chars().count() > 4 {
        let mut s = name.to_string();
        s.pop();
        s
    } else {
        format!("{name}x")
    }
}
