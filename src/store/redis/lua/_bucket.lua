--[[
  One bucket of a message, shared by index-1.lua and the cluster's buckets-1.lua: pasted INSIDE
  their per-bucket loop at "--- @include _bucket" (inline, not a function: this is the path of
  every bucket of every message). It inserts the message into the bucket (or only reads it) and
  appends the bucket's live members as they were before to out[o + 1].
  Reads locals `key`, `field`, `readFirst` (the bucket's flag byte) and `ck` (its slot in `cache`
  and `dirty`: one value per distinct bucket of the call), set by the includer from its argument,
  and `isNew`, `stored`, `packed` (the message's sequence number as stored
  and packed; unused when not new), `cache` (the call's copies of the buckets it touched),
  `dirty` (cache entries whose value is still to be written: written once, at the end of the
  call, however many messages of the batch joined the bucket; HSETNX and HDEL are not deferred),
  `maxBucket`, `hotTail`; updates `o`, `hot` (the message's full buckets), `buckets`,
  `hotEvents`, `hotFilled`. Needs _members included before it (liveMembers, withMember).
  `optimistic` (index-1.lua; nil in buckets-1.lua): buckets assumed absent, cache index -> the
  first message that joined them; `refsOf`: their later references, per cache index a list of
  (message, index of the value it was given in its reply or false, flag) triples, for
  index-1.lua's fixBucket; `r`: the message's position in the call.
]]
-- The call's copy of this bucket: its value as Redis holds it now (false: absent), or nil when
-- the call has not touched it. Every bucket the call reads or writes is kept (not only topic
-- buckets): near-duplicates of one story often fall in one batch, and a later copy then finds
-- the buckets an earlier one wrote here instead of an HSETNX that fails and an HGET.
local v = cache[ck]
-- Most buckets are new (a message's own band values): one HSETNX inserts it and says so (or,
-- when the call knows the bucket is absent, one HSET). Topic-term buckets (flag 1) are mostly
-- there already, often full: read them first. A bucket the client wrote before (flag 2, a hint:
-- near-duplicates share most buckets) is read first too, and inserted as new when absent.
-- With `optimistic` (index-1.lua), a bucket neither the call nor, by its flag, this client has
-- seen is assumed absent, as nearly all are (31 of 79,000 were not on bench:peers' stream: buckets
-- of another client or of a hint the client forgot): no call now, and its value is written at the
-- end of the call with one HSETNX, which checks the assumption. A bucket that copies later in the
-- batch join costs that one call instead of an HSETNX now and an HSET at the end; when the HSETNX
-- finds the bucket there, fixBucket redoes its references from the value it holds.
local inserted = false
local firstRef = false
if isNew and readFirst ~= 1 and not v then
  if v == false then
    dirty[ck] = key
    inserted = true
  elseif readFirst == 2 then
    v = redis.call('HGET', key, field)
    if not v then
      dirty[ck] = key
      inserted = true
    end
  elseif optimistic then
    dirty[ck] = key
    optimistic[ck] = r
    firstRef = true
    inserted = true
  elseif redis.call('HSETNX', key, field, stored) == 1 then
    inserted = true
  end
end
-- Where this reference's value went in its message's reply (false: none).
local placed = false
if inserted then
  buckets = buckets + 1
  cache[ck] = stored
else
  if v == nil then v = redis.call('HGET', key, field) end
  local raw = v
  local size, changed = 0, false
  if v then v, size, changed = liveMembers(v) end
  if v then
    o = o + 1
    out[o] = v
    placed = o
  end
  if size >= maxBucket then hot = hot + 1 end
  -- What the bucket holds after this message (nil: unchanged), for the call's copy.
  local written = nil
  if isNew and size < maxBucket then
    written = withMember(v, size, stored, packed)
    dirty[ck] = key
    if v == nil and not changed then buckets = buckets + 1 end
    if size == maxBucket - 1 then hotFilled = hotFilled + 1 end
  elseif isNew and hotTail > 0 then
    hotEvents = hotEvents + 1
    written = withHotMember(v, size, packed, maxBucket, hotTail)
    dirty[ck] = key
  else
    if isNew then hotEvents = hotEvents + 1 end
    if changed then
      if size == 0 then
        -- An assumed-absent bucket is not in Redis yet: the end of the call checks and writes it.
        if not (optimistic and optimistic[ck]) then redis.call('HDEL', key, field) end
        buckets = buckets - 1
        written = false
      else
        dirty[ck] = key
        written = v
      end
    end
  end
  if written == nil then cache[ck] = raw else cache[ck] = written end
end
if optimistic and not firstRef and optimistic[ck] then
  local refs = refsOf[ck]
  if not refs then
    refs = {}
    refsOf[ck] = refs
  end
  local k = #refs
  refs[k + 1] = r
  refs[k + 2] = placed
  refs[k + 3] = readFirst
end
