--[[
  query: the read-only half of index, for the HTTP API's /v1/check. Nothing is written: no
  sequence number is taken, the clock does not move, nothing is inserted or swept.

  KEYS[1]  <base>meta (hash; reads live)
  ARGV[1]  base     ARGV[2] n, the number of requests     ARGV[3] maxBucketSize
  then per request: idShard, idField, nkeys, nkeys x (shard, field)
  Returns one array per request:
    {"d", verdict}                    decided before: its stored verdict (JSON)
    {"u", hot, s1, h1, s2, h2 ...}    unseen (or undecided): how many of its buckets are full,
        and every live member of its buckets (sequence number, shared buckets), unranked: the
        client ranks them as the memory store does (rankCandidates).
  A bucket holds at most maxBucketSize members, so a reply is bounded by that x nkeys.
]]
local meta = KEYS[1]
local base = ARGV[1]
local n = tonumber(ARGV[2])
local live = tonumber(redis.call('HGET', meta, 'live')) or 1
local maxBucket = tonumber(ARGV[3])
local results = {}
local p = 4
for r = 1, n do
  local idShard, idField, nkeys = ARGV[p], ARGV[p + 1], tonumber(ARGV[p + 2])
  p = p + 3
  local known = tonumber(redis.call('HGET', base .. 'k:' .. idShard, idField))
  if known and known < live then known = nil end
  local decided = nil
  if known then decided = redis.call('HGET', base .. 'v:' .. math.floor(known / 64), known % 64) end
  if decided then
    results[r] = { 'd', decided }
    p = p + 2 * nkeys
  else
    local bound = known or math.huge
    local hits, order, count, hot = {}, {}, 0, 0
    for _ = 1, nkeys do
      local v = redis.call('HGET', base .. 'k:' .. ARGV[p], ARGV[p + 1])
      p = p + 2
      if v then
        local size = 0
        for s in string.gmatch(v, '%d+') do
          local x = tonumber(s)
          if x >= live then
            size = size + 1
            if x < bound then
              local h = hits[x]
              if h then
                hits[x] = h + 1
              else
                hits[x] = 1
                count = count + 1
                order[count] = x
              end
            end
          end
        end
        if size >= maxBucket then hot = hot + 1 end
      end
    end
    local out = { 'u', hot }
    for x = 1, count do
      out[2 * x + 1] = order[x]
      out[2 * x + 2] = hits[order[x]]
    end
    results[r] = out
  end
end
return results
