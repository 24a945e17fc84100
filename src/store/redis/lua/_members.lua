--[[
  Bucket values, shared by index-1.lua, query-1.lua and the cluster's buckets-1.lua (pasted in at
  "--- @include _members").
  One member: its sequence number mod 2^32 in decimal (a listpack keeps it as an integer); two or
  more: byte 255, then 4 bytes (little-endian) per member, oldest first. Needs locals `live` (the
  live bound) and `seq` (the last sequence number taken): a live member is the one number in
  [live, seq] with its stored remainder, and expired members, being the oldest, are a prefix.
  Also the bucket addresses argument (keys.ts bucketAddresses); needs local `base`.
]]
local WRAP = 4294967296

-- Is a stored member value (mod 2^32) a live sequence number, i.e. one in [live, seq]?
local function isLive(x)
  return (x - live) % WRAP <= seq - live
end

local function memberAt(v, i)
  local a, b, c, d = string.byte(v, 4 * i + 2, 4 * i + 5)
  return a + b * 256 + c * 65536 + d * 16777216
end

local function packMember(x)
  x = x % WRAP
  return string.char(x % 256, math.floor(x / 256) % 256, math.floor(x / 65536) % 256, math.floor(x / 16777216))
end

-- A bucket value without its expired members (they are the oldest, so a prefix), its size, and
-- whether anything was dropped. nil for an empty bucket.
local function liveMembers(v)
  if string.byte(v, 1) ~= 255 then
    local x = tonumber(v)
    if not x then corrupt('a bucket value is not one doppel writes: ' .. string.sub(v, 1, 40)) end
    if isLive(x) then return v, 1, false end
    return nil, 0, true
  end
  local count = (#v - 1) / 4
  if count % 1 ~= 0 then corrupt('a bucket value of ' .. #v .. ' bytes is not one doppel writes') end
  local cut = 0
  while cut < count and not isLive(memberAt(v, cut)) do cut = cut + 1 end
  if cut == 0 then return v, count, false end
  local left = count - cut
  if left == 0 then return nil, 0, true end
  if left == 1 then return tostring(memberAt(v, cut)), 1, true end
  return '\255' .. string.sub(v, 2 + 4 * cut), left, true
end

-- The key, field and flags (1: read first) of the bucket at `at` in the addresses argument, and
-- where the next one starts (keys.ts bucketAddresses): a byte n, the shard in n decimal digits
-- (the key's own suffix: no number parsing and formatting per key in Lua, which cost twice as
-- much), a flag byte and the 2-byte field.
local kbase = base .. KEY_SHARD
local function bucketAt(addresses, at)
  local n = string.byte(addresses, at)
  return kbase .. string.sub(addresses, at + 1, at + n), string.sub(addresses, at + n + 2, at + n + 3),
    string.byte(addresses, at + n + 1), at + n + 4
end

-- The bucket value with one more (the newest) member: `stored` is its decimal form, `packed` its
-- 4 bytes (both made once per message, not per bucket).
local function withMember(v, size, stored, packed)
  if size == 0 then return stored end
  if size == 1 then return '\255' .. packMember(tonumber(v)) .. packed end
  return v .. packed
end

-- A full bucket (a campaign, store/hot.ts) that takes one more member: its first
-- maxBucket - hotTail members, its newest hotTail - 1, and the new one (packed).
local function withHotMember(v, size, packed, maxBucket, hotTail)
  local from = size - (hotTail - 1)
  if from < maxBucket - hotTail then from = maxBucket - hotTail end
  return '\255' .. string.sub(v, 2, 1 + 4 * (maxBucket - hotTail)) .. string.sub(v, 2 + 4 * from) .. packed
end
