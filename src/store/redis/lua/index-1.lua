--[[
  index: insert-then-query for a batch of messages, atomically (one script call per batch).
  For each request in order: if its id is known and decided, return the first verdict; if known
  and undecided, return candidates again (nothing inserted); else take the next sequence number,
  collect candidates (live members of its buckets with a lower sequence number) and insert it.
  "First" is the sequence order, so two near-duplicates indexed at the same moment by two
  processes are ordered, and the later one always sees the earlier one (docs/redis.md).

  KEYS[1]  <base>meta (hash): seq, now, gen, live, hot, expired, buckets, freed, sweep, rate, hotb,
           rec (the last sequence number whose record was written: its loss is checked each call)
  ARGV[1]  base: key prefix with the namespace hash tag, e.g. "doppel:{news}:"
  ARGV[2]  windowMs          ARGV[3] generationMs      ARGV[4] maxBucketSize
  ARGV[5]  hot tail: members a full bucket keeps as its rolling newest (store/hot.ts; 0: none)
  ARGV[6]  maxMessages (0: no cap)
  ARGV[7]  shards            ARGV[8] cluster shards    ARGV[9] n, the number of requests
  ARGV[10] maxFutureSkewMs: the store clock (meta now) never moves past Redis' TIME plus this,
           whatever a message's time (a message dated in the far future would expire the window)
  then per request: idShard, idField, ts (the clock's: '' when the client clamped the time, which
           then moves no clock), record, nkeys, buckets: nkeys x (3-byte index into the bucket
           table, little-endian from 0; flag byte: 1 = read first, 2 = probably there (keys.ts
           PROBABLY_THERE)), one string
  then the bucket table: the call's distinct buckets, each the key name's length n (2 bytes,
           little-endian), the shard hash's key name in n bytes (base, KEY_SHARD and the shard in
           decimal digits: one string slice per key in Lua, checked to start with that prefix) and
           the 2-byte field (batch-buckets.ts). Key names and fields are made once per distinct
           bucket, not once per reference (a batch names many buckets several times)
  last ARGV: the namespace epoch the client opened it with (lua/_epoch.lua)
  Keys built from base (same hash tag, so one slot): gens, k:<shard>, r:<block>, v:<block>,
  t:<block>, c:<shard>, m:<shard>, cs, cr.

  Bucket values: one member as its sequence number mod 2^32 in decimal (a listpack stores it as an
  integer), two or more as byte 255 then 4 bytes (little-endian) per member, oldest first. Members
  are told apart from expired ones, and their full sequence numbers recovered, by the live bound:
  a live member m is the one number in [live, seq] with m = value mod 2^32.

  Returns one array per request:
    {"d", verdict}                          decided before: its stored verdict (JSON)
    {"n" | "p", seq, live, hot, v1, v2 ... vk}
        new (inserted now) or pending (indexed before, undecided): its sequence number, the live
        bound, how many of its buckets were full, and the live members of those of its buckets
        that had any, as they were before it joined (the format above; empty buckets are left out). The client counts the
        shared buckets of each earlier member and ranks them (src/store/rank.ts, as the memory
        store does): Lua only reads and appends, the cheapest work per bucket.
  Errors: DOPPEL_ARGS (lua/_errors.lua), then DOPPEL_DATA_LOST (lua/_epoch.lua), before anything is
  read or written; a wrong-type key gives Redis' WRONGTYPE error and nothing is written after it
  (scripts stop at the first error; the batch is then retried as a replay).
]]
--- @include _errors
local meta = KEYS[1]
local base = ARGV[1]
local windowMs = tonumber(ARGV[2])
local genMs = tonumber(ARGV[3])
local maxBucket = tonumber(ARGV[4])
local hotTail = tonumber(ARGV[5])
local maxMessages = tonumber(ARGV[6])
local shards = tonumber(ARGV[7])
local cshards = tonumber(ARGV[8])
local n = tonumber(ARGV[9])
local maxSkew = tonumber(ARGV[10])
if n == nil or maxSkew == nil or #ARGV ~= 12 + 6 * n then
  return fail('ARGS', 'index', #ARGV .. ' arguments, not 12 + 6 x ' .. tostring(ARGV[9]))
end
local gens = base .. KEY_GENS
if n == 0 then return {} end

--- @include _epoch
local lost = epochLost(KEYS[1], ARGV[#ARGV])
if lost then return lost end
local m = redis.call('HMGET', meta, 'seq', 'now', 'gen', 'live', 'hot', 'expired', 'buckets', 'freed', 'sweep', 'rate', 'hotb', 'rec', 'marked')
local seq = (storedNumber(m[1], 'meta seq') or 0)
local now = storedNumber(m[2], 'meta now')
local gen = storedNumber(m[3], 'meta gen')
local live = (storedNumber(m[4], 'meta live') or 1)
local hotEvents = (storedNumber(m[5], 'meta hot') or 0)
local expired = (storedNumber(m[6], 'meta expired') or 0)
local buckets = (storedNumber(m[7], 'meta buckets') or 0)
local freed = (storedNumber(m[8], 'meta freed') or 0)
local sweep = (storedNumber(m[9], 'meta sweep') or -1)
local rate = (storedNumber(m[10], 'meta rate') or 0)
local hotFilled = (storedNumber(m[11], 'meta hotb') or 0)
-- The sequence number of the last record written (meta rec).
local lastRecord = storedNumber(m[12], 'meta rec')
-- Set when open-1.lua gave every k:<shard> hash its marker: the sequence number reached then
-- (verdict blocks below it may have none).
local marked = storedNumber(m[13], 'meta marked')

-- The last record written leaves only below the live bound: when it is gone, keys of the
-- namespace were deleted or evicted (one HEXISTS a batch; docs/redis.md, "Data loss").
if lastRecord and lastRecord >= live
  and redis.call('HEXISTS', base .. KEY_RECORD .. math.floor(lastRecord / BLOCK_SIZE), lastRecord % BLOCK_SIZE) == 0 then
  dataLost(meta, 'the record of the last message written, ' .. lastRecord .. ', is gone')
end
-- How far the store clock may go: Redis' own time plus the skew (one TIME a batch).
local clock = redis.call('TIME')
local clockLimit = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000) + maxSkew

-- The live bound: the first sequence number of the oldest generation in the window. Generations
-- follow the store clock (the latest event time seen), so they follow sequence numbers too.
local flushRecords
local function dropGenerations(oldestLive, dropOne)
  flushRecords()
  local all = redis.call('HGETALL', gens)
  local oldest, oldestField = nil, nil
  local minFirst = nil
  for i = 1, #all, 2 do
    local g = storedNumber(all[i], 'a generation number')
    if oldestLive and g < oldestLive then
      redis.call('HDEL', gens, all[i])
      expired = expired + 1
    else
      if oldest == nil or g < oldest then oldest, oldestField = g, all[i] end
      local first = storedNumber(all[i + 1], 'a generation start')
      if minFirst == nil or first < minFirst then minFirst = first end
    end
  end
  if dropOne and oldestField then
    redis.call('HDEL', gens, oldestField)
    expired = expired + 1
    return dropGenerations(nil, false)
  end
  live = minFirst or (seq + 1)
  -- Record and verdict blocks wholly below the bound go at once.
  local last = math.floor(live / BLOCK_SIZE) - 1
  for b = freed, last do
    redis.call('DEL', base .. KEY_RECORD .. b, base .. KEY_VERDICT .. b, base .. KEY_TITLE .. b, base .. KEY_DETAIL .. b)
  end
  if last + 1 > freed then freed = last + 1 end
end

local function advance(ts)
  now = ts
  local g = math.floor(ts / genMs)
  if g == gen then return end
  local previousFirst = gen and storedNumber(redis.call('HGET', gens, gen), 'a generation') or nil
  -- The current generation's entry leaves only when the window does (or, with maxMessages, when
  -- it is the oldest): gone otherwise means gens was deleted, and dropping by it would empty the index.
  if gen and not previousFirst and maxMessages == 0 then dataLost(meta, 'generation ' .. gen .. ' is gone from gens') end
  gen = g
  redis.call('HSET', gens, g, seq + 1)
  dropGenerations(math.floor((ts - windowMs) / genMs), false)
  -- Stories last seen before the horizon go now, with their member lists (as the memory store
  -- drops them); merged aliases are left to the sweep.
  local old = redis.call('ZRANGEBYSCORE', base .. KEY_BY_RECENCY, '-inf', '(' .. (ts - windowMs - genMs))
  for _, member in ipairs(old) do
    local root = tonumber(member)
    redis.call('HDEL', base .. KEY_CLUSTER .. (root % cshards), root)
    redis.call('HDEL', base .. KEY_MEMBERS .. (root % cshards), root)
    redis.call('ZREM', base .. KEY_BY_SIZE, member)
    redis.call('ZREM', base .. KEY_BY_RECENCY, member)
  end
  -- The sweep runs round the shards continuously, paced to go round once in about one window's
  -- worth of messages (the last generation's count times generations per window): each entry
  -- is read about once by the sweep, and a dead entry lingers at most about one window.
  -- At most one shard a message: a namespace with fewer messages per window than shards would
  -- otherwise read many nearly empty hashes per message (18 on 1,600 messages a window and the
  -- default 18,432 hashes) to free a few entries; a dead entry then lingers at most shards +
  -- cluster shards messages instead of one window (docs/redis.md, Windows).
  local perWindow = (previousFirst and (seq + 1 - previousFirst) or 0) * math.ceil(windowMs / genMs)
  if perWindow < 256 then perWindow = 256 end
  if perWindow < shards + cshards then perWindow = shards + cshards end
  rate = (shards + cshards) / perWindow
end

--- @include _members

-- Bucket fields are 2 bytes, id fields 7 (keys.ts): the sweep tells them apart by length.
local BUCKET_FIELD_BYTES = 2
--- @include _verdict

-- Removes expired entries of one shard: bucket members, id fields, clusters last seen before the
-- horizon. What goes is deleted with one HDEL (and one HSET for the buckets that lost members) a
-- hash, not one call a field.
local function sweepShard(i)
  if i < shards then
    local key = base .. KEY_SHARD .. i
    local all = redis.call('HGETALL', key)
    local dead, kept = {}, {}
    for j = 1, #all, 2 do
      local field, v = all[j], all[j + 1]
      if field == MARKER_FIELD then
        -- The hash's marker (keys.ts MARKER_FIELD) stays: a hash without it was deleted.
      elseif #field ~= BUCKET_FIELD_BYTES then
        -- An expired id field stays while a cluster is rooted at it (read-1.lua finds it by id).
        local s = storedNumber(v, 'an id field')
        if s < live and redis.call('HEXISTS', base .. KEY_CLUSTER .. (s % cshards), s) == 0 then
          dead[#dead + 1] = field
        end
      else
        local members, size, changed = liveMembers(v)
        if size == 0 then
          dead[#dead + 1] = field
          buckets = buckets - 1
        elseif changed then
          kept[#kept + 1] = field
          kept[#kept + 1] = members
        end
      end
    end
    if #dead > 0 then redis.call('HDEL', key, unpack(dead)) end
    if #kept > 0 then redis.call('HSET', key, unpack(kept)) end
  else
    local key = base .. KEY_CLUSTER .. (i - shards)
    local horizon = now - windowMs - genMs
    local all = redis.call('HGETALL', key)
    local dead, members = {}, {}
    for j = 1, #all, 2 do
      -- Stored as _cluster.lua's clusterPut writes it: last seen is f + e.
      local ok, c = pcall(cjson.decode, all[j + 1])
      if not ok or type(c) ~= 'table' or type(c.f) ~= 'number' or type(c.e) ~= 'number' then
        corrupt('the cluster rooted at ' .. all[j] .. ' is not one doppel writes: ' .. string.sub(all[j + 1], 1, 40))
      end
      if c.f + c.e < horizon then
        dead[#dead + 1] = all[j]
        members[#members + 1] = string.format('%015d', tonumber(all[j]))
      end
    end
    if #dead > 0 then
      redis.call('HDEL', key, unpack(dead))
      redis.call('HDEL', base .. KEY_MEMBERS .. (i - shards), unpack(dead))
      redis.call('ZREM', base .. KEY_BY_SIZE, unpack(members))
      redis.call('ZREM', base .. KEY_BY_RECENCY, unpack(members))
    end
  end
end

-- Records of new messages, written with one HSET per block (most of a batch falls in a few
-- blocks) instead of one per message. Flushed before generations are dropped, so a dropped block
-- is never written again.
local pendingBlock, pendingRecords = nil, nil
function flushRecords()
  if pendingRecords then
    redis.call('HSET', base .. KEY_RECORD .. pendingBlock, unpack(pendingRecords))
    pendingRecords = nil
  end
end
local function addRecord(mySeq, record)
  local b = math.floor(mySeq / BLOCK_SIZE)
  if b ~= pendingBlock or not pendingRecords then
    flushRecords()
    pendingBlock, pendingRecords = b, {}
    -- The verdict block's marker, written with its records: a claimed, undecided id whose verdict
    -- block has none lost it (below). Once per block a batch.
    redis.call('HSETNX', base .. KEY_VERDICT .. b, MARKER_FIELD, '1')
  end
  pendingRecords[#pendingRecords + 1] = SLOT_NAME[mySeq % BLOCK_SIZE]
  pendingRecords[#pendingRecords + 1] = record
  lastRecord = mySeq
end

-- The batch's copy of every bucket it has read or written: bucket index -> value as Redis
-- holds it (false: absent), kept in step with every write (_bucket.lua). Topic terms recur within
-- a batch and their buckets are often full (read, never written), and near-duplicates of one story
-- often share a batch: each repeat saves an HGET, or an HSETNX that fails and an HGET.
local cache = {}
-- The buckets whose value in `cache` is still to be written (bucket index -> shard key):
-- one HSET each at the end of the call, however many messages of the batch joined them.
local dirty = {}

-- The call's distinct buckets: index (from 1) -> key name, field. Made once each here; a
-- message's buckets refer to them by index, which is also their slot in `cache` and `dirty`.
local bucketKeys, bucketFields = {}, {}
do
  local t = ARGV[11 + 6 * n]
  local at, j, stop = 1, 0, #t
  while at <= stop do
    local lo, hi = string.byte(t, at, at + 1)
    local d = lo + (hi or 0) * 256
    if not hi or at + d + 3 > stop then return fail('ARGS', 'index', 'the bucket table ends inside an entry') end
    -- Every key of the call is a shard hash of this namespace (its hash tag: one slot).
    if string.find(t, kbase, at + 2, true) ~= at + 2 or d <= #kbase then
      return fail('ARGS', 'index', 'a bucket key is not a shard of this namespace')
    end
    j = j + 1
    bucketKeys[j] = string.sub(t, at + 2, at + d + 1)
    bucketFields[j] = string.sub(t, at + d + 2, at + d + 3)
    at = at + d + 4
  end
end

-- Buckets assumed absent (_bucket.lua), cache index -> the first message that joined them, and
-- their later references (message, index of its value in the reply or false, flag).
local optimistic, refsOf = {}, {}
-- Per message of the call, what fixBucket needs to redo its references: its reply, the live
-- bound and last sequence number when its buckets were read, its member as stored (false: not
-- new) and packed.
local msgOut, msgLive, msgSeq, msgStored, msgPacked = {}, {}, {}, {}, {}

-- An assumed-absent bucket's references redone from `start` (the value Redis holds, or nil), in
-- the call's order, as _bucket.lua does them: what each reference saw (false: nothing) and
-- whether the bucket was full then, the final value (false: none) and the changes to the
-- buckets, hot and hotb counters. Changes `live` and `seq` (the caller restores them).
local function replayBucket(start, ck)
  local more = refsOf[ck] or {}
  local seen, full = {}, {}
  local dB, dE, dF = 0, 0, 0
  local cur = start
  for i = 1, 1 + #more / 3 do
    local m, flag = optimistic[ck], 0
    if i > 1 then m, flag = more[3 * i - 5], more[3 * i - 3] end
    live, seq = msgLive[m], msgSeq[m]
    local stored, packed = msgStored[m], msgPacked[m]
    local v = cur
    if stored and flag ~= 1 and not v then
      dB = dB + 1
      cur = stored
      seen[i], full[i] = false, false
    else
      local raw = v
      local size, changed = 0, false
      if v then v, size, changed = liveMembers(v) end
      seen[i], full[i] = v or false, size >= maxBucket
      local written = nil
      if stored and size < maxBucket then
        written = withMember(v, size, stored, packed)
        if v == nil and not changed then dB = dB + 1 end
        if size == maxBucket - 1 then dF = dF + 1 end
      elseif stored and hotTail > 0 then
        dE = dE + 1
        written = withHotMember(v, size, packed, maxBucket, hotTail)
      else
        if stored then dE = dE + 1 end
        if changed then
          if size == 0 then
            dB = dB - 1
            written = false
          else
            written = v
          end
        end
      end
      if written == nil then cur = raw else cur = written end
    end
  end
  return seen, full, cur, dB, dE, dF
end

-- A bucket assumed absent was there after all (another client's, or one this client's hint
-- forgot): its references are redone from the value it holds, which fixes the replies (each
-- message gets the bucket's members as they were before it joined, the hot counts), the counters
-- and the value written. Redis ran nothing else during the call, so this is what reading the
-- bucket first would have given.
local function fixBucket(ck, key, field)
  local old = redis.call('HGET', key, field)
  local liveNow, seqNow = live, seq
  local seenA, fullA, _, bA, eA, fA = replayBucket(nil, ck)
  local seenB, fullB, final, bB, eB, fB = replayBucket(old, ck)
  live, seq = liveNow, seqNow
  buckets = buckets + bB - bA
  hotEvents = hotEvents + eB - eA
  hotFilled = hotFilled + fB - fA
  local more = refsOf[ck] or {}
  for i = 1, #seenA do
    local m, placed = optimistic[ck], false
    if i > 1 then m, placed = more[3 * i - 5], more[3 * i - 4] end
    local out = msgOut[m]
    if fullA[i] ~= fullB[i] then out[4] = out[4] + (fullB[i] and 1 or -1) end
    if seenB[i] and seenB[i] ~= seenA[i] then
      if placed then out[placed] = seenB[i] else out[#out + 1] = seenB[i] end
    end
  end
  if final then
    redis.call('HSET', key, field, final)
  else
    redis.call('HDEL', key, field)
  end
end

local results = {}
local p = 11
for r = 1, n do
  local idShard, idField, ts, record, nkeys =
    ARGV[p], ARGV[p + 1], tonumber(ARGV[p + 2]), ARGV[p + 3], tonumber(ARGV[p + 4])
  p = p + 5
  -- A time past the limit moves the clock only to the limit; an empty one (a time the client
  -- clamped: engine.ts) not at all.
  local clockTs = ts
  if clockTs and clockTs > clockLimit then clockTs = clockLimit end
  if clockTs and (now == nil or clockTs > now) then advance(clockTs) end
  local idKey = kbase .. idShard
  -- Every id hash holds the marker from the namespace's creation (open-1.lua): one without it was
  -- deleted or evicted, with the ids and buckets in it (one HEXISTS a message).
  if marked and redis.call('HEXISTS', idKey, MARKER_FIELD) == 0 then
    dataLost(meta, 'the hash ' .. idKey .. ' lost its marker')
  end
  -- Most ids are new: one HSETNX claims the next sequence number for it and says so.
  local known = nil
  -- The next sequence number as stored (converted once: it is also the bucket member below).
  local claim = tostring(seq + 1)
  local idSet = redis.call('HSETNX', idKey, idField, claim) == 1
  if not idSet then
    known = storedNumber(redis.call('HGET', idKey, idField), 'an id field')
    if known and known < live then known = nil end
  end
  local decided = nil
  if known then
    local b, slot = math.floor(known / BLOCK_SIZE), known % BLOCK_SIZE
    decided = redis.call('HGET', base .. KEY_VERDICT .. b, slot)
  end
  if known and not decided then
    -- Claimed and undecided (a crash between index and commit, or another client's batch in
    -- flight), unless its record (written with the claim) or its verdict block's marker is gone.
    local b, slot = math.floor(known / BLOCK_SIZE), known % BLOCK_SIZE
    if redis.call('HEXISTS', base .. KEY_RECORD .. b, slot) == 0 then
      dataLost(meta, 'the record of ' .. known .. ' is gone while its id is claimed')
    end
    if marked and known > marked and redis.call('HEXISTS', base .. KEY_VERDICT .. b, MARKER_FIELD) == 0 then
      dataLost(meta, 'the verdict block of ' .. known .. ' is gone')
    end
  end
  if decided then
    results[r] = { 'd', verdictForClient(decided, known, false, true) }
    p = p + 1
  else
    local isNew = known == nil
    local mySeq = known
    if isNew then
      seq = seq + 1
      mySeq = seq
      -- An expired id field (a replay after its window) gets the new sequence number.
      if not idSet then redis.call('HSET', idKey, idField, mySeq) end
    end
    -- Converted once, not by every redis.call that writes it.
    local stored = (isNew and mySeq < WRAP) and claim or tostring(mySeq % WRAP)
    local packed = packMember(mySeq)
    -- Only buckets with live members go back (most are new and empty): the client counts members,
    -- not buckets, so it does not need to know which bucket a value came from.
    local out = { isNew and 'n' or 'p', mySeq, live, 0 }
    msgOut[r], msgLive[r], msgSeq[r], msgStored[r], msgPacked[r] = out, live, seq, isNew and stored, packed
    local o = 4
    local hot = 0
    local addresses = ARGV[p]
    p = p + 1
    local at = 1
    for _ = 1, nkeys do
      local b1, b2, b3, readFirst = string.byte(addresses, at, at + 3)
      at = at + 4
      local ck = b1 + b2 * 256 + b3 * 65536 + 1
      local key, field = bucketKeys[ck], bucketFields[ck]
      if not key then return fail('ARGS', 'index', 'bucket ' .. ck .. ' is not in the bucket table') end
--- @include _bucket
    end
    out[4] = hot
    if isNew then addRecord(mySeq, record) end
    results[r] = out
  end
end
flushRecords()
-- The buckets' last values, before the sweep reads shard hashes (a bucket deleted since it was
-- written is false in the cache: nothing to write).
for ck, key in pairs(dirty) do
  local value = cache[ck]
  if optimistic[ck] then
    -- Assumed absent: written only if it is (one HSETNX), else redone from what it holds.
    local field = bucketFields[ck]
    local there
    if value then
      there = redis.call('HSETNX', key, field, value) == 0
    else
      there = redis.call('HEXISTS', key, field) == 1
    end
    if there then fixBucket(ck, key, field) end
  elseif value then
    redis.call('HSET', key, bucketFields[ck], value)
  end
end

if maxMessages > 0 then
  while seq - live + 1 > maxMessages and redis.call('HLEN', gens) > 0 do
    dropGenerations(nil, true)
  end
end

-- Nothing is dead before the first generation leaves the window: no sweep until then (it would go
-- round a young namespace's shards at the 256-message minimum pace, dozens of times, for nothing).
if expired > 0 then
  local total = shards + cshards
  local steps = math.ceil(rate * n)
  if steps > total then steps = total end
  if sweep < 0 then sweep = 0 end
  for _ = 1, steps do
    sweepShard(sweep)
    sweep = (sweep + 1) % total
  end
end

redis.call('HSET', meta, 'seq', seq, 'live', live, 'hot', hotEvents, 'expired', expired,
  'buckets', buckets, 'freed', freed, 'sweep', sweep, 'rate', rate, 'hotb', hotFilled, 'rec', lastRecord or 0)
-- No clock yet when every message so far had a clamped time.
if now ~= nil then redis.call('HSET', meta, 'now', now, 'gen', gen) end
return results
