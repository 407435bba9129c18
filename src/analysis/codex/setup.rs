//! `agent-lsp setup codex`: agent-lsp as an MCP server of Codex, a `[mcp_servers.agent-lsp]`
//! table in the project's `.codex/config.toml` (or with `--global` the user's
//! `$CODEX_HOME/config.toml`). Codex has no language-server client: the MCP server's tools
//! (`check`, `explain`, `decide`, ...) are how it gets agent-lsp's findings.

use std::path::PathBuf;

use crate::analysis::setup::{Ask, File, Step, Syntax};

/// What the help says `setup codex` writes.
pub const HELP: &str = "An `[mcp_servers.agent-lsp]` table in .codex/config.toml";

/// The steps of `setup codex`.
pub fn steps(ask: &Ask) -> Result<Vec<Step>, String> {
    if ask.hook {
        return Err(
            "--hook is for `setup claude`: for Codex, agent-lsp is an MCP server, whose `check` tool the model calls"
                .to_string(),
        );
    }
    let (path, shown) = if ask.global {
        // Codex's home: `$CODEX_HOME`, else `~/.codex`.
        let home = match (ask.env)("CODEX_HOME").filter(|h| !h.is_empty()) {
            Some(h) => PathBuf::from(h),
            None => ask.home()?.join(".codex"),
        };
        let p = home.join("config.toml");
        let s = p.display().to_string();
        (p, s)
    } else {
        (
            ask.root.join(".codex").join("config.toml"),
            ask.shown(".codex/config.toml"),
        )
    };
    let mut out = vec![Step::Say(if ask.global {
        "\nMCP server (Codex has no language-server client: the model calls the server's `check` tool):\n".to_string()
    } else {
        "\nMCP server (Codex has no language-server client: the model calls the server's `check` tool). \
         Codex reads a project's .codex/config.toml only once the project is trusted:\n"
            .to_string()
    })];
    let after = if ask.global {
        "Codex starts the MCP server `agent-lsp` from its next session, in every project (`codex mcp list` lists it)\n"
    } else {
        "Codex starts the MCP server `agent-lsp` from its next session in this project, once the project is trusted (`codex mcp list` lists it)\n"
    };
    // Held to agent-lsp's analysis where the path says what the file is (a `CODEX_HOME` not
    // named `.codex` does not, read alone).
    out.push(Step::File(File {
        syntax: Syntax::Toml,
        analyse: path.parent().and_then(|p| p.file_name()).is_some_and(|n| n == ".codex"),
        path,
        shown,
        initial: String::new(),
        wants: vec![ask.stdio_server("mcp_servers", &["mcp"])],
        after_change: after.to_string(),
        merge_it: format!("agent-lsp setup codex --write{}", ask.again),
    }));
    if !ask.write {
        out.push(Step::Say(format!(
            "{}\n  codex mcp add agent-lsp -- {}\n",
            if ask.global {
                "or let Codex write it:"
            } else {
                "or, for you only (in the user's config.toml):"
            },
            ask.shell(&["mcp"])
        )));
    }
    Ok(out)
}
