--[[
  shard-open: claims or checks one bucket shard of a namespace spread over Redis Cluster, when a
  client opens the namespace (after open-1.lua on the home shard gave it the epoch).

  KEYS[1]  <shard base>meta (hash): layout, epoch, lost, and the bucket state (buckets-1.lua)
  ARGV[1]  layout (as the home's)   ARGV[2] the namespace epoch (the home's)
  ARGV[3]  "1": the home is not marked ready (new or reset): a missing shard is created now
  Returns {"ok", epoch}, {"layout", layout} or {"lost", reason}. A shard that is missing while
  the home is ready, or holds another epoch, lost its data (its node restarted without
  persistence, FLUSHALL, deleted keys): it is marked lost, so every client's next call on it
  fails with DOPPEL_DATA_LOST (lua/_epoch.lua) until an operator resets the namespace.
]]
local meta = KEYS[1]
local m = redis.call('HMGET', meta, 'layout', 'epoch', 'lost')
if m[3] then return { 'lost', m[3] } end
local function markLost(why)
  local reason = redis.call('TIME')[1] .. ': ' .. why
  redis.call('HSET', meta, 'lost', reason)
  return { 'lost', reason }
end
if not m[1] then
  if ARGV[3] ~= '1' then return markLost('shard missing') end
  redis.call('HSET', meta, 'layout', ARGV[1], 'epoch', ARGV[2])
  return { 'ok', ARGV[2] }
end
if m[1] ~= ARGV[1] then return { 'layout', m[1] } end
if m[2] ~= ARGV[2] then return markLost('shard epoch differs from the home shard') end
return { 'ok', m[2] }
