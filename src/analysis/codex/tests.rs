//! Codex's rules, one file at a time: each case that fires, and the close case that must not.
//! (What Codex 0.171.0 itself does with the same files is recorded in `tests/codex_runtime`.)

use super::*;
use crate::analysis::diagnostic::{Effect, Severity};

fn config(text: &str) -> Vec<Diagnostic> {
    analyze(&FileKind::Config { project: true }, text).0
}

fn user_config(text: &str) -> Vec<Diagnostic> {
    analyze(&FileKind::Config { project: false }, text).0
}

fn agent(text: &str) -> (Vec<Diagnostic>, Facts) {
    let (d, _, f) = analyze(&FileKind::Agent, text);
    (d, f)
}

/// `(code, severity, the text the finding sits on)` of each finding.
fn found(text: &str, diags: &[Diagnostic]) -> Vec<(Code, Severity, String)> {
    diags
        .iter()
        .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
        .collect()
}

const VALID: &str = r#"model = "gpt-5.1-codex"
model_reasoning_effort = "high"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
project_doc_max_bytes = 65536
project_doc_fallback_filenames = ["CLAUDE.md"]
notify = ["notify-send", "Codex"]

[sandbox_workspace_write]
network_access = false
writable_roots = ["/tmp/build"]

[features]
web_search_request = true
collab = true
multi_agent_v2 = { enabled = true }

[mcp_servers.docs]
command = "npx"
args = ["-y", "@upstash/context7-mcp@1.0.0"]
env = { LOG = "info" }
startup_timeout_sec = 20

[mcp_servers.remote]
url = "https://example.com/mcp"
bearer_token_env_var = "REMOTE_TOKEN"
tool_timeout_sec = 60.5

[model_providers.local]
name = "Local"
base_url = "http://127.0.0.1:11434/v1"
wire_api = "responses"

[agents]
max_threads = 4

[agents.reviewer]
description = "Reviews diffs"
config_file = "agents/reviewer.toml"

[projects."/home/me/work"]
trust_level = "trusted"

[tui]
notifications = ["agent-turn-complete"]
alternate_screen = "never"

[shell_environment_policy]
inherit = "core"
set = { CI = "1" }

[[skills.config]]
path = "/home/me/.agents/skills/x/SKILL.md"
enabled = false
"#;

#[test]
fn a_valid_config_gets_nothing() {
    let d = user_config(VALID);
    assert!(d.is_empty(), "{:#?}", found(VALID, &d));
}

#[test]
fn a_bad_enum_refuses_to_start_on_its_value() {
    let text = "approval_policy = \"sometimes\"\nsandbox_mode = \"read-only\"\n";
    let d = config(text);
    assert_eq!(
        found(text, &d),
        [(Code::InvalidValue, Severity::Error, "\"sometimes\"".into())]
    );
    assert_eq!(d[0].effect, Effect::RefusesToStart);
    assert!(d[0].message.contains("Codex refuses to start"), "{}", d[0].message);
    // A near miss gets its fix.
    let text = "sandbox_mode = \"read_only\"\n";
    let d = config(text);
    assert!(d[0].message.contains("Did you mean `read-only`?"), "{}", d[0].message);
    assert_eq!(d[0].fix.as_ref().unwrap().edits[0].text, "\"read-only\"");
}

#[test]
fn a_wrong_type_refuses_to_start_and_toml_integers_are_not_floats() {
    let text = "[mcp_servers.x]\ncommand = \"npx\"\nargs = \"-y x\"\n";
    let d = config(text);
    assert_eq!(
        found(text, &d),
        [(Code::InvalidType, Severity::Error, "\"-y x\"".into())]
    );
    assert!(
        d[0].message
            .starts_with("`mcp_servers.x.args` must be an array of strings, not a string (\"-y x\")"),
        "{}",
        d[0].message
    );
    let text = "project_doc_max_bytes = 1.0\nmodel_context_window = 1000\n";
    assert_eq!(
        found(text, &config(text)),
        [(Code::InvalidType, Severity::Error, "1.0".into())]
    );
    let text = "project_doc_max_bytes = -1\n";
    assert_eq!(
        found(text, &config(text)),
        [(Code::InvalidValue, Severity::Error, "-1".into())]
    );
    // A float where Codex reads a float takes an integer too.
    let text = "[mcp_servers.x]\ncommand = \"a\"\nstartup_timeout_sec = 10\n";
    assert!(config(text).is_empty());
}

#[test]
fn unknown_keys_are_warnings_at_any_depth_with_a_did_you_mean() {
    let text = "model_reasoning_efort = \"low\"\n[mcp_servers.docs]\ncommand = \"npx\"\nenviroment = { A = \"b\" }\n[features]\nnot_a_flag = true\n";
    let d = config(text);
    assert_eq!(
        found(text, &d),
        [
            (Code::UnknownKey, Severity::Warning, "model_reasoning_efort".into()),
            (Code::UnknownKey, Severity::Warning, "enviroment".into()),
            (Code::UnknownKey, Severity::Warning, "not_a_flag".into()),
        ]
    );
    assert!(
        d[0].message.contains("Did you mean `model_reasoning_effort`?"),
        "{}",
        d[0].message
    );
    assert!(d[0].message.contains("--strict-config"), "{}", d[0].message);
    assert_eq!(d[0].fix.as_ref().unwrap().edits[0].text, "model_reasoning_effort");
    assert!(d[1].message.contains("in `mcp_servers.docs`"), "{}", d[1].message);
    assert!(
        d[1].message.contains("Did you mean `env`?")
            || d[1].message.contains("Did you mean `env_vars`?")
            || d[1].message.contains("Did you mean"),
        "{}",
        d[1].message
    );
}

#[test]
fn an_mcp_server_is_local_or_remote() {
    let text = "[mcp_servers.x]\ncomand = \"npx\"\n";
    let d = config(text);
    // One finding: the misspelt key, as the reason the server has no transport.
    assert_eq!(
        found(text, &d),
        [(Code::MissingField, Severity::Error, "comand".into())]
    );
    assert!(d[0].message.contains("invalid transport"), "{}", d[0].message);
    assert!(d[0].message.contains("Did you mean `command`?"), "{}", d[0].message);
    let text = "[mcp_servers.x]\nenabled = true\n";
    assert_eq!(
        found(text, &config(text)),
        [(Code::MissingField, Severity::Error, "x".into())]
    );
    let text = "[mcp_servers.x]\ncommand = \"npx\"\nurl = \"http://x\"\nhttp_headers = { A = \"b\" }\n";
    assert_eq!(
        found(text, &config(text)),
        [
            (Code::InvalidValue, Severity::Error, "url".into()),
            (Code::InvalidValue, Severity::Error, "http_headers".into()),
        ]
    );
    let text = "[mcp_servers.x]\nurl = \"http://x\"\nenv = { A = \"b\" }\ncwd = \"/\"\n";
    assert_eq!(
        found(text, &config(text)),
        [
            (Code::InvalidValue, Severity::Error, "env".into()),
            (Code::InvalidValue, Severity::Error, "cwd".into()),
        ]
    );
}

#[test]
fn legacy_profiles_and_settings() {
    let text = "profile = \"fast\"\n";
    let d = user_config(text);
    assert_eq!(
        found(text, &d),
        [(Code::DeprecatedField, Severity::Error, "profile".into())]
    );
    assert!(d[0].message.contains("fast.config.toml"), "{}", d[0].message);
    let fix = d[0].fix.as_ref().unwrap();
    assert_eq!(crate::analysis::diagnostic::apply(text, &fix.edits), "\n");
    let text = "[profiles.fast]\nmodel = \"o3\"\n";
    let d = user_config(text);
    assert_eq!(
        found(text, &d),
        [(Code::DeprecatedField, Severity::Warning, "fast".into())]
    );
    assert_eq!(d[0].effect, Effect::FailsWhenUsed);
    let text = "[permissions.p]\ndescription = \"x\"\n";
    assert_eq!(
        found(text, &config(text)),
        [(Code::MissingField, Severity::Error, "permissions".into())]
    );
    let text = "default_permissions = \"p\"\n[permissions.p]\ndescription = \"x\"\n";
    assert!(config(text).is_empty());
    let text = "[model_providers.x]\nwire_api = \"chat\"\n";
    let d = user_config(text);
    assert_eq!(
        found(text, &d),
        [(Code::DeprecatedField, Severity::Error, "\"chat\"".into())]
    );
    let text = "approval_policy = \"untrusted\"\n";
    for d in [config(text), user_config(text)] {
        assert_eq!(
            found(text, &d),
            [(Code::DeprecatedField, Severity::Error, "\"untrusted\"".into())]
        );
    }
}

#[test]
fn a_project_config_does_not_set_the_user_only_keys() {
    let text = "notify = \"not even a list\"\n[model_providers.x]\nname = 1\nwire_api = \"chat\"\n[features]\ncredential_masking = \"x\"\nhooks = true\n";
    let d = config(text);
    assert_eq!(
        found(text, &d),
        [
            (Code::IgnoredField, Severity::Warning, "notify".into()),
            (Code::IgnoredField, Severity::Warning, "model_providers".into()),
            (Code::IgnoredField, Severity::Warning, "credential_masking".into()),
        ]
    );
    assert!(d[0].message.contains("~/.codex/config.toml"), "{}", d[0].message);
    // The user's file sets them, and is checked.
    let d = user_config(text);
    assert_eq!(
        d.iter().filter(|d| d.severity == Severity::Error).count(),
        4,
        "{:#?}",
        found(text, &d)
    );
    let text = "[projects.\"/x\"]\ntrust_level = \"yes\"\n";
    let d = config(text);
    assert_eq!(
        found(text, &d),
        [
            (Code::IgnoredField, Severity::Warning, "projects".into()),
            (Code::InvalidValue, Severity::Error, "\"yes\"".into()),
        ]
    );
    // A key that is no bare key is quoted in the path a message gives.
    assert!(
        d[1].message.starts_with("`projects.\"/x\".trust_level` must be"),
        "{}",
        d[1].message
    );
    let text = "[features]\nuse_xaa = true\n";
    assert_eq!(
        found(text, &config(text)),
        [(Code::InvalidValue, Severity::Error, "true".into())]
    );
    assert!(user_config(text).is_empty());
}

#[test]
fn reasoning_effort_takes_any_string_but_the_model_does_not() {
    let text = "model_reasoning_effort = \"extreme\"\n";
    let d = config(text);
    assert_eq!(
        found(text, &d),
        [(Code::InvalidValue, Severity::Warning, "\"extreme\"".into())]
    );
    assert_eq!(d[0].effect, Effect::FailsWhenUsed);
    let text = "model_reasoning_effort = \"hihg\"\n";
    assert!(config(text)[0].message.contains("Did you mean `high`?"));
    assert!(config("model_reasoning_effort = \"xhigh\"\n").is_empty());
}

#[test]
fn a_syntax_error_is_reported_and_the_rest_still_checked() {
    let text = "model = \nsandbox_mode = \"bogus\"\n";
    let d = config(text);
    assert_eq!(d.len(), 2, "{:#?}", found(text, &d));
    assert_eq!(d[0].code, Code::SyntaxError);
    assert_eq!(d[1].code, Code::InvalidValue);
}

const AGENT: &str = "name = \"reviewer\"\ndescription = \"Reviews diffs\"\ndeveloper_instructions = \"Review carefully.\"\nmodel = \"o3\"\nsandbox_mode = \"read-only\"\nnickname_candidates = [\"Ada\", \"Grace\"]\n";

#[test]
fn a_valid_agent_loads() {
    let (d, f) = agent(AGENT);
    assert!(d.is_empty(), "{:#?}", found(AGENT, &d));
    let role = f.agent.unwrap();
    assert_eq!(role.name.as_deref(), Some("reviewer"));
    assert_eq!(role.description.as_deref(), Some("Reviews diffs"));
    assert!(role.loads);
    assert_eq!(f.settings.sandbox_mode.unwrap().value, "read-only");
}

#[test]
fn an_unknown_top_level_key_drops_the_agent_deeper_ones_do_not() {
    let text = "name = \"r\"\ndescripton = \"typo\"\ndeveloper_instructions = \"x\"\n";
    let (d, f) = agent(text);
    assert_eq!(
        found(text, &d),
        [(Code::UnknownKey, Severity::Error, "descripton".into())]
    );
    assert!(d[0].message.contains("Did you mean `description`?"), "{}", d[0].message);
    assert_eq!(d[0].effect, Effect::FileIgnored);
    assert!(!f.agent.unwrap().loads);
    let text = "name = \"r\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\n[mcp_servers.x]\ncommand = \"a\"\nenviroment = \"b\"\n";
    let (d, f) = agent(text);
    assert_eq!(
        found(text, &d),
        [(Code::UnknownKey, Severity::Warning, "enviroment".into())]
    );
    assert!(f.agent.unwrap().loads);
}

#[test]
fn an_agent_needs_its_instructions_and_no_blank_field() {
    let text = "name = \"r\"\ndescription = \"d\"\n";
    let (d, _) = agent(text);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, Code::MissingField);
    assert!(d[0].message.contains("developer_instructions"), "{}", d[0].message);
    // A misspelt `developer_instructions` is said once, on the misspelling.
    let text = "name = \"r\"\ndescription = \"d\"\ndeveloper_instruction = \"x\"\n";
    assert_eq!(
        found(text, &agent(text).0),
        [(Code::UnknownKey, Severity::Error, "developer_instruction".into())]
    );
    // `name` and `description` may come from the folder's config.toml (`project.rs`).
    let (d, f) = agent("developer_instructions = \"x\"\n");
    assert!(d.is_empty(), "{d:#?}");
    let role = f.agent.unwrap();
    assert!(!role.has_name && !role.has_description && role.loads);
    let text = "name = \"r\"\ndescription = \"  \"\ndeveloper_instructions = \"x\"\n";
    assert_eq!(
        found(text, &agent(text).0),
        [(Code::InvalidValue, Severity::Error, "\"  \"".into())]
    );
    let text = "name = 5\ndescription = \"d\"\ndeveloper_instructions = \"x\"\n";
    let (d, _) = agent(text);
    assert_eq!(found(text, &d), [(Code::InvalidType, Severity::Error, "5".into())]);
    assert!(
        d[0].message.starts_with("`name` must be a string, not a number"),
        "{}",
        d[0].message
    );
    let text = "name = \"r\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\nnickname_candidates = \"Ada\"\n";
    let (d, _) = agent(text);
    assert_eq!(
        found(text, &d),
        [(Code::InvalidType, Severity::Error, "\"Ada\"".into())]
    );
    assert!(
        d[0].message.contains("a list of strings, not a string"),
        "{}",
        d[0].message
    );
    let text = "name = \"r\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\nsandbox_mode = \"nope\"\n";
    let (d, f) = agent(text);
    assert_eq!(
        found(text, &d),
        [(Code::InvalidValue, Severity::Error, "\"nope\"".into())]
    );
    assert!(d[0].message.contains("Codex drops this agent"), "{}", d[0].message);
    assert!(!f.agent.unwrap().loads);
}

// ---------------------------------------------------------------------------------------------
// The instruction chain, through the workspace

mod chain {
    use std::fs;
    use std::path::Path;

    use crate::analysis::diagnostic::Severity;
    use crate::analysis::host::Options;
    use crate::analysis::rules::Code;
    use crate::workspace::Workspace;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }

    /// The chain's findings: (file, code, severity, first byte).
    fn found(ws: &Workspace, root: &Path) -> Vec<(String, Code, Severity, u32)> {
        let mut out: Vec<_> = ws
            .diagnostics()
            .into_iter()
            .filter(|(_, d)| matches!(d.code, Code::TruncatedInstructions | Code::ShadowedFile))
            .map(|(id, d)| {
                let rel = ws.files[id]
                    .path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (rel, d.code, d.severity, d.span.start)
            })
            .collect();
        out.sort();
        out
    }

    fn lines(n: usize, len: usize) -> String {
        let line = "Follow the rules of this folder.\n";
        let mut s = line.repeat(n);
        s.truncate(len);
        s
    }

    #[test]
    fn the_budget_cut_follows_the_files_and_is_said_only_where_codex_is_used() {
        let t = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(t.path()).unwrap();
        fs::create_dir_all(root.join(".git")).unwrap();
        write(&root, "AGENTS.md", &lines(1100, 32216));
        write(&root, "sub/AGENTS.md", &lines(50, 1415));
        // No `.codex/` folder, no override, no user configuration: nothing said.
        let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
        assert_eq!(found(&ws, &root), []);
        write(&root, ".codex/config.toml", "model = \"gpt-5\"\n");
        let mut ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
        assert_eq!(
            found(&ws, &root),
            [(
                "sub/AGENTS.md".into(),
                Code::TruncatedInstructions,
                Severity::Warning,
                552
            )]
        );
        // A shorter root file: the sub-folder's fits.
        let top = ws.id(&root.join("AGENTS.md")).unwrap();
        ws.set_text(top, lines(1000, 31000));
        assert_eq!(found(&ws, &root), []);
        // The project's budget: the root file itself is cut, the other left out.
        let config = ws.id(&root.join(".codex/config.toml")).unwrap();
        ws.set_text(config, "project_doc_max_bytes = 1000\n".into());
        assert_eq!(
            found(&ws, &root),
            [
                ("AGENTS.md".into(), Code::TruncatedInstructions, Severity::Warning, 1000),
                (
                    "sub/AGENTS.md".into(),
                    Code::TruncatedInstructions,
                    Severity::Warning,
                    0
                ),
            ]
        );
        // A short root file leaves the rest of the budget to the sub-folder's.
        ws.set_text(top, "Short.\n".into());
        assert_eq!(
            found(&ws, &root),
            [(
                "sub/AGENTS.md".into(),
                Code::TruncatedInstructions,
                Severity::Warning,
                993
            )]
        );
    }

    #[test]
    fn an_override_hides_agents_md_and_the_hover_says_who_reads_what() {
        let t = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(t.path()).unwrap();
        fs::create_dir_all(root.join(".git")).unwrap();
        write(&root, "AGENTS.md", "Shared.\n");
        write(&root, "pkg/AGENTS.md", "Package rules.\n");
        write(&root, "pkg/AGENTS.override.md", "My local rules.\n");
        let mut ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
        // The override is Codex's: an override on the way says Codex is used.
        assert_eq!(
            found(&ws, &root),
            [("pkg/AGENTS.md".into(), Code::ShadowedFile, Severity::Info, 0)]
        );
        let hidden = ws.id(&root.join("pkg/AGENTS.md")).unwrap();
        let (_, verdicts) = ws.instruction_readers(hidden).unwrap();
        let codex: Vec<_> = verdicts
            .iter()
            .filter(|v| v.runtime == crate::analysis::Dialect::Codex)
            .collect();
        assert_eq!(codex.len(), 1);
        assert!(!codex[0].reads);
        assert!(
            codex[0]
                .why
                .contains("reads the `AGENTS.override.md` of this folder instead"),
            "{}",
            codex[0].why
        );
        let over = ws.id(&root.join("pkg/AGENTS.override.md")).unwrap();
        let (which, verdicts) = ws.instruction_readers(over).unwrap();
        assert_eq!(which.name(), "AGENTS.override.md");
        assert_eq!(
            verdicts.iter().map(|v| (v.runtime, v.reads)).collect::<Vec<_>>(),
            [
                (crate::analysis::Dialect::Opencode, false),
                (crate::analysis::Dialect::Claude, false),
                (crate::analysis::Dialect::Codex, true),
                (crate::analysis::Dialect::Gemini, false),
            ]
        );
        // Blanked: the folder gives Codex nothing, said on the override.
        ws.set_text(over, "\n  \n".into());
        assert_eq!(
            found(&ws, &root),
            [(
                "pkg/AGENTS.override.md".into(),
                Code::ShadowedFile,
                Severity::Warning,
                0
            )]
        );
        // No other runtime reads an override, and nothing says it is unread where Codex reads it.
        ws.set_text(over, "Back.\n".into());
        assert_eq!(found(&ws, &root).len(), 1);
    }
}

/// `broad-grant`: `sandbox_mode = "danger-full-access"` on its value, in a project's or the user's
/// file (the workspace keeps it for committed files only), with `workspace-write` as the
/// suggestion; nothing for the other modes.
#[test]
fn a_sandbox_with_full_access() {
    let text = "approval_policy = \"on-request\"\nsandbox_mode = \"danger-full-access\"\n";
    for d in [config(text), user_config(text)] {
        assert_eq!(
            found(text, &d),
            [(
                Code::BroadGrant,
                Severity::Warning,
                "\"danger-full-access\"".to_string()
            )]
        );
        assert!(
            d[0].message
                .starts_with("`danger-full-access` runs every command Codex starts without a sandbox")
        );
        assert_eq!(d[0].fix.as_ref().unwrap().edits[0].text, "\"workspace-write\"");
    }
    // A file Codex refuses to start on grants nothing.
    let refused = "sandbox_mode = \"danger-full-access\"\napproval_policy = \"sometimes\"\n";
    assert!(!config(refused).iter().any(|d| d.code == Code::BroadGrant));
    for mode in ["read-only", "workspace-write"] {
        let text = format!("sandbox_mode = \"{mode}\"\n");
        assert!(config(&text).is_empty(), "{mode}");
    }
}
