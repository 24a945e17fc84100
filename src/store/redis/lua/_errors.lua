--[[
  The scripts' own failures (included by every script, "--- @include _errors"): an error reply
  "DOPPEL_<REASON> <script>: <what>", which the client maps to its error codes
  (src/store/redis/errors.ts, SCRIPT_FAILURES). Checked before anything is written. Reasons:
    ARGS   the arguments do not have the script's layout (a client of another version, a bug)
  Redis' own errors (WRONGTYPE, OOM, ...) pass through as they are and are mapped there too.
]]
local function fail(reason, script, what)
  return redis.error_reply('DOPPEL_' .. reason .. ' ' .. script .. ': ' .. what)
end
