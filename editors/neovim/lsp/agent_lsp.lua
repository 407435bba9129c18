---@brief
---
--- agent-lsp: diagnostics, hover, completion and navigation for opencode agent files
--- (`.opencode/agents/**/*.md`, `.opencode/{mode,modes}/*.md`), `opencode.json(c)`, Claude
--- Code agent files (`.claude/agents/**/*.md`, `~/.claude/agents/**/*.md`, and `agents/**/*.md`
--- of a plugin, a directory with `.claude-plugin/plugin.json`), and Zuno files (`zuno.json(c)`,
--- `.zuno/agents/**/*.md`, `~/.config/zuno/agents/**/*.md`); command files
--- (`.opencode/commands/`, `.claude/commands/`, `.zuno/commands/`) and `SKILL.md` files.
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
--- The server only reports on these files (and on other Markdown files only when they
--- start with a YAML frontmatter and sit in an `agent(s)/` or `mode(s)/` folder); see
--- editors/neovim/README.md for a `root_dir` that attaches to agent files only. `.claude` and
--- `.zuno` are not root markers on purpose: `~/.claude` exists on most machines (and Zuno reads
--- a `~/.zuno`) and would make your home directory the root of every Markdown file outside a
--- project.

---@type vim.lsp.Config
return {
  cmd = { 'agent-lsp', 'serve' },
  filetypes = { 'markdown', 'json', 'jsonc' },
  root_markers = { 'opencode.json', 'opencode.jsonc', '.opencode', 'zuno.json', 'zuno.jsonc', '.git' },
  settings = {
    agentLsp = {},
  },
}
