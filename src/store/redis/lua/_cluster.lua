--[[
  Shared by commit-1.lua and read-1.lua (pasted in by the loader at "--- @include _cluster").
  Needs locals `base` and `cshards`, and _verdict included before it. Records, verdicts and clusters are addressed by sequence
  number: record and verdict blocks of 64, cluster shards by root sequence number.
]]
local function blockOf(seq)
  return math.floor(seq / BLOCK_SIZE), seq % BLOCK_SIZE
end

-- Verdicts a call decided and has not written yet, sequence number -> stored form (commit-1.lua
-- writes them with one HSET per block at its end); read first by verdictOf.
local verdictsPending = {}

local function verdictOf(seq)
  local pending = verdictsPending[seq]
  if pending then return decodeVerdict(pending, seq) end
  local b, slot = blockOf(seq)
  return decodeVerdict(redis.call('HGET', base .. KEY_VERDICT .. b, SLOT_NAME[slot]), seq)
end

-- id and event time of a message from its record's header (recordHeader in _verdict.lua).
local function headerOf(seq)
  local b, slot = blockOf(seq)
  local blob = redis.call('HGET', base .. KEY_RECORD .. b, slot)
  if not blob then return nil, nil end
  return recordHeader(blob)
end

-- Clusters are stored as JSON {i = id, z = size, f = first seen, e = last seen - first seen,
-- m = merged into, t = title}: e is a few digits where the last-seen time would be 13 again. Read
-- as {i, z, f, l, m, t}.
-- The clusters a call has read or written, root -> {i, z, f, l, m, t} (false: none): a story's
-- record is read several times while a message joins it (its root resolved, then read to grow
-- it) and again by its next member in the same batch; each repeat costs no HGET and no JSON
-- decoding. clusterPut keeps it in step. Callers get a copy (they change the record before
-- writing it back).
local clusterCache = {}

local function clusterCopy(c)
  return { i = c.i, z = c.z, f = c.f, l = c.l, m = c.m, t = c.t }
end

local function clusterGet(root)
  local known = clusterCache[root]
  if known ~= nil then return known and clusterCopy(known) or nil end
  local v = redis.call('HGET', base .. KEY_CLUSTER .. (root % cshards), root)
  if not v then
    clusterCache[root] = false
    return nil
  end
  local ok, c = pcall(cjson.decode, v)
  if not ok or type(c) ~= 'table' or type(c.i) ~= 'string' or type(c.z) ~= 'number' or type(c.f) ~= 'number'
    or type(c.e) ~= 'number' or (c.m ~= nil and type(c.m) ~= 'number') then
    corrupt('the cluster rooted at ' .. root .. ' is not one doppel writes: ' .. string.sub(v, 1, 40))
  end
  c.l = c.f + c.e
  c.e = nil
  clusterCache[root] = clusterCopy(c)
  return c
end

-- A cluster's member of the story indexes (sorted sets cs: by size, cr: by last seen): its root
-- sequence number in 15 digits, so that ties (equal scores, ordered by member) go newest root first.
local function storyMember(root)
  return string.format('%015d', root)
end

-- The story index entries a call changed, root -> { size, last seen } or false (leaves both),
-- written by flushStoryIndex at the end of the call: one ZADD and one ZREM per index a call, not
-- two calls per join (a story that grows several times in one batch is written once). Nothing
-- reads cs and cr during a call (clusters-1.lua and the horizon's expiry in index-1.lua run in
-- calls of their own).
local storyIndex = {}

-- The clusters a call changed (root -> true), written by flushClusters at the end of the call:
-- one JSON encoding and one HSET field per story a call, however many times it grew in the batch
-- (clusterGet answers from clusterCache until then).
local clustersDirty = {}

-- Writes a cluster (at the end of the call) and keeps the story indexes in step: a current
-- cluster of two or more is in both, a merged one in neither.
local function clusterPut(root, c)
  clusterCache[root] = clusterCopy(c)
  clustersDirty[root] = true
  if c.m then
    storyIndex[root] = false
  elseif c.z >= 2 then
    storyIndex[root] = { c.z, c.l }
  end
end

-- Pairs of (field, value) per hash suffix, for one HSET per hash: suffix -> { field, value, ... }.
local function addField(byHash, suffix, field, value)
  local list = byHash[suffix]
  if not list then
    list = {}
    byHash[suffix] = list
  end
  list[#list + 1] = field
  list[#list + 1] = value
end

local function flushClusters()
  local byShard = {}
  for root in pairs(clustersDirty) do
    local c = clusterCache[root]
    addField(byShard, root % cshards, root, cjson.encode({ i = c.i, z = c.z, f = c.f, e = c.l - c.f, m = c.m, t = c.t }))
  end
  for shard, list in pairs(byShard) do redis.call('HSET', base .. KEY_CLUSTER .. shard, unpack(list)) end
  clustersDirty = {}
end

local function flushStoryIndex()
  local bySize, byRecency, gone = {}, {}, {}
  for root, entry in pairs(storyIndex) do
    local member = storyMember(root)
    if entry then
      bySize[#bySize + 1] = entry[1]
      bySize[#bySize + 1] = member
      byRecency[#byRecency + 1] = entry[2]
      byRecency[#byRecency + 1] = member
    else
      gone[#gone + 1] = member
    end
  end
  if #bySize > 0 then
    redis.call('ZADD', base .. KEY_BY_SIZE, unpack(bySize))
    redis.call('ZADD', base .. KEY_BY_RECENCY, unpack(byRecency))
  end
  if #gone > 0 then
    redis.call('ZREM', base .. KEY_BY_SIZE, unpack(gone))
    redis.call('ZREM', base .. KEY_BY_RECENCY, unpack(gone))
  end
  storyIndex = {}
end

-- Titles a call committed and has not written yet, sequence number -> title (commit-1.lua writes
-- them with one HSET per block at its end); read first by titleOf.
local titlesPending = {}

-- The title a message was committed with (t:<block>), or nil.
local function titleOf(s)
  local pending = titlesPending[s]
  if pending then return pending end
  local t = redis.call('HGET', base .. KEY_TITLE .. math.floor(s / BLOCK_SIZE), s % BLOCK_SIZE)
  if t then return t end
  return nil
end

--[[
  Member lists (m:<root mod cshards>, field root): the decided members' sequence numbers mod 2^32,
  4 bytes little-endian each, ascending. Needs locals `live` and `last` (the last sequence number
  taken): a live member is the one number in [live, last] with its stored remainder; expired ones
  (the oldest, a prefix) are dropped whenever a list is read for writing.
]]
local MWRAP = 4294967296

local function packSeq(x)
  x = x % MWRAP
  return string.char(x % 256, math.floor(x / 256) % 256, math.floor(x / 65536) % 256, math.floor(x / 16777216))
end

-- The live member at byte `i` of a list value as a full sequence number, or nil when expired.
local function memberSeq(v, i)
  local a, b, c, d = string.byte(v, i, i + 3)
  local off = (a + b * 256 + c * 65536 + d * 16777216 - live) % MWRAP
  if off <= last - live then return live + off end
  return nil
end

-- Member lists a call changed and has not written yet, root -> value (false: deleted), written
-- by flushMembers at the end of the call: a story that grows several times in a batch is read
-- and written once.
local membersPending = {}

-- root's stored list value (its pending one first), or nil.
local function membersValue(root)
  local pending = membersPending[root]
  if pending ~= nil then return pending or nil end
  return redis.call('HGET', base .. KEY_MEMBERS .. (root % cshards), root)
end

-- The live members of root's list, ascending.
local function membersGet(root)
  local out = {}
  local v = membersValue(root)
  if not v then return out end
  if #v % 4 ~= 0 then corrupt('the member list of ' .. root .. ' is not one doppel writes') end
  for i = 1, #v, 4 do
    local s = memberSeq(v, i)
    if s then out[#out + 1] = s end
  end
  return out
end

local function membersPut(root, list)
  if #list == 0 then
    membersPending[root] = false
    return
  end
  local parts = {}
  for x = 1, #list do parts[x] = packSeq(list[x]) end
  membersPending[root] = table.concat(parts)
end

-- Adds member s to root's list: an append when s is the newest and nothing expired (most joins),
-- else the list is read, cut and written in order.
local function membersAdd(root, s)
  local v = membersValue(root)
  if v and #v >= 4 then
    local first, newest = memberSeq(v, 1), memberSeq(v, #v - 3)
    if first and newest and newest < s then
      membersPending[root] = v .. packSeq(s)
      return
    end
  end
  local list = membersGet(root)
  local at = #list + 1
  while at > 1 and list[at - 1] > s do at = at - 1 end
  if list[at - 1] ~= s then table.insert(list, at, s) end
  membersPut(root, list)
end

-- The pending member lists: one HSET (and one HDEL) per hash.
local function flushMembers()
  local written, deleted = {}, {}
  for root, v in pairs(membersPending) do
    if v then
      addField(written, root % cshards, root, v)
    else
      local list = deleted[root % cshards]
      if not list then
        list = {}
        deleted[root % cshards] = list
      end
      list[#list + 1] = root
    end
  end
  for shard, list in pairs(written) do redis.call('HSET', base .. KEY_MEMBERS .. shard, unpack(list)) end
  for shard, list in pairs(deleted) do redis.call('HDEL', base .. KEY_MEMBERS .. shard, unpack(list)) end
  membersPending = {}
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
