//! `agent-lsp setup gemini`: agent-lsp as an MCP server of Gemini CLI, an entry of
//! `mcpServers` in the project's `.gemini/settings.json` (or with `--global` the user's
//! `~/.gemini/settings.json`). Gemini CLI has no language-server client: the MCP server's tools
//! (`check`, `explain`, `decide`, ...) are how it gets agent-lsp's findings.

use std::path::PathBuf;

use crate::analysis::setup::{Ask, File, Step, Syntax};

/// What the help says `setup gemini` writes.
pub const HELP: &str = "An `mcpServers` entry in .gemini/settings.json";

/// The steps of `setup gemini`.
pub fn steps(ask: &Ask) -> Result<Vec<Step>, String> {
    if ask.hook {
        return Err(
            "--hook is for `setup claude`: for Gemini CLI, agent-lsp is an MCP server, whose `check` tool the model calls"
                .to_string(),
        );
    }
    let (path, shown) = if ask.global {
        // Gemini CLI's home: `$GEMINI_CLI_HOME`, else the user's home; its folder `.gemini`.
        let home = match (ask.env)("GEMINI_CLI_HOME").filter(|h| !h.is_empty()) {
            Some(h) => PathBuf::from(h),
            None => ask.home()?.to_path_buf(),
        };
        let p = home.join(".gemini").join("settings.json");
        let s = p.display().to_string();
        (p, s)
    } else {
        (
            ask.root.join(".gemini").join("settings.json"),
            ask.shown(".gemini/settings.json"),
        )
    };
    let mut out = vec![Step::Say(if ask.global {
        "\nMCP server (Gemini CLI has no language-server client: the model calls the server's `check` tool):\n"
            .to_string()
    } else {
        "\nMCP server (Gemini CLI has no language-server client: the model calls the server's `check` tool). \
         Gemini CLI applies a project's .gemini/settings.json only in a trusted folder:\n"
            .to_string()
    })];
    let after = if ask.global {
        "Gemini CLI starts the MCP server `agent-lsp` from its next session, in every trusted folder (`gemini mcp list` lists it)\n"
    } else {
        "Gemini CLI starts the MCP server `agent-lsp` from its next session in this project, once the folder is trusted (`gemini mcp list` lists it)\n"
    };
    out.push(Step::File(File {
        syntax: Syntax::Jsonc,
        analyse: true,
        path,
        shown,
        initial: "{}\n".to_string(),
        wants: vec![ask.stdio_server("mcpServers", &["mcp"])],
        after_change: after.to_string(),
        merge_it: format!("agent-lsp setup gemini --write{}", ask.again),
    }));
    if !ask.write {
        let line = ask.shell(&["mcp"]);
        let (command, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        out.push(Step::Say(format!(
            "or let Gemini CLI write it:\n  gemini mcp add{} agent-lsp {command} {rest}\n",
            if ask.global { " --scope user" } else { "" }
        )));
    }
    Ok(out)
}
