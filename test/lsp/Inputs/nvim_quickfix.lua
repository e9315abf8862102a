-- Neovim's own LSP client against warplint-lsp, as a user meets it: the
-- buffer (already loaded: nvim <file> -c 'luafile this') gets the server's
-- diagnostics, the quick fix is chosen through vim.lsp.buf.code_action() at
-- the finding, :write saves the result. Every step waits with vim.wait and a
-- deadline; any failure (an assertion or a Lua error) exits with :cquit, so
-- the exit status fails the test. Works with Neovim 0.7 (Debian bookworm)
-- and later: vim.lsp.start_client + buf_attach_client, vim.diagnostic.
--
-- Environment: WARPLINT_LSP (the server), WARPLINT_LSP_DIR (its
-- --compile-commands-dir).

local function out(fmt, ...)
  io.stdout:write(string.format(fmt, ...) .. '\n')
  io.stdout:flush()
end

local function fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end

local client_id -- while it runs, a server that exits is a failure

-- vim.wait(ms, cond) or a failure naming what did not happen.
local function wait_for(what, cond)
  local gone = false
  local ok = vim.wait(60000, function()
    gone = client_id ~= nil and vim.lsp.get_client_by_id(client_id) == nil
    return gone or cond()
  end, 20)
  if gone then
    fail('the server exited while waiting for %s', what)
  elseif not ok then
    fail('timed out waiting for %s', what)
  end
end

local function diagnostics_by_code(bufnr)
  local by = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    by[d.code or '?'] = d
  end
  return by
end

local function main()
  local bufnr = vim.api.nvim_get_current_buf()
  local path = vim.api.nvim_buf_get_name(bufnr)
  vim.bo[bufnr].filetype = 'cuda'
  client_id = vim.lsp.start_client({
    name = 'warplint',
    cmd = { vim.env.WARPLINT_LSP, '--compile-commands-dir=' .. vim.env.WARPLINT_LSP_DIR,
            '--debounce-ms=50' },
    root_dir = vim.env.WARPLINT_LSP_DIR,
  })
  if not client_id then
    fail('the server did not start')
  end
  if not vim.lsp.buf_attach_client(bufnr, client_id) then
    fail('the buffer was not attached')
  end

  -- The diagnostics of the opened buffer.
  wait_for('the diagnostics of the opened buffer', function()
    return diagnostics_by_code(bufnr)['warp-legacy-intrinsic'] ~= nil
  end)
  local diags = vim.diagnostic.get(bufnr)
  table.sort(diags, function(a, b) return a.lnum < b.lnum end)
  for _, d in ipairs(diags) do
    -- lnum/col are Neovim's: 0-based, col in bytes (the server's UTF-16
    -- position converted by the client).
    out('diagnostic %d:%d severity=%d source=%s [%s] %s', d.lnum + 1, d.col + 1,
        d.severity, d.source, d.code, d.message)
  end
  local legacy = diagnostics_by_code(bufnr)['warp-legacy-intrinsic']
  local line = vim.api.nvim_buf_get_lines(bufnr, legacy.lnum, legacy.lnum + 1, true)[1]
  local byte = line:find('__shfl_down', 1, true)
  if legacy.col ~= byte - 1 then
    fail('the diagnostic starts at byte %d of its line, the call at byte %d',
         legacy.col, byte - 1)
  end

  -- The quick fix, chosen as a user would: cursor on the finding,
  -- code_action(), the fix picked from the menu (vim.ui.select).
  vim.api.nvim_win_set_cursor(0, { legacy.lnum + 1, legacy.col })
  local offered = false
  vim.ui.select = function(items, opts, on_choice)
    offered = true
    local chosen
    for _, item in ipairs(items) do
      local action = item[2] or item.action -- 0.7: {client_id, action}
      out('action %q preferred=%s', action.title, tostring(action.isPreferred == true))
      if action.isPreferred then
        chosen = item
      end
    end
    on_choice(chosen)
  end
  vim.lsp.buf.code_action()
  wait_for('the code actions', function() return offered end)
  wait_for('the fix in the buffer', function()
    local now = vim.api.nvim_buf_get_lines(bufnr, legacy.lnum, legacy.lnum + 1, true)[1]
    return now:find('__shfl_down_sync(', 1, true) ~= nil
  end)
  vim.cmd('write')
  local f = assert(io.open(path, 'r'))
  local saved = f:read('*a')
  f:close()
  if not saved:find('__shfl_down_sync(0xffffffff, x, 16)', 1, true) then
    fail('the saved file lacks the fix:\n%s', saved)
  end
  out('saved')

  -- The server re-analyses the fixed buffer: the finding is gone, the other
  -- stays.
  wait_for('the diagnostics of the fixed buffer', function()
    local by = diagnostics_by_code(bufnr)
    return by['warp-legacy-intrinsic'] == nil and by['divergence-barrier'] ~= nil
  end)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    out('after the fix: diagnostic %d:%d [%s]', d.lnum + 1, d.col + 1, d.code)
  end

  local stopping = client_id
  client_id = nil
  vim.lsp.stop_client(stopping)
  wait_for('the server to stop', function()
    return vim.lsp.get_client_by_id(stopping) == nil
  end)
  out('done')
end

local ok, err = pcall(main)
if ok then
  vim.cmd('qall!')
else
  io.stderr:write('nvim_quickfix.lua: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
