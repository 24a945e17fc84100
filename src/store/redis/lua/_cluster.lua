--[[
  Shared by commit-1.lua and read-1.lua (pasted in by the loader at "--- @include _cluster").
  Needs locals `base` and `cshards`, and _verdict included before it. Records, verdicts and clusters are addressed by sequence
  number: record and verdict blocks of 64, cluster shards by root sequence number.
]]
local function blockOf(seq)
  return math.floor(seq / BLOCK_SIZE), seq % BLOCK_SIZE
end

local function verdictOf(seq)
  local b, slot = blockOf(seq)
  return decodeVerdict(redis.call('HGET', base .. KEY_VERDICT .. b, slot), seq)
end

-- id and event time of a message from its record's header (recordHeader in _verdict.lua).
local function headerOf(seq)
  local b, slot = blockOf(seq)
  local blob = redis.call('HGET', base .. KEY_RECORD .. b, slot)
  if not blob then return nil, nil end
  return recordHeader(blob)
end

-- Clusters are stored as JSON {i = id, z = size, f = first seen, e = last seen - first seen,
-- m = merged into}: e is a few digits where the last-seen time would be 13 again. Read as {i, z, f, l, m}.
local function clusterGet(root)
  local v = redis.call('HGET', base .. KEY_CLUSTER .. (root % cshards), root)
  if not v then return nil end
  local c = cjson.decode(v)
  c.l = c.f + c.e
  c.e = nil
  return c
end

local function clusterPut(root, c)
  redis.call('HSET', base .. KEY_CLUSTER .. (root % cshards), root, cjson.encode({ i = c.i, z = c.z, f = c.f, e = c.l - c.f, m = c.m }))
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
