-- Neovim's built-in LSP client (Debian's neovim) drives `ds-studio lsp` on one config:
-- diagnostics, a hover, and a code action applied. Run headless by
-- e2e/tests/editor_lsp_nvim.test.mjs, which passes the inputs in the environment and checks
-- the JSON report this writes.
local env = vim.env
local bin, file, report = env.DS_STUDIO_BIN, env.DS_CONFIG, env.NVIM_REPORT
local hover_line, hover_col = tonumber(env.HOVER_LINE), tonumber(env.HOVER_COL)
local fix_line = tonumber(env.FIX_LINE)

local out = { errors = {} }
local function finish()
  local f = io.open(report, "w")
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd("qa!")
end

local function codes(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(list, { code = code, lnum = d.lnum, col = d.col, severity = d.severity, message = d.message })
  end
  return list
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = "ds-studio", cmd = { bin, "lsp" }, root_dir = vim.fn.fnamemodify(file, ":h") })
  vim.lsp.buf_attach_client(buf, id)
  out.attached = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  out.diagnostics = codes(buf)
  local uri = vim.uri_from_bufnr(buf)
  local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
    textDocument = { uri = uri },
    position = { line = hover_line, character = hover_col },
  }, 5000)
  for _, r in pairs(hover or {}) do
    if r.result and r.result.contents then out.hover = r.result.contents.value end
  end
  -- The fix of the diagnostic on FIX_LINE, applied through the client's own workspace edit.
  local target
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.lnum == fix_line - 1 then target = d break end
  end
  if target then
    local range = { start = { line = target.lnum, character = target.col }, ["end"] = { line = target.end_lnum or target.lnum, character = target.end_col or target.col } }
    local code = target.code or (target.user_data and target.user_data.lsp and target.user_data.lsp.code)
    local actions = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", {
      textDocument = { uri = uri },
      range = range,
      context = { diagnostics = { { range = range, message = target.message, code = code, severity = target.severity } } },
    }, 5000)
    for _, r in pairs(actions or {}) do
      for _, a in ipairs(r.result or {}) do
        if not out.action then
          out.action = a.title
          out.action_code = a.diagnostics and a.diagnostics[1] and a.diagnostics[1].code
          local before = #vim.diagnostic.get(buf)
          vim.lsp.util.apply_workspace_edit(a.edit, "utf-16")
          out.fixed_text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
          -- The change goes to the server; its new diagnostics come back.
          vim.wait(5000, function()
            local now = codes(buf)
            for _, d in ipairs(now) do if d.code == out.action_code and d.lnum == fix_line - 1 then return false end end
            return true
          end, 20)
          out.after = codes(buf)
          out.before_count = before
        end
      end
    end
  end
end)
if not ok then table.insert(out.errors, tostring(err)) end
finish()
