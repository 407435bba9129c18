---@brief
---
--- agent-lsp: diagnostics, hover, completion and navigation for opencode agent files
--- (`.opencode/agents/**/*.md`, `.opencode/{mode,modes}/*.md`), `opencode.json(c)`, `tui.json(c)`, Claude
--- Code agent files (`.claude/agents/**/*.md`, `~/.claude/agents/**/*.md`, and `agents/**/*.md`
--- of a plugin, a directory with `.claude-plugin/plugin.json`), and Zuno files (`zuno.json(c)`,
--- `.zuno/agents/**/*.md`, `~/.config/zuno/agents/**/*.md`); GitHub Copilot files
--- (`.github/agents/*.agent.md`, `.github/chatmodes/*.chatmode.md`, `.github/prompts/*.prompt.md`,
--- `.github/instructions/**/*.instructions.md`, `.github/copilot-instructions.md`,
--- `.vscode/mcp.json`); Codex files (`.codex/config.toml`, `.codex/agents/**/*.toml`); command files (`.opencode/commands/`, `.claude/commands/`,
--- `.zuno/commands/`) and `SKILL.md` files.
---
--- The project's own install comes first: `<root>/node_modules/.bin/agent-lsp` (where
--- `npm i -D agent-lsp` puts it; `agent-lsp.cmd` on Windows) when it exists, so the editor runs
--- the version the project pins; else `agent-lsp` on `PATH`. Set `cmd` to use another binary.
--- Otherwise install the server with `cargo install --path .` in the agent-lsp repository, then:
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

local root_markers = { 'opencode.json', 'opencode.jsonc', '.opencode', 'zuno.json', 'zuno.jsonc', '.git' }

--- `<root>/node_modules/.bin/agent-lsp` when it is executable, else `agent-lsp` (on PATH).
---@param root string?
---@return string
local function executable(root)
  if root then
    local name = vim.fn.has('win32') == 1 and 'agent-lsp.cmd' or 'agent-lsp'
    local project = vim.fs.joinpath(root, 'node_modules', '.bin', name)
    if vim.fn.executable(project) == 1 then
      return project
    end
  end
  return 'agent-lsp'
end

---@type vim.lsp.Config
return {
  -- A function, so that the binary is chosen per root. Neovim 0.11.3+ passes the client's config
  -- (with its root_dir) as the second argument; 0.11.0 to 0.11.2 do not: the root of the current
  -- buffer then.
  ---@param dispatchers vim.lsp.rpc.Dispatchers
  ---@param config vim.lsp.ClientConfig?
  cmd = function(dispatchers, config)
    local root = config and config.root_dir or vim.fs.root(0, root_markers)
    return vim.lsp.rpc.start({ executable(root), 'serve' }, dispatchers, {
      cwd = config and config.cmd_cwd,
      env = config and config.cmd_env,
      detached = config and config.detached,
    })
  end,
  filetypes = { 'markdown', 'json', 'jsonc', 'toml' },
  root_markers = root_markers,
  settings = {
    agentLsp = {},
  },
}
