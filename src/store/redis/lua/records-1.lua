--[[
  records: the stored records of candidate messages, by sequence number (the client caches them,
  so this asks only for those it has not seen).

  KEYS[1]  <base>meta (hash; reads live)
  ARGV[1]  base    ARGV[2..] sequence numbers
  Returns: one record (binary, codec.ts writeRecordBlob: header byte, time, id, signatures) per sequence number, or false
  when it expired in the meantime (the candidate is then skipped).
]]
--- @include _errors
local base = ARGV[1]
local live = tonumber(redis.call('HGET', KEYS[1], 'live')) or 1
local out = {}
for i = 2, #ARGV do
  local seq = tonumber(ARGV[i])
  if seq == nil then return fail('ARGS', 'records', 'argument ' .. i .. ' is no sequence number') end
  if seq >= live then
    out[i - 1] = redis.call('HGET', base .. KEY_RECORD .. math.floor(seq / BLOCK_SIZE), seq % BLOCK_SIZE) or false
  else
    out[i - 1] = false
  end
end
return out
