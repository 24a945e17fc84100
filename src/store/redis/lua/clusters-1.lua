--[[
  clusters: a page of current stories (clusters of two or more), from the story indexes cs (score:
  size) and cr (score: last seen) that commit-1.lua keeps (the HTTP API's GET /v1/clusters).
  Ties go newest root first (the members are 15-digit root sequence numbers).

  KEYS[1]  <base>meta (the epoch; and the slot)
  ARGV[1]  base     ARGV[2] cluster shards     ARGV[3] order: size | recent
  ARGV[4]  since (epoch ms: last seen at or after)            ARGV[5] cursor     ARGV[6] limit
  last ARGV: the namespace epoch the client opened it with (lua/_epoch.lua)
  Returns {next, cluster1 ..., clusterk}: next is the cursor of the next page (-1: none), a
  position in the order over every story (in size order the clusters before `since` are skipped
  but counted; in recent order they all come last); each cluster as JSON {i, z, f, l, t}.
  Errors: DOPPEL_ARGS (lua/_errors.lua), then DOPPEL_DATA_LOST (lua/_epoch.lua), before anything
  is read.
]]
--- @include _errors
if #ARGV ~= 7 or (ARGV[3] ~= 'size' and ARGV[3] ~= 'recent') or tonumber(ARGV[4]) == nil then
  return fail('ARGS', 'clusters', #ARGV .. ' arguments, order ' .. tostring(ARGV[3]))
end
--- @include _epoch
local lost = epochLost(KEYS[1], ARGV[#ARGV])
if lost then return lost end
local base = ARGV[1]
local cshards = tonumber(ARGV[2])
local order = ARGV[3]
local since = tonumber(ARGV[4])
local cursor = tonumber(ARGV[5])
local limit = tonumber(ARGV[6])
local live, last = 0, 0

--- @include _verdict
--- @include _cluster

local out = { -1 }
local function add(member)
  local root = tonumber(member)
  local c = clusterGet(root)
  if c then out[#out + 1] = cjson.encode({ i = c.i, z = c.z, f = c.f, l = c.l, t = c.t }) end
end

if order == 'recent' then
  local page = redis.call('ZREVRANGEBYSCORE', base .. KEY_BY_RECENCY, '+inf', since, 'LIMIT', cursor, limit)
  for _, member in ipairs(page) do add(member) end
  if cursor + limit < redis.call('ZCOUNT', base .. KEY_BY_RECENCY, since, '+inf') then out[1] = cursor + limit end
  return out
end

local total = redis.call('ZCARD', base .. KEY_BY_SIZE)
local at = cursor
local found = 0
local chunk = math.max(limit * 4, 64)
while at < total and found < limit do
  local members = redis.call('ZREVRANGE', base .. KEY_BY_SIZE, at, at + chunk - 1)
  if #members == 0 then break end
  for _, member in ipairs(members) do
    at = at + 1
    local seen = tonumber(redis.call('ZSCORE', base .. KEY_BY_RECENCY, member))
    if seen and seen >= since then
      add(member)
      found = found + 1
      if found >= limit then break end
    end
  end
end
if at < total then out[1] = at end
return out
