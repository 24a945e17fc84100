--[[
  buckets: the bucket half of index on one shard of a namespace spread over Redis Cluster
  (docs/redis.md, "Redis Cluster"). The home shard has taken the batch's sequence numbers
  (index-1.lua, with no buckets); every shard then applies the batch's messages IN SEQUENCE
  ORDER: a shard applies sequence number s only when it has applied every number below s. So on
  every shard, insert-and-query sees exactly the earlier messages, as one Redis does, and of two
  near-duplicates the later-sequenced one always sees the earlier one, whichever shard their
  shared buckets sit on and whichever client reaches a shard first.

  KEYS[1]  <shard base>meta (hash): seq (applied: every sequence number up to it is applied
           here), live, hot, hotb (buckets that filled), buckets, sweep, epoch
  ARGV[1]  shard base, e.g. "doppel:{news:s3}:"   ARGV[2] maxBucketSize
  ARGV[3]  hot tail: members a full bucket keeps as its rolling newest (store/hot.ts; 0: none)
  ARGV[4]  shards (the namespace's bucket hashes)   ARGV[5] units (hash h is in unit h mod units)
  ARGV[6]  this shard's first unit   ARGV[7] its unit count (layout.ts: it holds those units' hashes)
  ARGV[8]  skip: 0, or a sequence number up to which a gap may be skipped (the client waited
           gapTimeoutMs: the gap's owner died between taking its numbers and calling the shards)
  ARGV[9]  n, then per message (sorted by sequence number) one argument: its sequence number and
           live bound as two little-endian doubles, then this shard's share of its buckets
           (keys.ts bucketAddresses format). One argument, not three: Redis makes a Lua string of
           every argument, and each call carries every message of the batch.
  last ARGV: the namespace epoch (lua/_epoch.lua)
  Returns {"w", applied} (a lower sequence number is not applied here yet: nothing was done, call
  again) or {"o", i, hot, k, v1 ... vk, i, ...}: for each message (its 1-based position i in the
  call) that has a full bucket or a bucket with members here, how many of its buckets are full and
  the live members of those that had any, as they were before it joined (index-1.lua's format);
  flat and without the many messages with neither, which the reply then costs nothing. A message at or below `applied` was applied
  before (a retried call): it is only read, unless its number was skipped (then it is inserted
  late, and may miss a later near-duplicate that was applied in its place: docs/redis.md).
]]
--- @include _errors
local meta = KEYS[1]
local base = ARGV[1]
local maxBucket = tonumber(ARGV[2])
local hotTail = tonumber(ARGV[3])
local shards = tonumber(ARGV[4])
local units = tonumber(ARGV[5])
local firstUnit = tonumber(ARGV[6])
local unitCount = tonumber(ARGV[7])
local skipTo = tonumber(ARGV[8])
local n = tonumber(ARGV[9])
if n == nil or hotTail == nil or #ARGV ~= 10 + n then
  return fail('ARGS', 'buckets', #ARGV .. ' arguments, not 10 + ' .. tostring(ARGV[9]))
end
--- @include _epoch
local lost = epochLost(meta, ARGV[#ARGV])
if lost then return lost end
local m = redis.call('HMGET', meta, 'seq', 'live', 'hot', 'buckets', 'sweep', 'hotb')
local applied = (storedNumber(m[1], 'shard meta seq') or 0)
local live = (storedNumber(m[2], 'shard meta live') or 1)
local hotEvents = (storedNumber(m[3], 'shard meta hot') or 0)
local buckets = (storedNumber(m[4], 'shard meta buckets') or 0)
local sweep = (storedNumber(m[5], 'shard meta sweep') or -1)
local hotFilled = (storedNumber(m[6], 'shard meta hotb') or 0)
local seq = applied

-- Every number above `applied` in the call must follow on without a gap (or the gap be skippable).
local skipped = {}
local expect = applied
local anyOld = false
local seqs, lives = {}, {}
for i = 1, n do
  local s, l = struct.unpack('<dd', ARGV[9 + i])
  seqs[i] = s
  lives[i] = l
  if s > expect then
    if s > expect + 1 then
      if s - 1 > skipTo then return { 'w', applied } end
      skipped[#skipped + 1] = expect + 1
      skipped[#skipped + 1] = s - 1
    end
    expect = s
  else
    anyOld = true
  end
end
local skipKey = base .. 'skip'
if #skipped > 0 then redis.call('HSET', skipKey, unpack(skipped)) end
-- Skipped ranges (first -> last), read only when a number at or below `applied` comes.
local ranges = nil
if anyOld then
  ranges = {}
  local all = redis.call('HGETALL', skipKey)
  for i = 1, #all, 2 do ranges[#ranges + 1] = { tonumber(all[i]), tonumber(all[i + 1]), all[i] } end
end
local function lateRange(s)
  for _, r in ipairs(ranges) do
    if s >= r[1] and s <= r[2] then return r end
  end
  return nil
end

--- @include _members

local cache = {}
-- Buckets whose value in `cache` is still to be written (_bucket.lua): one HSET each at the end.
local dirty = {}
-- No bucket is assumed absent here (_bucket.lua): every new one is inserted with HSETNX at once.
local optimistic, refsOf = nil, nil
local results = { 'o' }
-- _bucket.lua appends a message's values to `out`: here, the one flat reply.
local out = results
local o = 1
local inserted = 0
for r = 1, n do
  local mySeq, addresses = seqs[r], ARGV[9 + r]
  live = lives[r]
  local isNew = false
  if mySeq > applied then
    isNew = true
    applied = mySeq
  elseif ranges then
    local range = lateRange(mySeq)
    if range then
      isNew = true
      redis.call('HDEL', skipKey, range[3])
    end
  end
  if isNew then inserted = inserted + 1 end
  seq = applied
  local stored, packed = nil, nil
  if isNew then
    stored = tostring(mySeq % WRAP)
    packed = packMember(mySeq)
  end
  local head = o
  -- Room for the message's header (position, hot, count), written once its values are known;
  -- filled now so that the values land in the table's array part, not its hash part.
  results[head + 1] = r
  results[head + 2] = 0
  results[head + 3] = 0
  o = head + 3
  local hot = 0
  local at = 17
  local stop = #addresses
  while at <= stop do
    local key, field, readFirst
    key, field, readFirst, at = bucketAt(addresses, at)
    local ck = key .. field
--- @include _bucket
  end
  if o > head + 3 or hot > 0 then
    results[head + 2] = hot
    results[head + 3] = o - head - 3
  else
    results[head + 3] = nil
    results[head + 2] = nil
    results[head + 1] = nil
    o = head
  end
end

for ck, key in pairs(dirty) do
  local value = cache[ck]
  if value then redis.call('HSET', key, string.sub(ck, -2), value) end
end

-- The sweep: this shard's bucket hashes (k:<h> for h = me, me + N, ...), paced to go round once
-- per window's worth of messages but never faster than one hash a message, once the first
-- generation has left the window (live > 1).
if live > 1 and inserted > 0 then
  -- Hashes h < shards with h mod units in [firstUnit, firstUnit + unitCount).
  local rest = shards % units - firstUnit
  if rest < 0 then rest = 0 end
  if rest > unitCount then rest = unitCount end
  local count = math.floor(shards / units) * unitCount + rest
  local perWindow = applied - live + 1
  if perWindow < 256 then perWindow = 256 end
  -- At most one hash a message (index-1.lua says why).
  if perWindow < count then perWindow = count end
  local steps = count > 0 and math.ceil(count * inserted / perWindow) or 0
  if steps > count then steps = count end
  if sweep < 0 then sweep = 0 end
  for _ = 1, steps do
    local h = math.floor(sweep / unitCount) * units + firstUnit + sweep % unitCount
    local key = base .. 'k:' .. h
    local all = redis.call('HGETALL', key)
    -- One HDEL and one HSET a hash, not one call a field.
    local dead, rewritten = {}, {}
    for j = 1, #all, 2 do
      local kept, size, changed = liveMembers(all[j + 1])
      if size == 0 then
        dead[#dead + 1] = all[j]
        buckets = buckets - 1
      elseif changed then
        rewritten[#rewritten + 1] = all[j]
        rewritten[#rewritten + 1] = kept
      end
    end
    if #dead > 0 then redis.call('HDEL', key, unpack(dead)) end
    if #rewritten > 0 then redis.call('HSET', key, unpack(rewritten)) end
    sweep = (sweep + 1) % count
  end
  -- Skipped ranges wholly below the live bound can never come late any more.
  if ranges == nil then
    ranges = {}
    local all = redis.call('HGETALL', skipKey)
    for i = 1, #all, 2 do ranges[#ranges + 1] = { tonumber(all[i]), tonumber(all[i + 1]), all[i] } end
  end
  for _, r in ipairs(ranges) do
    if r[2] < live then redis.call('HDEL', skipKey, r[3]) end
  end
end

redis.call('HSET', meta, 'seq', applied, 'live', live, 'hot', hotEvents, 'buckets', buckets, 'sweep', sweep,
  'hotb', hotFilled)
return results
