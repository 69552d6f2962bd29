-- End-to-end test of `dotc lsp` with a real client: neovim, headless, no user config.
-- Run by tests/lsp_nvim.rs as
--   DOTC_BIN=... DOTC_FIXTURE=... nvim --headless -u NONE -n -c "luafile tests/nvim/e2e.lua"
-- It opens a broken scenario, waits for the server's diagnostics, checks the diagnostic's line
-- and code, asks for hover on a unit and for the definition of a weapon id, checks the answers,
-- and exits 0 on success or 1 with a message on stderr. Works on neovim 0.7 (Debian bookworm)
-- and later: `vim.lsp.start` where it exists, `vim.lsp.start_client` before it.

local function finish(code, message)
  if message then
    io.stderr:write(message .. "\n")
  end
  vim.cmd((code == 0) and "qall!" or "cquit! " .. code)
end

local function run()
  local bin = assert(os.getenv("DOTC_BIN"), "DOTC_BIN is not set")
  local file = assert(os.getenv("DOTC_FIXTURE"), "DOTC_FIXTURE is not set")
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local config = { name = "dotc", cmd = { bin, "lsp" }, root_dir = vim.fn.fnamemodify(file, ":p:h") }
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config, { bufnr = buf })
  else
    client_id = vim.lsp.start_client(config)
    if client_id then
      vim.lsp.buf_attach_client(buf, client_id)
    end
  end
  if not client_id then
    return "the dotc language server did not start"
  end

  -- Diagnostics arrive by themselves after didOpen.
  local arrived = vim.wait(30000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  if not arrived then
    return "no diagnostics within 30 s"
  end
  local diagnostics = vim.diagnostic.get(buf)
  if #diagnostics ~= 1 then
    return "expected 1 diagnostic, got " .. #diagnostics .. ": " .. vim.inspect(diagnostics)
  end
  local d = diagnostics[1]
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  -- Line 15 of the file (0-based 14), columns in UTF-16 units after `"1st Élan"`.
  if d.lnum ~= 14 or code ~= "dotc::unknown-weapon" then
    return "wrong diagnostic: " .. vim.inspect(d)
  end
  if not string.find(d.message, "rifled_musket", 1, true) then
    return "the diagnostic does not suggest the weapon: " .. d.message
  end

  local uri = vim.uri_from_bufnr(buf)
  local function ask(method, line, character)
    local params = { textDocument = { uri = uri }, position = { line = line, character = character } }
    local responses = vim.lsp.buf_request_sync(buf, method, params, 10000) or {}
    for _, response in pairs(responses) do
      if response.err then
        return nil, vim.inspect(response.err)
      end
      return response.result
    end
    return nil, "no response to " .. method
  end

  -- Hover on "2nd Test" (line 16): its profile.
  local hover, err = ask("textDocument/hover", 15, 23)
  if not hover then
    return "hover failed: " .. tostring(err)
  end
  local text = hover.contents and (hover.contents.value or hover.contents) or ""
  if type(text) ~= "string" or not string.find(text, "regiment", 1, true) or not string.find(text, "2nd Test", 1, true) then
    return "unexpected hover: " .. vim.inspect(hover)
  end

  -- Definition of `rifled_musket` on line 16: the stdlib's entry.
  local definition, err2 = ask("textDocument/definition", 15, 52)
  if not definition then
    return "definition failed: " .. tostring(err2)
  end
  local location = definition.uri and definition or definition[1]
  if not location or not string.find(location.uri, "small_arms.dotc", 1, true) then
    return "unexpected definition: " .. vim.inspect(definition)
  end
  return nil
end

local ok, failure = pcall(run)
if not ok then
  finish(1, "error: " .. tostring(failure))
elseif failure then
  finish(1, "failure: " .. failure)
else
  io.stdout:write("ok\n")
  finish(0)
end
