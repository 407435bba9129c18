-- Headless Neovim (0.11+) end-to-end test of agent-lsp through a real LSP client, using the
-- repository's own editors/neovim/lsp/agent_lsp.lua. Run it through tests/nvim/run.sh, which
-- sets AGENT_LSP_REPO, AGENT_LSP_BIN and AGENT_LSP_WS (a copy of test-workspace/) and starts
-- Neovim in that copy. With AGENT_LSP_NPM=1 the config's own `cmd` is kept: the workspace's
-- node_modules/.bin/agent-lsp (a link to AGENT_LSP_BIN made by run.sh) must be the server, with
-- no agent-lsp on PATH.

local repo = assert(os.getenv('AGENT_LSP_REPO'), 'AGENT_LSP_REPO is not set (use tests/nvim/run.sh)')
local bin = assert(os.getenv('AGENT_LSP_BIN'), 'AGENT_LSP_BIN is not set (use tests/nvim/run.sh)')
local ws = assert(os.getenv('AGENT_LSP_WS'), 'AGENT_LSP_WS is not set (use tests/nvim/run.sh)')
local npm = os.getenv('AGENT_LSP_NPM') == '1'
local timeout = tonumber(os.getenv('AGENT_LSP_TIMEOUT_MS') or '') or 20000

vim.o.swapfile = false
vim.o.shadafile = 'NONE'
vim.lsp.log.set_level(vim.log.levels.WARN)

-- The repository's config, found on 'runtimepath' exactly as a user's would be.
vim.opt.runtimepath:prepend(repo .. '/editors/neovim')
-- Only the binary under test, and no global opencode configuration from this machine.
local test_settings = { agentLsp = { globalConfig = false } }
vim.lsp.config('agent_lsp', {
  -- nil (npm mode): the repository config's cmd function.
  cmd = not npm and { bin, 'serve' } or nil,
  init_options = test_settings,
  settings = test_settings,
})
vim.lsp.enable('agent_lsp')

local passed, failed = 0, 0

local function out(line)
  io.stdout:write(line .. '\n')
end

--- Run one check; `fn` returns nothing on success or raises/returns an error message.
local function check(name, fn)
  local ok, err = pcall(fn)
  if ok and err == nil then
    passed = passed + 1
    out('PASS ' .. name)
  elseif ok and err == 'skip' then
    -- counted neither way
  else
    failed = failed + 1
    out('FAIL ' .. name .. ': ' .. tostring(err))
  end
end

local function open(rel)
  vim.cmd.edit(vim.fn.fnameescape(ws .. '/' .. rel))
  return vim.api.nvim_get_current_buf()
end

--- The agent_lsp client attached to `buf`, waiting for it to attach and initialize.
local function client_for(buf)
  local client
  vim.wait(timeout, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'agent_lsp' })[1]
    return client ~= nil and client.initialized == true
  end, 20)
  assert(client, 'no agent_lsp client attached to ' .. vim.api.nvim_buf_get_name(buf))
  assert(client.initialized, 'the agent_lsp client never finished initialize')
  return client
end

--- The diagnostic with `code` on 0-based `row`, waiting for it to be published.
local function wait_diagnostic(buf, client, code, row)
  local ns = vim.lsp.diagnostic.get_namespace(client.id)
  local found
  vim.wait(timeout, function()
    for _, d in ipairs(vim.diagnostic.get(buf, { namespace = ns })) do
      local c = d.code or vim.tbl_get(d, 'user_data', 'lsp', 'code')
      if c == code and d.lnum == row then
        found = d
        return true
      end
    end
    return false
  end, 20)
  if not found then
    local got = {}
    for _, d in ipairs(vim.diagnostic.get(buf, { namespace = ns })) do
      got[#got + 1] = string.format('%s@%d:%d', tostring(d.code), d.lnum, d.col)
    end
    error(string.format('no %s diagnostic on row %d; got [%s]', code, row, table.concat(got, ', ')), 0)
  end
  return found
end

--- Every agent_lsp diagnostic of `buf` as `code@row:col-end_col severity "covered text"`, sorted,
--- once the one with `code` on 0-based `row` has arrived (a publish carries a file's full set).
local function all_diagnostics(buf, client, code, row)
  wait_diagnostic(buf, client, code, row)
  local ns = vim.lsp.diagnostic.get_namespace(client.id)
  local severities = { 'E', 'W', 'I', 'H' }
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf, { namespace = ns })) do
    assert(d.end_lnum == d.lnum, 'diagnostic spans several lines')
    local line = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, true)[1]
    local c = d.code or vim.tbl_get(d, 'user_data', 'lsp', 'code')
    out[#out + 1] = string.format(
      '%s@%d:%d-%d %s %q',
      tostring(c),
      d.lnum,
      d.col,
      d.end_col,
      severities[d.severity] or '?',
      line:sub(d.col + 1, d.end_col)
    )
  end
  table.sort(out)
  return out
end

--- The text a diagnostic covers (it must lie on one line).
local function covered(buf, d)
  assert(d.end_lnum == d.lnum, 'diagnostic spans several lines')
  local line = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, true)[1]
  return line:sub(d.col + 1, d.end_col)
end

local function expect_eq(what, want, got)
  if not vim.deep_equal(want, got) then
    error(string.format('%s: expected %s, got %s', what, vim.inspect(want), vim.inspect(got)), 0)
  end
end

--- 0-based column of the first occurrence of `needle` on 0-based `row` (plain find).
local function col_of(buf, row, needle)
  local line = vim.api.nvim_buf_get_lines(buf, row, row + 1, true)[1]
  local s = line:find(needle, 1, true)
  assert(s, string.format('%q not found on row %d: %q', needle, row, line))
  return s - 1
end

local function request(buf, client, method, row, col)
  vim.api.nvim_win_set_cursor(0, { row + 1, col })
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local responses, err = vim.lsp.buf_request_sync(buf, method, params, timeout)
  assert(responses, method .. ' failed: ' .. tostring(err))
  local r = responses[client.id]
  assert(r, method .. ': no response from agent_lsp')
  assert(not r.err, method .. ' returned an error: ' .. vim.inspect(r.err))
  return r.result
end

local function run()
  check('config: lsp/agent_lsp.lua is loaded from the repository', function()
    local files = vim.api.nvim_get_runtime_file('lsp/agent_lsp.lua', true)
    local want = vim.fs.normalize(repo .. '/editors/neovim/lsp/agent_lsp.lua')
    expect_eq('first lsp/agent_lsp.lua on runtimepath', want, files[1] and vim.fs.normalize(files[1]))
    local cfg = vim.lsp.config.agent_lsp
    expect_eq('filetypes', { 'markdown', 'json', 'jsonc', 'toml' }, cfg.filetypes)
    expect_eq(
      'root_markers',
      { 'opencode.json', 'opencode.jsonc', '.opencode', 'zuno.json', 'zuno.jsonc', '.git' },
      cfg.root_markers
    )
    if npm then
      expect_eq('type(cmd)', 'function', type(cfg.cmd))
    else
      expect_eq('cmd[2]', 'serve', cfg.cmd[2])
    end
  end)

  -- (a) Diagnostics on the right lines and columns.
  local md = open('.opencode/agents/bad-mode.md')
  local client
  check('attach: agent_lsp attaches to .opencode/agents/bad-mode.md with root at the workspace', function()
    client = client_for(md)
    expect_eq('root_dir', vim.fs.normalize(ws), vim.fs.normalize(client.root_dir or ''))
    expect_eq('position encoding', 'utf-8', client.offset_encoding)
  end)
  if not client then
    return
  end
  if npm then
    check('npm: the server is the project\'s node_modules/.bin/agent-lsp (none on PATH)', function()
      expect_eq('agent-lsp on PATH', 0, vim.fn.executable('agent-lsp'))
      local want = vim.fs.joinpath(ws, 'node_modules', '.bin', 'agent-lsp')
      local servers = {}
      for _, file in ipairs(vim.fn.glob('/proc/[0-9]*/cmdline', false, true)) do
        local f = io.open(file, 'rb')
        if f then
          local argv = vim.split(f:read('*a') or '', '\0', { plain = true })
          f:close()
          if argv[2] == 'serve' and vim.fs.basename(argv[1]) == 'agent-lsp' then
            table.insert(servers, argv[1])
          end
        end
      end
      assert(vim.tbl_contains(servers, want), 'no `' .. want .. ' serve` process; agent-lsp servers: ' .. vim.inspect(servers))
    end)
  end

  check('diagnostics: invalid-value on `mode: main` (bad-mode.md line 3)', function()
    local d = wait_diagnostic(md, client, 'invalid-value', 2)
    expect_eq('covered text', 'main', covered(md, d))
    expect_eq('severity', vim.diagnostic.severity.ERROR, d.severity)
  end)

  local json = open('opencode.json')
  check('diagnostics: opencode.json unknown-key, unknown-agent (after CJK and emoji), missing-template', function()
    expect_eq('same client for opencode.json', client.id, client_for(json).id)
    local d = wait_diagnostic(json, client, 'unknown-key', 5)
    expect_eq('unknown-key covers', '"instruction"', covered(json, d))
    expect_eq('unknown-key severity', vim.diagnostic.severity.WARN, d.severity)
    d = wait_diagnostic(json, client, 'unknown-agent', 65)
    expect_eq('unknown-agent covers', '"triager"', covered(json, d))
    d = wait_diagnostic(json, client, 'missing-template', 66)
    expect_eq('missing-template covers', '"release-notes"', covered(json, d))
    expect_eq('missing-template severity', vim.diagnostic.severity.ERROR, d.severity)
  end)

  -- (b) Hover on the default_agent value shows the effective agent with its permissions.
  check('hover: default_agent "planner" in opencode.json shows the agent card with **Permissions**', function()
    local row = 4
    local line = vim.api.nvim_buf_get_lines(json, row, row + 1, true)[1]
    assert(line:find('"default_agent"', 1, true), 'row 4 is not default_agent: ' .. line)
    local result = request(json, client, 'textDocument/hover', row, col_of(json, row, 'planner') + 2)
    assert(result and result.contents, 'empty hover')
    local contents = result.contents
    local value = type(contents) == 'table' and (contents.value or vim.inspect(contents)) or tostring(contents)
    expect_eq('hover kind', 'markdown', contents.kind)
    assert(value:find('**Permissions**', 1, true), 'no **Permissions** in hover:\n' .. value)
    assert(value:find('planner', 1, true), 'hover does not name the agent:\n' .. value)
    -- Decision first: the permissions summary comes before the settings table.
    local perms = value:find('**Permissions**', 1, true)
    local settings = value:find('| setting |', 1, true)
    assert(settings and perms < settings, 'the permissions do not lead the hover:\n' .. value)
  end)

  -- (d) Claude Code agents: a project agent in `.claude/agents/` and a plugin agent, through
  -- the same client (one root: the workspace).
  local tools = open('.claude/agents/bad-tools.md')
  check('attach: agent_lsp attaches to .claude/agents/bad-tools.md with the same client', function()
    expect_eq('same client for a Claude Code agent', client.id, client_for(tools).id)
  end)

  check('diagnostics: every diagnostic of .claude/agents/bad-tools.md, with its position', function()
    local row = 3
    expect_eq(
      'bad-tools.md line 4',
      'tools: Read, grep, LS, Bash(pnpm lint:*), Task, Agent(test-runner), Agent(code-reviewer), Agent(triager)',
      vim.api.nvim_buf_get_lines(tools, row, row + 1, true)[1]
    )
    expect_eq('diagnostics', {
      'deprecated-field@3:42-46 W "Task"',
      'duplicate-agent@1:6-11 W "fixer"',
      'ignored-specifier@3:23-40 W "Bash(pnpm lint:*)"',
      -- One cause, one finding: the entries it replaces are faded hints of it.
      'shadowed-rule@3:48-66 H "Agent(test-runner)"',
      'shadowed-rule@3:68-88 H "Agent(code-reviewer)"',
      'shadowed-rule@3:90-104 W "Agent(triager)"',
      'unknown-agent@3:96-103 W "triager"',
      'unknown-tool@3:13-17 W "grep"',
      'unknown-tool@3:19-21 W "LS"',
    }, all_diagnostics(tools, client, 'unknown-agent', row))
  end)

  check('diagnostics: invalid-name on `name: team:reviewer` (.claude/agents/bad-name.md)', function()
    local buf = open('.claude/agents/bad-name.md')
    expect_eq('diagnostics', { 'invalid-name@1:6-19 E "team:reviewer"' }, all_diagnostics(buf, client, 'invalid-name', 1))
  end)

  check('diagnostics: ignored-field on a plugin agent\'s `permissionMode` (plugins/release-tools)', function()
    local buf = open('plugins/release-tools/agents/releaser.md')
    expect_eq('same client for a plugin agent', client.id, client_for(buf).id)
    expect_eq(
      'diagnostics',
      { 'ignored-field@3:0-14 W "permissionMode"' },
      all_diagnostics(buf, client, 'ignored-field', 3)
    )
  end)

  check('hover: `Agent(test-runner)` in bad-tools.md shows the Claude Code agent card', function()
    vim.api.nvim_set_current_buf(tools)
    local row = 3
    local result = request(tools, client, 'textDocument/hover', row, col_of(tools, row, 'test-runner') + 2)
    assert(result and result.contents, 'empty hover')
    local value = result.contents.value or vim.inspect(result.contents)
    expect_eq('hover kind', 'markdown', result.contents.kind)
    local first = value:match('^[^\n]*')
    expect_eq('first line', '### `test-runner`: Claude Code agent', first)
    assert(value:find('- **tools**: `Read`, `Bash`, `Agent(code-reviewer, Explore)`, `mcp__github__get_pull_request`\n', 1, true), 'no tools line in hover:\n' .. value)
    assert(value:find('Defined in .claude/agents/test-runner.md:2 (project).', 1, true), 'no definition line in hover:\n' .. value)
    expect_eq('hover range', {
      start = { line = row, character = col_of(tools, row, 'test-runner') },
      ['end'] = { line = row, character = col_of(tools, row, 'test-runner') + #'test-runner' },
    }, result.range)
  end)

  -- (e) Zuno: `zuno.json` and the Markdown agents of `.zuno/agents/`, through the same client.
  local zuno = open('zuno.json')
  check('attach: agent_lsp attaches to zuno.json with the same client', function()
    expect_eq('same client for zuno.json', client.id, client_for(zuno).id)
  end)

  check('diagnostics: duplicate-agent on `name: docs` (.zuno/agents/docs-copy.md)', function()
    local buf = open('.zuno/agents/docs-copy.md')
    expect_eq('same client for a Zuno agent', client.id, client_for(buf).id)
    expect_eq(
      'diagnostics',
      { 'duplicate-agent@1:6-10 W "docs"' },
      all_diagnostics(buf, client, 'duplicate-agent', 1)
    )
  end)

  check('diagnostics: deprecated-field on an agent in `.zuno/mode/` (focus.md)', function()
    local buf = open('.zuno/mode/focus.md')
    expect_eq('diagnostics', { 'deprecated-field@0:0-3 E "---"' }, all_diagnostics(buf, client, 'deprecated-field', 0))
  end)

  check('hover: the `delegates` entry "docs" in zuno.json shows the merged Zuno agent', function()
    vim.api.nvim_set_current_buf(zuno)
    local row = 8
    local line = vim.api.nvim_buf_get_lines(zuno, row, row + 1, true)[1]
    expect_eq('zuno.json line 9', '      "delegates": ["reviewer", "docs", "fixer"],', line)
    local col = col_of(zuno, row, '"docs"')
    local result = request(zuno, client, 'textDocument/hover', row, col + 2)
    assert(result and result.contents, 'empty hover')
    local value = result.contents.value or vim.inspect(result.contents)
    expect_eq('hover kind', 'markdown', result.contents.kind)
    expect_eq('first line', '### `docs`: Zuno subagent', value:match('^[^\n]*'))
    assert(value:find('- **requiredSkills**: `codemap` (.zuno/agents/docs.md:1)\n', 1, true), 'no requiredSkills line in hover:\n' .. value)
    assert(value:find('- `edit` `docs/*` → allow\n', 1, true), 'no permission rule in hover:\n' .. value)
    expect_eq('hover range', {
      start = { line = row, character = col },
      ['end'] = { line = row, character = col + #'"docs"' },
    }, result.range)
  end)

  check('definition: the `delegates` entry "docs" goes to both Markdown agents named `docs`', function()
    vim.api.nvim_set_current_buf(zuno)
    local row = 8
    local result = request(zuno, client, 'textDocument/definition', row, col_of(zuno, row, '"docs"') + 2)
    local got = {}
    for _, l in ipairs(result or {}) do
      local path = vim.fs.normalize(vim.uri_to_fname(l.uri))
      got[#got + 1] = string.format(
        '%s@%d:%d-%d',
        path:sub(#vim.fs.normalize(ws) + 2),
        l.range.start.line,
        l.range.start.character,
        l.range['end'].character
      )
    end
    expect_eq('definitions', { '.zuno/agents/docs-copy.md@1:6-10', '.zuno/agents/docs.md@0:0-3' }, got)
  end)

  check('completion: `"reasoning": "` in zuno.json offers the levels in their order', function()
    vim.api.nvim_set_current_buf(zuno)
    local row = 22
    local original = vim.api.nvim_buf_get_lines(zuno, row, row + 1, true)[1]
    expect_eq('zuno.json line 23', '      "reasoning": "high",', original)
    local typed = '      "reasoning": "'
    vim.api.nvim_buf_set_lines(zuno, row, row + 1, true, { typed })
    local ok, result = pcall(request, zuno, client, 'textDocument/completion', row, #typed)
    vim.api.nvim_buf_set_lines(zuno, row, row + 1, true, { original })
    assert(ok, result)
    local labels = {}
    for _, item in ipairs(result and (result.items or result) or {}) do
      labels[#labels + 1] = item.label
    end
    expect_eq('labels', { 'off', 'low', 'medium', 'high', 'xhigh', 'max' }, labels)
  end)

  -- (c) Completion after `mode: ` (only when the server advertises completion).
  check('completion: `mode: ` offers subagent', function()
    if not client.server_capabilities.completionProvider then
      out('SKIP completion: server has no completionProvider')
      return 'skip'
    end
    vim.api.nvim_set_current_buf(md)
    local row = 2
    local original = vim.api.nvim_buf_get_lines(md, row, row + 1, true)[1]
    expect_eq('bad-mode.md line 3', 'mode: main', original)
    vim.api.nvim_buf_set_lines(md, row, row + 1, true, { 'mode: ' })
    local ok, result = pcall(request, md, client, 'textDocument/completion', row, #'mode: ')
    vim.api.nvim_buf_set_lines(md, row, row + 1, true, { original })
    assert(ok, result)
    assert(result, 'no completion result')
    local items = result.items or result
    local labels = {}
    for _, item in ipairs(items) do
      local text = item.label
      labels[#labels + 1] = text
      if text == 'subagent' or (item.textEdit and item.textEdit.newText == 'subagent') or item.insertText == 'subagent' then
        return
      end
    end
    error('subagent not offered; got [' .. table.concat(labels, ', ') .. ']', 0)
  end)
end

local function finish()
  out(string.format('%d passed, %d failed', passed, failed))
  if failed > 0 then
    local log = vim.lsp.log.get_filename()
    if vim.uv.fs_stat(log) then
      out('--- tail of ' .. log)
      local lines = vim.fn.readfile(log)
      for i = math.max(1, #lines - 40), #lines do
        out(lines[i])
      end
    end
  end
  for _, c in ipairs(vim.lsp.get_clients()) do
    c:stop()
  end
  vim.wait(2000, function()
    return #vim.lsp.get_clients() == 0
  end, 20)
  vim.cmd('cquit ' .. (failed > 0 and 1 or 0))
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  nested = true, -- so that :edit fires FileType, which vim.lsp.enable() attaches on
  callback = function()
    local ok, err = xpcall(run, debug.traceback)
    if not ok then
      failed = failed + 1
      out('FAIL test script error: ' .. tostring(err))
    end
    finish()
  end,
})
