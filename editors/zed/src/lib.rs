//! Zed extension for agent-lsp: registers the `agent-lsp` language server for Markdown, JSON
//! and JSONC and starts `agent-lsp serve` (which reports on opencode, Claude Code, Zuno and GitHub
//! Copilot agent files and configs only). The binary comes from `lsp.agent-lsp.binary.path` in
//! Zed's settings, else from `PATH`; `initialization_options` and `settings` (the `agentLsp`
//! section) are passed through.

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result};

struct AgentLspExtension;

fn lsp_settings(id: &LanguageServerId, worktree: &zed::Worktree) -> LspSettings {
    LspSettings::for_worktree(id.as_ref(), worktree).unwrap_or_default()
}

impl zed::Extension for AgentLspExtension {
    fn new() -> Self {
        AgentLspExtension
    }

    fn language_server_command(&mut self, id: &LanguageServerId, worktree: &zed::Worktree) -> Result<zed::Command> {
        let binary = lsp_settings(id, worktree).binary;
        let not_found = || {
            "agent-lsp was not found on PATH: install it (`cargo install --path .` in the agent-lsp repository) \
             or set lsp.agent-lsp.binary.path in Zed's settings"
                .to_string()
        };
        let command = match binary.as_ref().and_then(|b| b.path.clone()) {
            // A bare name is looked up on the PATH of the worktree's shell.
            Some(name) if !name.contains(['/', '\\']) => worktree.which(&name).unwrap_or(name),
            Some(path) => path,
            None => worktree.which("agent-lsp").ok_or_else(not_found)?,
        };
        let args = binary
            .as_ref()
            .and_then(|b| b.arguments.clone())
            .unwrap_or_else(|| vec!["serve".to_string()]);
        let mut env = worktree.shell_env();
        if let Some(extra) = binary.and_then(|b| b.env) {
            env.extend(extra);
        }
        Ok(zed::Command { command, args, env })
    }

    fn language_server_initialization_options(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(lsp_settings(id, worktree).initialization_options)
    }

    fn language_server_workspace_configuration(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(lsp_settings(id, worktree).settings)
    }
}

zed::register_extension!(AgentLspExtension);
