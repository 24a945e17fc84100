--[[
  members: one page of a cluster's members still in the window, with their verdicts and titles
  (the HTTP API's GET /v1/clusters/{id}; not on the hot path).

  KEYS[1]  <base>meta (hash; reads live and seq)
  ARGV[1]  base     ARGV[2] cluster shards     ARGV[3] idShard     ARGV[4] idField (of the cluster id)
  ARGV[5]  cursor (members to skip)            ARGV[6] limit
  last ARGV: the namespace epoch the client opened it with (lua/_epoch.lua)
  Returns nil when the id is no current or merged cluster's, else
    {total, member1 ..., memberk}: total live members; per member in sequence order its id, its
    verdict (JSON, as read-1.lua's verdict mode gives it) and its title ('' for none).
  Errors: DOPPEL_ARGS (lua/_errors.lua), then DOPPEL_DATA_LOST (lua/_epoch.lua), before anything
  is read.
]]
--- @include _errors
local meta = KEYS[1]
if #ARGV ~= 7 or tonumber(ARGV[5]) == nil or tonumber(ARGV[6]) == nil then
  return fail('ARGS', 'members', #ARGV .. ' arguments, cursor ' .. tostring(ARGV[5]) .. ', limit ' .. tostring(ARGV[6]))
end
--- @include _epoch
local lost = epochLost(KEYS[1], ARGV[#ARGV])
if lost then return lost end
local base = ARGV[1]
local cshards = tonumber(ARGV[2])
local mm = redis.call('HMGET', meta, 'live', 'seq')
local live = (storedNumber(mm[1], 'meta live') or 1)
local last = (storedNumber(mm[2], 'meta seq') or 0)
local cursor = tonumber(ARGV[5])
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
local out = { #members }
for x = cursor + 1, math.min(cursor + limit, #members) do
  local s = members[x]
  local b, slot = blockOf(s)
  local raw = redis.call('HGET', base .. KEY_VERDICT .. b, slot)
  local id = headerOf(s)
  if raw and id then
    out[#out + 1] = id
    out[#out + 1] = verdictForClient(raw, s)
    out[#out + 1] = titleOf(s) or ''
  end
end
return out
