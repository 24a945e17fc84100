--[[
  open: claims or checks a namespace when a client opens it (once per client, not per batch).

  KEYS[1]  <base>meta (hash): layout, epoch, lost, reset (time of the last reset)
  ARGV[1]  layout: "<version>:<shards>:<clusterShards>:<generationMs>" (store.ts)
  ARGV[2]  a fresh random epoch, used when the namespace is new
  ARGV[3]  "1": accept a lost namespace (the client has deleted its other keys first)
  Returns {status, value}:
    {"ok", epoch}        the namespace's epoch (new: ARGV[2]; a namespace from before epochs
                         existed is given ARGV[2] too); the client passes it to every call
    {"layout", layout}   created with another layout: refused
    {"lost", reason}     marked lost (lua/_epoch.lua) and not reset: refused
]]
local meta = KEYS[1]
local m = redis.call('HMGET', meta, 'layout', 'epoch', 'lost')
if m[3] then
  if ARGV[3] ~= '1' then return { 'lost', m[3] } end
  redis.call('DEL', meta)
  -- Clients still holding the old epoch then fail without marking the new namespace lost (_epoch.lua).
  redis.call('HSET', meta, 'layout', ARGV[1], 'epoch', ARGV[2], 'reset', redis.call('TIME')[1])
  return { 'ok', ARGV[2] }
end
if not m[1] then
  redis.call('HSET', meta, 'layout', ARGV[1], 'epoch', ARGV[2])
  return { 'ok', ARGV[2] }
end
if m[1] ~= ARGV[1] then return { 'layout', m[1] } end
if not m[2] then
  redis.call('HSET', meta, 'epoch', ARGV[2])
  return { 'ok', ARGV[2] }
end
return { 'ok', m[2] }
