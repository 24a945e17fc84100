--[[
  records: the stored records of candidate messages, by sequence number (the client caches them,
  so this asks only for those it has not seen).

  KEYS[1]  <base>meta (hash; reads live)
  ARGV[1]  base    ARGV[2..n-1] sequence numbers
  last ARGV: the namespace epoch the client opened it with (lua/_epoch.lua)
  Returns: one record (binary, codec.ts writeRecordBlob: header byte, time, id, signatures) per sequence number, or false
  when it expired in the meantime (the candidate is then skipped). A record missing while its
  number is live fails the call with DOPPEL_DATA_LOST (lua/_epoch.lua dataLost).
  Errors: DOPPEL_ARGS (lua/_errors.lua), then DOPPEL_DATA_LOST (lua/_epoch.lua), before anything is
  read or written.
]]
--- @include _errors
local base = ARGV[1]
-- Checked before the epoch: a client of another layout must not get the namespace marked lost.
for i = 2, #ARGV - 1 do
  if tonumber(ARGV[i]) == nil then return fail('ARGS', 'records', 'argument ' .. i .. ' is no sequence number') end
end
--- @include _epoch
local lost = epochLost(KEYS[1], ARGV[#ARGV])
if lost then return lost end
local mm = redis.call('HMGET', KEYS[1], 'live', 'seq')
local live = storedNumber(mm[1], 'meta live') or 1
local last = storedNumber(mm[2], 'meta seq') or 0
local out = {}
for i = 2, #ARGV - 1 do
  local seq = tonumber(ARGV[i])
  if seq >= live then
    out[i - 1] = redis.call('HGET', base .. KEY_RECORD .. math.floor(seq / BLOCK_SIZE), seq % BLOCK_SIZE) or false
    -- A live member's record leaves only with its generation: gone now means deleted or evicted.
    if not out[i - 1] and seq <= last then dataLost(KEYS[1], 'the record of candidate ' .. seq .. ' is gone') end
  else
    out[i - 1] = false
  end
end
return out
