//! `agent-lsp setup opencode`: the `lsp` and `mcp` entries in `opencode.json(c)` that make
//! opencode run agent-lsp as a language server and an MCP server (the project's file, or with
//! `--global` the user's).

use std::path::PathBuf;

use crate::analysis::setup::merge::{J, Place, Want};
use crate::analysis::setup::{Ask, File, Step};

const SCHEMA: &str = "https://opencode.ai/config.json";

/// opencode 1.18.34 runs no language server when `lsp` is unset (or `false`), and every built-in
/// one plus the configured ones when it is `true` or an object.
const LSP_ADDED: &str = "the file had no `lsp`; where no config sets it, opencode runs no language \
     server at all, and an `lsp` object also turns on opencode's built-in servers (TypeScript, \
     Python, Go, ...); turn one off with `\"<name>\": {\"disabled\": true}` in `lsp`";

const LSP_FALSE: &str = "turns every language server off in opencode, agent-lsp's too, so agent-lsp \
     will not add one. To use agent-lsp, replace `false` with `{}` (an object keeps opencode's \
     built-in servers on; turn one off with `\"<name>\": {\"disabled\": true}`), then run this again";

/// What the help says `setup opencode` writes.
pub const HELP: &str = "`lsp` and `mcp` entries in opencode.json(c)";

fn wants(ask: &Ask) -> Vec<Want<'static>> {
    vec![
        Want {
            parent: "lsp",
            name: "agent-lsp",
            value: J::obj(vec![
                ("command", J::Val(ask.command(&["serve", "--for-agents"]))),
                ("extensions", J::Val(serde_json::json!([".md", ".json", ".jsonc"]))),
            ]),
            place: Place::Member,
            true_is_object: true,
            false_refusal: Some(LSP_FALSE),
            note_if_added: Some(LSP_ADDED),
        },
        Want::member(
            "mcp",
            "agent-lsp",
            J::obj(vec![
                ("type", J::Val(serde_json::json!("local"))),
                ("command", J::Val(ask.command(&["mcp"]))),
                ("enabled", J::Val(serde_json::json!(true))),
            ]),
        ),
    ]
}

/// The steps of `setup opencode`.
pub fn steps(ask: &Ask) -> Result<Vec<Step>, String> {
    if ask.hook {
        return Err(
            "--hook is for `setup claude`: opencode hands the language server's errors to the model in \
             the same turn without one"
                .to_string(),
        );
    }
    let mut out = Vec::new();
    let dir = if ask.global {
        // Where opencode reads the user's config: `$XDG_CONFIG_HOME/opencode`, else
        // `~/.config/opencode`.
        match (ask.env)("XDG_CONFIG_HOME").filter(|x| !x.is_empty()) {
            Some(x) => PathBuf::from(x).join("opencode"),
            None => ask.home()?.join(".config").join("opencode"),
        }
    } else {
        ask.root.to_path_buf()
    };
    let shown_as = |name: &str| {
        if ask.global {
            dir.join(name).display().to_string()
        } else {
            ask.shown(name)
        }
    };
    // opencode.json or opencode.jsonc: the jsonc when it exists (opencode reads both, and the
    // jsonc wins); a note when both do.
    let name = match (
        (ask.exists)(&dir.join("opencode.json")),
        (ask.exists)(&dir.join("opencode.jsonc")),
    ) {
        (true, true) => {
            out.push(Step::Say(format!(
                "note: both {} and {} exist; opencode reads both and opencode.jsonc wins, so the \
                 entries go there\n",
                shown_as("opencode.json"),
                shown_as("opencode.jsonc")
            )));
            "opencode.jsonc"
        }
        (false, true) => "opencode.jsonc",
        _ => "opencode.json",
    };
    if !ask.write {
        out.push(Step::Say("\n".to_string()));
    }
    let after = if ask.global {
        "opencode starts them from its next session, in every project; `opencode debug config` shows the \
         merged `lsp` and `mcp`\n"
    } else {
        "opencode starts them from its next session in this project; `opencode debug config` shows the \
         merged `lsp` and `mcp`\n"
    };
    out.push(Step::File(File {
        syntax: crate::analysis::setup::Syntax::Jsonc,
        path: dir.join(name),
        shown: shown_as(name),
        initial: format!("{{\n  \"$schema\": \"{SCHEMA}\"\n}}\n"),
        analyse: true,
        wants: wants(ask),
        after_change: after.to_string(),
        merge_it: format!("agent-lsp setup opencode --write{}", ask.again),
    }));
    Ok(out)
}
