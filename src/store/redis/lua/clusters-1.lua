--[[
  clusters: a page of current stories (clusters of two or more), from the story indexes cs (score:
  size) and cr (score: last seen) that commit-1.lua keeps (the HTTP API's GET /v1/clusters).
  Ties go newest root first (the members are 15-digit root sequence numbers).

  KEYS[1]  <base>meta (the epoch; and the slot)
  ARGV[1]  base     ARGV[2] cluster shards     ARGV[3] order: size | recent
  ARGV[4]  since (epoch ms: last seen at or after)
  ARGV[5]  after: the score ('' from the start) and ARGV[6] the root of the story the page follows
  ARGV[7]  limit
  last ARGV: the namespace epoch the client opened it with (lua/_epoch.lua)
  Returns {more, root1, score1, cluster1 ..., rootk, scorek, clusterk}: more is 1 when stories
  follow the page; each story's root sequence number and score (its key in the order: the page
  after it starts there) and the cluster as JSON {i, z, f, l, t}. A page by key, not by count:
  stories created between two pages do not shift the second.
  Errors: DOPPEL_ARGS (lua/_errors.lua), then DOPPEL_DATA_LOST (lua/_epoch.lua), before anything
  is read.
]]
--- @include _errors
if #ARGV ~= 8 or (ARGV[3] ~= 'size' and ARGV[3] ~= 'recent') or tonumber(ARGV[4]) == nil
  or tonumber(ARGV[7]) == nil or (ARGV[5] ~= '' and (tonumber(ARGV[5]) == nil or tonumber(ARGV[6]) == nil)) then
  return fail('ARGS', 'clusters', #ARGV .. ' arguments, order ' .. tostring(ARGV[3]))
end
--- @include _epoch
local lost = epochLost(KEYS[1], ARGV[#ARGV])
if lost then return lost end
local base = ARGV[1]
local cshards = tonumber(ARGV[2])
local order = ARGV[3]
local since = tonumber(ARGV[4])
local afterScore = tonumber(ARGV[5])
local afterMember = afterScore and string.format('%015d', tonumber(ARGV[6])) or nil
local limit = tonumber(ARGV[7])
local live, last = 0, 0

--- @include _verdict
--- @include _cluster

local out = { 0 }
local found = 0
local key = order == 'recent' and KEY_BY_RECENCY or KEY_BY_SIZE
-- In recent order `since` bounds the scores; in size order each story's last seen is looked up.
local low = order == 'recent' and since or '-inf'
local high = afterScore and ARGV[5] or '+inf'
local offset = 0
local chunk = math.max(limit * 2, 64)
while true do
  local page = redis.call('ZREVRANGEBYSCORE', base .. key, high, low, 'WITHSCORES', 'LIMIT', offset, chunk)
  if #page == 0 then break end
  offset = offset + #page / 2
  for x = 1, #page, 2 do
    local member, score = page[x], tonumber(page[x + 1])
    -- Ties come in descending member order: those at or before the key's member were listed.
    local listed = afterScore and score == afterScore and member >= afterMember
    local kept = not listed
    if kept and order == 'size' then
      local seen = tonumber(redis.call('ZSCORE', base .. KEY_BY_RECENCY, member))
      kept = seen ~= nil and seen >= since
    end
    if kept then
      if found == limit then
        out[1] = 1
        return out
      end
      local root = tonumber(member)
      local c = clusterGet(root)
      if c then
        found = found + 1
        out[#out + 1] = member
        out[#out + 1] = page[x + 1]
        out[#out + 1] = cjson.encode({ i = c.i, z = c.z, f = c.f, l = c.l, t = c.t })
      end
    end
  end
end
return out
