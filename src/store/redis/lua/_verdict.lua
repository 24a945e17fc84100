--[[
  Stored verdicts, shared by every script that reads or writes them (pasted in at
  "--- @include _verdict"). Needs local `base`. A verdict is stored small, because every message
  has one: a unique message that is its own cluster's root is the one letter "u"; any other is
  JSON with one-letter keys, k = u | d | n (unique, duplicate, near_duplicate), r = the cluster
  root's sequence number when it is not the message's own, c = cluster id when not the message's
  id, d = duplicateOf, y = similarity, m = method. The sequence number is the verdict's block and
  slot, and the event time is in the record, so neither is stored again.
]]
local KIND_LETTER = { unique = 'u', duplicate = 'd', near_duplicate = 'n' }
local KIND_NAME = { u = 'unique', d = 'duplicate', n = 'near_duplicate' }

local function encodeVerdict(kind, seq, root, clusterId, id, dup, sim, method)
  local v = { k = KIND_LETTER[kind] }
  local plain = true
  if root ~= seq then v.r = root; plain = false end
  if clusterId ~= id then v.c = clusterId; plain = false end
  if dup ~= '' then v.d = dup; plain = false end
  if sim ~= '' then v.y = tonumber(sim); plain = false end
  if method ~= '' then v.m = method; plain = false end
  if plain then return v.k end
  return cjson.encode(v)
end

-- The stored verdict of `seq` as a table with r filled in, or nil.
local function decodeVerdict(raw, seq)
  if not raw then return nil end
  local v
  if #raw == 1 then v = { k = raw } else v = cjson.decode(raw) end
  if v.r == nil then v.r = seq end
  return v
end

-- The verdict as the client reads it (store.ts parseVerdict): JSON with the kind's full name, its
-- sequence number and event time.
local function verdictForClient(raw, seq)
  local v = decodeVerdict(raw, seq)
  v.k = KIND_NAME[v.k]
  v.s = seq
  local blob = redis.call('HGET', base .. 'r:' .. math.floor(seq / 64), seq % 64)
  v.t = blob and struct.unpack('<d', blob) or 0
  return cjson.encode(v)
end
