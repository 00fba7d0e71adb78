-- End-to-end run of `wfc lsp` in Neovim 0.7 (headless): open a file, wait
-- for its diagnostics, ask for hover, definition and code actions, and
-- write what came back as JSON for nvim_test.go to assert on.
-- Neovim 0.7 has no vim.lsp.start (0.8): start_client + buf_attach_client.
local root = os.getenv("WFC_ROOT")
local out = os.getenv("WFC_OUT")
local pos = vim.fn.json_decode(os.getenv("WFC_POS"))
local result = { errors = {} }

vim.cmd("edit " .. vim.fn.fnameescape(root .. "/flow.wf"))
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)

local id = vim.lsp.start_client({
  name = "wfc",
  cmd = { os.getenv("WFC_BIN"), "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "ws" } },
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, res, ctx, cfg)
      if res and res.uri == uri then
        result.diagnostics = res
      end
      vim.lsp.diagnostic.on_publish_diagnostics(err, res, ctx, cfg)
    end,
  },
})
if not id then
  result.errors[#result.errors + 1] = "start_client failed"
else
  vim.lsp.buf_attach_client(buf, id)
  vim.wait(20000, function() return result.diagnostics ~= nil end, 50)
  local client = vim.lsp.get_client_by_id(id)
  result.initialized = client ~= nil and client.initialized or false
  result.encoding = client and client.offset_encoding
  local function at(p)
    return { textDocument = { uri = uri }, position = { line = p[1], character = p[2] } }
  end
  local function ask(method, params, key)
    local r, err = client.request_sync(method, params, 10000, buf)
    if not r then
      result.errors[#result.errors + 1] = method .. ": " .. tostring(err)
    elseif r.err then
      result.errors[#result.errors + 1] = method .. ": " .. vim.inspect(r.err)
    else
      result[key] = r.result
    end
  end
  ask("textDocument/hover", at(pos.hover), "hover")
  ask("textDocument/definition", at(pos.definition), "definition")
  local diags = {}
  if result.diagnostics then diags = result.diagnostics.diagnostics end
  ask("textDocument/codeAction", {
    textDocument = { uri = uri },
    range = { start = { line = pos.action[1], character = pos.action[2] }, ["end"] = { line = pos.action[1], character = pos.action[2] } },
    context = { diagnostics = diags },
  }, "codeAction")
  client.stop()
  vim.wait(2000, function() return client.is_stopped() end, 50)
end

local f = io.open(out, "w")
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd("qa!")
