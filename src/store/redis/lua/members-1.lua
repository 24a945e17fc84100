--[[
  members: one page of a cluster's members still in the window, with their verdicts, titles and details
  (the HTTP API's GET /v1/clusters/{id}; not on the hot path).

  KEYS[1]  <base>meta (hash; reads live and seq)
  ARGV[1]  base     ARGV[2] cluster shards     ARGV[3] idShard     ARGV[4] idField (of the cluster id)
  ARGV[5]  after (the page starts after this sequence number; 0: at the first member)
  ARGV[6]  limit
  last ARGV: the namespace epoch the client opened it with (lua/_epoch.lua)
  Returns nil when the id is no current or merged cluster's, else
    {total, more, member1 ..., memberk}: total live members; more 1 when members follow the page;
    per member in sequence order its id and its verdict (JSON with its title and detail, as
    read-1.lua's verdict mode gives it).
  Errors: DOPPEL_ARGS (lua/_errors.lua), then DOPPEL_DATA_LOST (lua/_epoch.lua), before anything
  is read.
]]
--- @include _errors
local meta = KEYS[1]
if #ARGV ~= 7 or tonumber(ARGV[5]) == nil or tonumber(ARGV[6]) == nil then
  return fail('ARGS', 'members', #ARGV .. ' arguments, after ' .. tostring(ARGV[5]) .. ', limit ' .. tostring(ARGV[6]))
end
--- @include _epoch
local lost = epochLost(KEYS[1], ARGV[#ARGV])
if lost then return lost end
local base = ARGV[1]
local cshards = tonumber(ARGV[2])
local mm = redis.call('HMGET', meta, 'live', 'seq')
local live = (storedNumber(mm[1], 'meta live') or 1)
local last = (storedNumber(mm[2], 'meta seq') or 0)
local after = tonumber(ARGV[5])
local limit = tonumber(ARGV[6])

--- @include _verdict
--- @include _cluster

local seq = storedNumber(redis.call('HGET', base .. KEY_SHARD .. ARGV[3], ARGV[4]), 'an id field')
if seq and seq < live and not clusterGet(seq) then seq = nil end
if not seq then return nil end
local root, c = resolve(seq)
local members
if c then
  members = membersGet(root)
else
  local v = verdictOf(seq)
  if not (v and v.r == seq) then return nil end
  members = { seq }
end
-- The first member after `after` (members are in ascending sequence order): a binary search.
local lo, hi = 1, #members + 1
while lo < hi do
  local mid = math.floor((lo + hi) / 2)
  if members[mid] <= after then lo = mid + 1 else hi = mid end
end
local stop = math.min(lo + limit - 1, #members)
local out = { #members, stop < #members and 1 or 0 }
for x = lo, stop do
  local s = members[x]
  local b, slot = blockOf(s)
  local raw = redis.call('HGET', base .. KEY_VERDICT .. b, slot)
  local id = headerOf(s)
  if raw and id then
    out[#out + 1] = id
    out[#out + 1] = verdictForClient(raw, s, true)
  end
end
return out
