--[[
  query: the read-only half of index, for the HTTP API's /v1/check. Nothing is written: no
  sequence number is taken, the clock does not move, nothing is inserted or swept.

  KEYS[1]  <base>meta (hash; reads live and seq)
  ARGV[1]  base     ARGV[2] n, the number of requests     ARGV[3] maxBucketSize
  then per request: idShard, idField, nkeys, buckets: nkeys x (shard digits count, shard in decimal, flag byte,
           2-byte field), one string
  last ARGV: the namespace epoch the client opened it with (lua/_epoch.lua)
  Returns one array per request:
    {"d", verdict}                       decided before: its stored verdict (JSON)
    {"u", bound, live, hot, v1 ... vk}   unseen (or undecided), laid out as index-1.lua's replies:
        the sequence number below which members count (its own when indexed but undecided, else
        0 for all), the live bound, how many of its buckets are full, and the live members of
        each bucket that has any; the client counts and ranks them as the memory store does.
  Errors: DOPPEL_ARGS (lua/_errors.lua), then DOPPEL_DATA_LOST (lua/_epoch.lua), before anything is
  read or written.
]]
--- @include _errors
local meta = KEYS[1]
local base = ARGV[1]
local n = tonumber(ARGV[2])
local maxBucket = tonumber(ARGV[3])
if n == nil or #ARGV ~= 4 + 4 * n then
  return fail('ARGS', 'query', #ARGV .. ' arguments, not 4 + 4 x ' .. tostring(ARGV[2]))
end
--- @include _epoch
local lost = epochLost(KEYS[1], ARGV[#ARGV])
if lost then return lost end
local m = redis.call('HMGET', meta, 'live', 'seq')
local live = (storedNumber(m[1], 'meta live') or 1)
local seq = (storedNumber(m[2], 'meta seq') or 0)

--- @include _members
--- @include _verdict

local results = {}
local p = 4
for r = 1, n do
  local idShard, idField, nkeys, addresses = ARGV[p], ARGV[p + 1], tonumber(ARGV[p + 2]), ARGV[p + 3]
  p = p + 4
  local known = storedNumber(redis.call('HGET', base .. KEY_SHARD .. idShard, idField), 'an id field')
  if known and known < live then known = nil end
  local decided = nil
  if known then decided = redis.call('HGET', base .. KEY_VERDICT .. math.floor(known / BLOCK_SIZE), known % BLOCK_SIZE) end
  if decided then
    results[r] = { 'd', verdictForClient(decided, known, false, true) }
  else
    local out = { 'u', known or 0, live, 0 }
    local hot = 0
    local at = 1
    for _ = 1, nkeys do
      local key, field
      key, field, _, at = bucketAt(addresses, at)
      local v = redis.call('HGET', key, field)
      local size = 0
      if v then v, size = liveMembers(v) end
      if size >= maxBucket then hot = hot + 1 end
      if v then out[#out + 1] = v end
    end
    out[4] = hot
    results[r] = out
  end
end
return results
