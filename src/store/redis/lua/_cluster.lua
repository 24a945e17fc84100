--[[
  Shared by commit-1.lua and read-1.lua (pasted in by the loader at "--- @include _cluster").
  Needs locals `base` and `cshards`, and _verdict included before it. Records, verdicts and clusters are addressed by sequence
  number: record and verdict blocks of 64, cluster shards by root sequence number.
]]
local function blockOf(seq)
  return math.floor(seq / 64), seq % 64
end

local function verdictOf(seq)
  local b, slot = blockOf(seq)
  return decodeVerdict(redis.call('HGET', base .. 'v:' .. b, slot), seq)
end

-- id and event time of a message from its record header (<d ts, <H id length, id).
local function headerOf(seq)
  local b, slot = blockOf(seq)
  local blob = redis.call('HGET', base .. 'r:' .. b, slot)
  if not blob then return nil, nil end
  local ts, len = struct.unpack('<dH', blob)
  return string.sub(blob, 11, 10 + len), ts
end

local function clusterGet(root)
  local v = redis.call('HGET', base .. 'c:' .. (root % cshards), root)
  if v then return cjson.decode(v) end
  return nil
end

local function clusterPut(root, c)
  redis.call('HSET', base .. 'c:' .. (root % cshards), root, cjson.encode(c))
end

-- Follows merges to the current root; returns it and its record (nil for an implicit singleton).
local function resolve(root)
  local c = clusterGet(root)
  local hops = 0
  while c and c.m and hops < 1000 do
    root = c.m
    c = clusterGet(root)
    hops = hops + 1
  end
  return root, c
end

local function clusterIdOf(root)
  local c = clusterGet(root)
  if c then return c.i end
  local id = headerOf(root)
  return id
end
