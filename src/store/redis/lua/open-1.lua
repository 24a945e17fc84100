--[[
  open: claims or checks a namespace when a client opens it (once per client, not per batch).

  KEYS[1]  <base>meta (hash): layout, epoch, lost, reset (time of the last reset)
  ARGV[1]  layout: "<version>:<shards>:<clusterShards>:<generationMs>" (store.ts)
  ARGV[2]  a fresh random epoch, used when the namespace is new
  ARGV[3]  "1": accept a lost namespace (the client has deleted its other keys first)
  ARGV[4]  shards: the k:<shard> hashes, each given MARKER_FIELD when the namespace is created (or
           first opened by a version with markers: meta `marked` is then the sequence number
           reached, and verdict blocks below it have no marker); index-1.lua checks them
  ARGV[5]  base: key prefix with the namespace hash tag
  Returns {status, value}:
    {"ok", epoch}        the namespace's epoch (new: ARGV[2]; a namespace from before epochs
                         existed is given ARGV[2] too); the client passes it to every call
    {"layout", layout}   created with another layout: refused
    {"lost", reason}     marked lost (lua/_epoch.lua) and not reset: refused
]]
local meta = KEYS[1]
local shards = tonumber(ARGV[4])
if not shards or not ARGV[5] then return redis.error_reply('DOPPEL_ARGS open: ' .. #ARGV .. ' arguments, not 5') end
-- Gives every id/bucket hash its marker, once per namespace (a hash that lost it was deleted).
local function markShards()
  local mk = redis.call('HMGET', meta, 'marked', 'seq')
  if mk[1] then return end
  for i = 0, shards - 1 do redis.call('HSETNX', ARGV[5] .. KEY_SHARD .. i, MARKER_FIELD, '1') end
  redis.call('HSET', meta, 'marked', mk[2] or '0')
end
local m = redis.call('HMGET', meta, 'layout', 'epoch', 'lost')
if m[3] then
  if ARGV[3] ~= '1' then return { 'lost', m[3] } end
  redis.call('DEL', meta)
  -- Clients still holding the old epoch then fail without marking the new namespace lost (_epoch.lua).
  redis.call('HSET', meta, 'layout', ARGV[1], 'epoch', ARGV[2], 'reset', redis.call('TIME')[1])
  markShards()
  return { 'ok', ARGV[2] }
end
if not m[1] then
  redis.call('HSET', meta, 'layout', ARGV[1], 'epoch', ARGV[2])
  markShards()
  return { 'ok', ARGV[2] }
end
if m[1] ~= ARGV[1] then return { 'layout', m[1] } end
if not m[2] then
  redis.call('HSET', meta, 'epoch', ARGV[2])
  markShards()
  return { 'ok', ARGV[2] }
end
markShards()
return { 'ok', m[2] }
