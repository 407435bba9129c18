//! `agent-lsp setup claude`: the agent-lsp plugin (its language server), an MCP server entry in
//! `.mcp.json` (or with `--global` the user's `~/.claude.json`), and with `--hook` the
//! `PostToolUse` hook in `.claude/settings.json` (or the user's).

use crate::analysis::setup::merge::{J, Place, Want};
use crate::analysis::setup::{Ask, File, Step, sh_quote};

/// What the help says `setup claude` writes.
pub const HELP: &str = "The agent-lsp plugin, and an `.mcp.json` entry";

/// The tools whose results the hook checks: the files Claude Code writes (as the plugin's hook).
const HOOK_MATCHER: &str = "Write|Edit|MultiEdit";

/// The `PostToolUse` entry that runs `agent-lsp hook`, as the plugin declares it.
fn hook_want(ask: &Ask) -> Want<'static> {
    Want {
        parent: "hooks",
        name: "PostToolUse",
        value: J::obj(vec![
            ("matcher", J::Val(serde_json::json!(HOOK_MATCHER))),
            (
                "hooks",
                J::Arr(vec![J::obj(vec![
                    ("type", J::Val(serde_json::json!("command"))),
                    ("command", J::Val(serde_json::json!(ask.shell(&["hook"])))),
                    ("timeout", J::Val(serde_json::json!(30))),
                ])]),
            ),
        ]),
        place: Place::Append {
            ours: runs_agent_lsp_hook,
        },
        true_is_object: false,
        false_refusal: None,
        note_if_added: None,
    }
}

/// Whether a `PostToolUse` entry runs `agent-lsp hook` already (however agent-lsp is named: from
/// PATH, by a path, through npx), whatever its matcher: that one is left as the user set it.
fn runs_agent_lsp_hook(entry: &serde_json::Value) -> bool {
    let Some(hooks) = entry.get("hooks").and_then(|h| h.as_array()) else {
        return false;
    };
    hooks.iter().filter_map(|h| h.get("command")?.as_str()).any(|c| {
        c.trim()
            .strip_suffix("hook")
            .map(|rest| rest.trim_end().trim_end_matches(['\'', '"']))
            .is_some_and(|program| program.ends_with("agent-lsp") && program.len() < c.trim().len())
    })
}

/// Whether `agent-lsp` is on PATH (the plugin runs it from there), and if not, how to put it.
fn plugin_on_path(ask: &Ask) -> String {
    match &ask.on_path {
        Some((p, true)) => format!(
            "The plugin runs `agent-lsp` from PATH: {} is this binary\n",
            p.display()
        ),
        Some((p, false)) => format!(
            "The plugin runs `agent-lsp` from PATH: that is {}, not this binary\n",
            p.display()
        ),
        None => format!(
            "The plugin runs `agent-lsp` from PATH, and it is not there; link this binary into a \
             PATH directory:\n  ln -s {} ~/.local/bin/agent-lsp\nor install it: cargo install --path {}\n",
            sh_quote(ask.exe),
            ask.clone_shown
        ),
    }
}

/// The steps of `setup claude`.
pub fn steps(ask: &Ask) -> Result<Vec<Step>, String> {
    if ask.global && (ask.env)("CLAUDE_CONFIG_DIR").is_some() {
        return Err(
            "--global: CLAUDE_CONFIG_DIR is set, which moves Claude Code's user configuration; add the MCP \
             server with `claude mcp add --scope user agent-lsp -- agent-lsp mcp` instead"
                .to_string(),
        );
    }
    let mut out = Vec::new();
    let plugin_dir = match ask.clone {
        Some(c) => sh_quote(&c.join("editors").join("claude-code").display().to_string()),
        None => "<agent-lsp clone>/editors/claude-code".to_string(),
    };
    out.push(Step::Say(format!(
        "\nLanguage server: the agent-lsp plugin (editors/claude-code)\n  \
         claude plugin marketplace add {}\n  \
         claude plugin install agent-lsp@agent-lsp\n\
         or for one session:\n  \
         claude --plugin-dir {plugin_dir}\n",
        ask.clone_shown
    )));
    out.push(Step::Say(plugin_on_path(ask)));
    let (path, shown_mcp) = if ask.global {
        let p = ask.home()?.join(".claude.json");
        let s = p.display().to_string();
        (p, s)
    } else {
        (ask.root.join(".mcp.json"), ask.shown(".mcp.json"))
    };
    out.push(Step::Say(
        "\nMCP server (the plugin declares it too: this is for a project without the plugin):\n".to_string(),
    ));
    let after = if ask.global {
        "Claude Code starts the MCP server `agent-lsp` in every project from its next session\n"
    } else {
        "Claude Code asks to approve the project's MCP server `agent-lsp` when it next starts here \
         (approved servers are listed in `enabledMcpjsonServers`)\n"
    };
    let merge_it = format!("agent-lsp setup claude --write{}", ask.again);
    out.push(Step::File(File {
        syntax: crate::analysis::setup::Syntax::Jsonc,
        path,
        shown: shown_mcp,
        initial: "{}\n".to_string(),
        analyse: false,
        wants: vec![ask.stdio_server("mcpServers", &["mcp"])],
        after_change: after.to_string(),
        merge_it: merge_it.clone(),
    }));
    if !ask.write {
        out.push(Step::Say(format!(
            "or, for you only:\n  claude mcp add{} agent-lsp -- {}\n",
            if ask.global { " --scope user" } else { "" },
            ask.shell(&["mcp"])
        )));
    }
    let (settings, shown_settings) = if ask.global {
        let p = ask.home()?.join(".claude").join("settings.json");
        let s = p.display().to_string();
        (p, s)
    } else {
        (
            ask.root.join(".claude").join("settings.json"),
            ask.shown(".claude/settings.json"),
        )
    };
    if !ask.hook {
        if !ask.write {
            out.push(Step::Say(format!(
                "\nHook (the plugin declares it too): a PostToolUse hook that hands the findings on a \
                 file Claude Code writes to the model in the same turn: agent-lsp setup claude --hook{}\n",
                ask.again
            )));
        }
        return Ok(out);
    }
    out.push(Step::Say(format!(
        "\nHook (the plugin declares it too: with the plugin, it would run twice): `{}` after each \
         {}, which hands the findings on the file written to the model in the same turn:\n",
        ask.shell(&["hook"]),
        HOOK_MATCHER.replace('|', ", ")
    )));
    out.push(Step::File(File {
        syntax: crate::analysis::setup::Syntax::Jsonc,
        path: settings,
        shown: shown_settings,
        initial: "{}\n".to_string(),
        analyse: true,
        wants: vec![hook_want(ask)],
        after_change: "Claude Code runs it from its next session\n".to_string(),
        merge_it,
    }));
    Ok(out)
}
