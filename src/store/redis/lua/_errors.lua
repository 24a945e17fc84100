--[[
  The scripts' own failures (included by every script, "--- @include _errors"): an error reply
  "DOPPEL_<REASON> <script>: <what>", which the client maps to its error codes
  (src/store/redis/errors.ts, SCRIPT_FAILURES). Checked before anything is written. Reasons:
    ARGS     the arguments do not have the script's layout (a client of another version, a bug)
    CORRUPT  a value read back is not one doppel writes (tampered with, or written by another
             program): raised where it is read (corrupt), never turned into a verdict; the
             client's STORE_CORRUPT, not retryable. Writes the script made before it stay, as
             for any error: the batch is then a replay.
  Redis' own errors (WRONGTYPE, OOM, ...) pass through as they are and are mapped there too.
]]
local function fail(reason, script, what)
  return redis.error_reply('DOPPEL_' .. reason .. ' ' .. script .. ': ' .. what)
end

local function corrupt(what)
  error({ err = 'DOPPEL_CORRUPT ' .. what })
end

-- A number read back from Redis (a meta counter, a sequence number): nil when absent (HGET and
-- HMGET give false), corrupt when it is there but no number.
local function storedNumber(v, what)
  if not v then return nil end
  local x = tonumber(v)
  if x == nil then corrupt(what .. ' is not a number: ' .. string.sub(v, 1, 40)) end
  return x
end
