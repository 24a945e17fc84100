--[[
  read: one message's verdict, or one cluster, by id (not on the hot path: CLI, HTTP API, tests).

  KEYS[1]  <base>meta (hash; reads live)
  ARGV[1]  base     ARGV[2] cluster shards     ARGV[3] mode: verdict | detail | cluster | resolve
  ARGV[4]  idShard  ARGV[5] idField            ARGV[6] id
           modes verdicts and clusters (the engine's story reads of a batch's candidates, one
           call each per batch instead of one per candidate): ARGV[4 ..] is a list of such
           triples (verdicts), or of pairs of them (clusters: a cluster id, then the id to try
           when that one finds no cluster, its id '' for none)
  last ARGV: the namespace epoch the client opened it with (lua/_epoch.lua)
  Returns:
    verdict:  the stored verdict (JSON), or nil when the id is unknown, expired or undecided
    detail:   the same with the message's title and detail (the read routes)
    cluster:  the current cluster of a cluster id as JSON {i, z, f, l, t}, or nil
    resolve:  the current id of a cluster id (the id itself when it is no cluster's)
    verdicts: an array, one verdict's reply per triple; clusters: one cluster's reply per pair
              (the first id's cluster, else the second's)
  Errors: DOPPEL_ARGS (lua/_errors.lua), then DOPPEL_DATA_LOST (lua/_epoch.lua), before anything is
  read or written.
]]
--- @include _errors
local meta = KEYS[1]
local base = ARGV[1]
local cshards = tonumber(ARGV[2])
local mode = ARGV[3]
local detail = mode == 'detail'
if detail then mode = 'verdict' end
local many = mode == 'verdicts' or mode == 'clusters'
local group = mode == 'clusters' and 6 or 3
if (many and (#ARGV - 4) % group ~= 0) or (not many and #ARGV ~= 7)
  or (not many and mode ~= 'verdict' and mode ~= 'cluster' and mode ~= 'resolve') then
  return fail('ARGS', 'read', #ARGV .. ' arguments, mode ' .. tostring(mode))
end
--- @include _epoch
local lost = epochLost(KEYS[1], ARGV[#ARGV])
if lost then return lost end
local mm = redis.call('HMGET', meta, 'live', 'seq')
local live = (storedNumber(mm[1], 'meta live') or 1)
local last = (storedNumber(mm[2], 'meta seq') or 0)

--- @include _verdict
--- @include _cluster

-- One id's reply in `mode` (verdict, cluster or resolve; detail is verdict with `detail`).
local function readOne(mode, idShard, idField, id)
  local seq = storedNumber(redis.call('HGET', base .. KEY_SHARD .. idShard, idField), 'an id field')
  -- A cluster outlives its root message (it lasts while it grows): the root's id field is kept
  -- while the cluster is (the sweep in index-1.lua), so the cluster is still found by its id.
  if seq and seq < live and (mode == 'verdict' or not clusterGet(seq)) then seq = nil end
  if mode == 'verdict' then
    if not seq then return nil end
    local b, slot = blockOf(seq)
    local raw = redis.call('HGET', base .. KEY_VERDICT .. b, slot)
    if not raw then return nil end
    return verdictForClient(raw, seq, detail)
  end
  if mode == 'resolve' then
    if not seq then return id end
    local root = resolve(seq)
    return clusterIdOf(root) or id
  end
  if not seq then return nil end
  local root, c = resolve(seq)
  if c then return cjson.encode({ i = c.i, z = c.z, f = c.f, l = c.l, t = c.t }) end
  local v = verdictOf(seq)
  if v and v.r == seq then
    local rootId, ts = headerOf(seq)
    return cjson.encode({ i = rootId, z = 1, f = ts, l = ts, t = titleOf(seq) })
  end
  return nil
end

if mode == 'verdicts' then
  local out = {}
  -- false is a nil reply in its place (a nil would end the array).
  for a = 4, #ARGV - 1, 3 do out[#out + 1] = readOne('verdict', ARGV[a], ARGV[a + 1], ARGV[a + 2]) or false end
  return out
end
if mode == 'clusters' then
  local out = {}
  for a = 4, #ARGV - 1, 6 do
    local c = readOne('cluster', ARGV[a], ARGV[a + 1], ARGV[a + 2])
    if not c and ARGV[a + 5] ~= '' then c = readOne('cluster', ARGV[a + 3], ARGV[a + 4], ARGV[a + 5]) end
    out[#out + 1] = c or false
  end
  return out
end
return readOne(mode, ARGV[4], ARGV[5], ARGV[6])
