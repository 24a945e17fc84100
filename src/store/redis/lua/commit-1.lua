--[[
  commit: store each decision and update clusters, in order (one script call per batch).
  A decided id is never changed: a second commit returns its current cluster and no events.
  Clusters merge into the oldest (lowest root sequence number); the merged ones stay as aliases
  (field m) until the sweep drops clusters last seen before the window. A message whose cluster
  has only itself has no cluster record (its verdict says so): most messages are unique.

  KEYS[1]  <base>meta (hash; reads live, counts clusters formed less clusters merged)
  ARGV[1]  base       ARGV[2] cluster shards      ARGV[3] n, the number of decisions
  then per decision: id, seq, ts, verdict (unique|duplicate|near_duplicate), duplicateOf ("" none),
  similarity ("" none), method ("" none), title ("" none), detail ("" none: engine/detail.ts's form),
  njoins, njoins x (idShard, idField) of the messages it joins, or ('', sequence number) when the
  client knows it (a candidate of its index call: no HGET of the id field)
  last ARGV: the namespace epoch the client opened it with (lua/_epoch.lua)
  Keys built from base: k:<shard> (id fields), r:<block>, v:<block>, t:<block> (titles), x:<block> (details),
  c:<shard>, m:<shard> (member lists), cs and cr (story indexes, _cluster.lua).

  Returns one string per decision: JSON {"c": current cluster id, "e": [story events], "b": 1 when
  the id was decided before (by another client since its index call: nothing written)}, or '' for
  the usual case of a message that formed a cluster of its own (cluster id = its id, one
  "created" event of size 1 at its time: store.ts builds it, so Lua does not encode it), or, for
  a message that grew one story and merged none (the other usual case), the array {cluster id,
  size, first seen, last seen} (times as integers; JSON when one is not a whole number): the
  client builds the "grown" event, which saves a JSON encoding per message (~3-5 µs of Redis CPU).
  Errors: DOPPEL_ARGS (lua/_errors.lua), then DOPPEL_DATA_LOST (lua/_epoch.lua), before anything is
  read or written (see index-1.lua).
]]
--- @include _errors
local meta = KEYS[1]
local base = ARGV[1]
local cshards = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
if n == nil or #ARGV < 4 + 10 * n then
  return fail('ARGS', 'commit', #ARGV .. ' arguments, fewer than 4 + 10 x ' .. tostring(ARGV[3]))
end
--- @include _epoch
local lost = epochLost(KEYS[1], ARGV[#ARGV])
if lost then return lost end
local mm = redis.call('HMGET', meta, 'live', 'seq')
local live = (storedNumber(mm[1], 'meta live') or 1)
local last = (storedNumber(mm[2], 'meta seq') or 0)

--- @include _verdict
--- @include _cluster

local function event(kind, root, c, messageId)
  return { type = kind, clusterId = c.i, messageId = messageId, size = c.z, firstSeen = c.f, lastSeen = c.l,
    representative = c.i }
end

-- Titles and details, written with one HSET per block at the end of the call (a batch's
-- messages fall in a few blocks) instead of two calls a message: block -> { slot, value, ... },
-- gathered by _cluster.lua's addField.
local titleBlocks, detailBlocks = {}, {}
local function flushBlocks(blocks, part)
  for b, list in pairs(blocks) do redis.call('HSET', base .. part .. b, unpack(list)) end
end

-- The batch's verdict slots as stored before this call, read with one HMGET per block (another
-- client may have decided an id since this client's index call): seq -> stored verdict or false.
-- Nothing else writes them during the call, and this call's own verdicts are written with one
-- HSET per block at its end (verdictsPending, _cluster.lua, answers for them until then).
local storedBefore = {}
-- Each decision's sequence number and join count, parsed once (the loop below reads them again).
local seqOf, joinsOf = {}, {}
do
  local slotsOf, seqsOf = {}, {}
  local q = 4
  for r = 1, n do
    local s = tonumber(ARGV[q + 1])
    local njoins = tonumber(ARGV[q + 9])
    seqOf[r], joinsOf[r] = s, njoins
    if s then
      local b, slot = blockOf(s)
      if not slotsOf[b] then
        slotsOf[b], seqsOf[b] = {}, {}
      end
      slotsOf[b][#slotsOf[b] + 1] = SLOT_NAME[slot]
      seqsOf[b][#seqsOf[b] + 1] = s
    end
    q = q + 10 + 2 * (njoins or 0)
  end
  for b, slots in pairs(slotsOf) do
    local values = redis.call('HMGET', base .. KEY_VERDICT .. b, unpack(slots))
    for i, s in ipairs(seqsOf[b]) do storedBefore[s] = values[i] end
  end
end
local verdictBlocks = {}

local results = {}
local formed = 0
local p = 4
for r = 1, n do
  local id, seq, ts, kind, dup, sim, method, title, detail, njoins =
    ARGV[p], seqOf[r], tonumber(ARGV[p + 2]), ARGV[p + 3], ARGV[p + 4], ARGV[p + 5], ARGV[p + 6],
    ARGV[p + 7], ARGV[p + 8], joinsOf[r]
  p = p + 10
  local b, slot = blockOf(seq)
  -- (A seq decided earlier in this call, never sent twice by the engine, reads as decided before.)
  local existing = verdictsPending[seq] or storedBefore[seq]
  if existing then
    p = p + 2 * njoins
    local v = decodeVerdict(existing, seq)
    local root = resolve(v.r)
    results[r] = cjson.encode({ c = clusterIdOf(root) or v.c or id, e = {}, b = 1 })
  else
    local roots, list = {}, {}
    for j = 1, njoins do
      local joined
      if ARGV[p] == '' then
        joined = tonumber(ARGV[p + 1])
        if not joined then return fail('ARGS', 'commit', 'a joined sequence number is not a number') end
      else
        joined = storedNumber(redis.call('HGET', base .. KEY_SHARD .. ARGV[p], ARGV[p + 1]), 'an id field')
      end
      p = p + 2
      if joined and joined >= live and joined ~= seq then
        local jv = verdictOf(joined)
        local root = resolve(jv and jv.r or joined)
        if not roots[root] then
          roots[root] = true
          list[#list + 1] = root
        end
      end
    end
    -- A later message joined this one's tentative cluster before it was decided.
    if clusterGet(seq) then
      local root = resolve(seq)
      if not roots[root] then
        roots[root] = true
        list[#list + 1] = root
      end
    end
    local events, grown = nil, nil
    local target, targetRoot
    if #list == 0 then
      -- The reply says only "created" (''): the client knows that event's every field.
      target = { i = id, z = 1, f = ts, l = ts }
      targetRoot = seq
      formed = formed + 1
    else
      events = {}
      table.sort(list)
      local records = {}
      -- Roots whose member list is implicit: an implicit singleton lists only itself.
      local implicit = {}
      for x = 1, #list do
        local root = list[x]
        local c = clusterGet(root)
        if not c then
          -- An implicit singleton (decided) or an undecided message's tentative cluster.
          local rid, rts = headerOf(root)
          local decided = verdictOf(root) ~= nil
          c = { i = rid or tostring(root), z = decided and 1 or 0, f = rts or ts, l = rts or ts,
            t = decided and titleOf(root) or nil }
          implicit[x] = decided and { root } or {}
          -- A tentative cluster of an undecided message is formed now (a decided one was at its commit).
          if not decided then formed = formed + 1 end
        end
        records[x] = c
      end
      target, targetRoot = records[1], list[1]
      local absorbed = {}
      for x = 2, #list do
        local other = records[x]
        other.m = targetRoot
        target.z = target.z + other.z
        if other.f < target.f then target.f = other.f end
        if other.l > target.l then target.l = other.l end
        absorbed[#absorbed + 1] = other.i
        clusterPut(list[x], other)
        formed = formed - 1
      end
      target.z = target.z + 1
      if ts < target.f then target.f = ts end
      if ts > target.l then target.l = ts end
      -- The root decided after a later message joined its tentative cluster: its title now.
      if target.t == nil and targetRoot == seq and title ~= '' then target.t = title end
      clusterPut(targetRoot, target)
      if #list == 1 and not implicit[1] then
        membersAdd(targetRoot, seq)
      else
        local members = implicit[1] or membersGet(targetRoot)
        for x = 2, #list do
          local more = implicit[x] or membersGet(list[x])
          if not implicit[x] then membersPut(list[x], {}) end
          for _, s in ipairs(more) do members[#members + 1] = s end
        end
        members[#members + 1] = seq
        table.sort(members)
        membersPut(targetRoot, members)
      end
      if #absorbed > 0 then
        local merged = event('merged', targetRoot, target, id)
        merged.mergedFrom = absorbed
        events[#events + 1] = merged
        events[#events + 1] = event('grown', targetRoot, target, id)
      elseif target.f % 1 == 0 and target.l % 1 == 0 then
        -- Whole numbers go back as integer replies, exactly (no number formatting in Lua).
        grown = { target.i, target.z, target.f, target.l }
      else
        events[#events + 1] = event('grown', targetRoot, target, id)
      end
    end
    local verdict = encodeVerdict(kind, seq, targetRoot, target.i, id, dup, sim, method)
    verdictsPending[seq] = verdict
    local slotName = SLOT_NAME[slot]
    addField(verdictBlocks, b, slotName, verdict)
    if title ~= '' then
      titlesPending[seq] = title
      addField(titleBlocks, b, slotName, title)
    end
    if detail ~= '' then addField(detailBlocks, b, slotName, detail) end
    if grown then
      results[r] = grown
    else
      results[r] = events and cjson.encode({ c = target.i, e = events }) or ''
    end
  end
end
flushBlocks(verdictBlocks, KEY_VERDICT)
flushBlocks(titleBlocks, KEY_TITLE)
flushBlocks(detailBlocks, KEY_DETAIL)
flushClusters()
flushMembers()
flushStoryIndex()
if formed ~= 0 then redis.call('HINCRBY', meta, 'clusters', formed) end
return results
