---@brief
---
--- agent-lsp: diagnostics and hover for opencode agent files
--- (`.opencode/agents/**/*.md`, `.opencode/{mode,modes}/*.md`) and `opencode.json(c)`.
---
--- Install the server with `cargo install --path .` in the agent-lsp repository, then:
---
--- ```lua
--- vim.lsp.enable('agent_lsp')
--- ```
---
--- Settings (`settings.agentLsp`, also accepted as `init_options`):
---
--- ```lua
--- vim.lsp.config('agent_lsp', {
---   settings = {
---     agentLsp = {
---       severity = { ['broad-pattern'] = 'off', ['unknown-key'] = 'error' },
---       globalConfig = true, -- false, or a directory to read instead of ~/.config/opencode
---       logLevel = 'info',
---     },
---   },
--- })
--- ```
---
--- The server only reports on opencode files (and on Markdown files outside an opencode
--- directory only when they start with a YAML frontmatter); see editors/neovim/README.md for a
--- `root_dir` that attaches to opencode files only.

---@type vim.lsp.Config
return {
  cmd = { 'agent-lsp', 'serve' },
  filetypes = { 'markdown', 'json', 'jsonc' },
  root_markers = { 'opencode.json', 'opencode.jsonc', '.opencode', '.git' },
  settings = {
    agentLsp = {},
  },
}
