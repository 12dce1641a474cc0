-- wrk script: save new versions. Each wrk thread owns $PER_THREAD templates (ids from
-- $FIRST_ID on, one block per thread) and never has two saves in flight on one template, so
-- every save is on the current head: this measures real saves, not 409s.
-- $CONFIG_FILE holds the config text already JSON-escaped (with its quotes).
local counter = 0
function setup(thread)
  thread:set("first", tonumber(os.getenv("FIRST_ID")) + counter * tonumber(os.getenv("PER_THREAD")))
  counter = counter + 1
end

local free, base, config, token, per
function init(args)
  per = tonumber(os.getenv("PER_THREAD"))
  token = os.getenv("TOKEN")
  local f = assert(io.open(os.getenv("CONFIG_FILE"), "r"))
  config = f:read("*a")
  f:close()
  free, base = {}, {}
  for i = 0, per - 1 do
    free[#free + 1] = first + i
    base[first + i] = 1
  end
end

function request()
  local t = table.remove(free)
  if t == nil then t = first end -- cannot happen while per > connections per thread
  local body = '{"config_text":' .. config .. ',"message":"bench","base_version":' .. base[t] .. '}'
  return wrk.format("POST", "/api/v1/templates/" .. t .. "/versions",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end

function response(status, headers, body)
  local t = tonumber(string.match(body, '"template_id":(%d+)'))
  local v = tonumber(string.match(body, '"version":(%d+)'))
  if t ~= nil and v ~= nil then
    base[t] = v
    free[#free + 1] = t
  end
end
