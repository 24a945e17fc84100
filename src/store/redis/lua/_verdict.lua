--[[
  Stored verdicts, shared by every script that reads or writes them (pasted in at
  "--- @include _verdict"). Needs local `base`. A verdict is stored small, because every message
  has one (about 30% are flagged in the news profile, so a flagged verdict's bytes count too):
  - a unique message that is its own cluster's root: the one letter "u";
  - any other: "<kind><method><cluster><root>,<similarity>,<rest>", where kind is u | d | n
    (unique, duplicate, near_duplicate); method is one letter for the engine's methods, "_" for
    none, "*" for another name (then first in rest as "<length>:<name>"); cluster is "o" when the
    cluster id is the message's own id, "d" when it is duplicateOf (the usual case for a flagged
    message), "x" when it is another (then next in rest as "<length>:<id>"); root is the cluster
    root's sequence number, empty when it is the message's own; similarity is empty for none; the
    rest ends with duplicateOf (empty for none), which can hold any character as it comes last.
  e.g. "nhd6147,0.749,b4279~retitle~0" (30 bytes; JSON with one-letter keys took 62). The sequence
  number is the verdict's block and slot, and the event time is in the record, so neither is
  stored again.
]]
-- A block's slots (hash fields of r:, v:, t:, x:) as strings, made once a call: a number passed to
-- redis.call is formatted by Lua's number-to-string conversion each time (~0.2 µs, measured in an
-- EVAL loop), and the scripts pass a slot several times a message.
local SLOT_NAME = {}
for s = 0, BLOCK_SIZE - 1 do SLOT_NAME[s] = tostring(s) end

local KIND_LETTER = { unique = 'u', duplicate = 'd', near_duplicate = 'n' }
local KIND_NAME = { u = 'unique', d = 'duplicate', n = 'near_duplicate' }
local METHOD_LETTER = { minhash = 'h', simhash = 's', imatch = 'i', cosine = 'c', exact = 'e' }
local METHOD_NAME = { h = 'minhash', s = 'simhash', i = 'imatch', c = 'cosine', e = 'exact' }

local function encodeVerdict(kind, seq, root, clusterId, id, dup, sim, method)
  local k = KIND_LETTER[kind]
  if k == 'u' and root == seq and clusterId == id and dup == '' and sim == '' and method == '' then return k end
  local m, rest = '_', ''
  if method ~= '' then
    m = METHOD_LETTER[method]
    if not m then
      m = '*'
      rest = #method .. ':' .. method
    end
  end
  local c = 'o'
  if clusterId ~= id then
    if clusterId == dup then
      c = 'd'
    else
      c = 'x'
      rest = rest .. #clusterId .. ':' .. clusterId
    end
  end
  local r = root ~= seq and root or ''
  local y = sim ~= '' and tostring(tonumber(sim)) or ''
  return k .. m .. c .. r .. ',' .. y .. ',' .. rest .. dup
end

-- A "<length>:<text>" item of a stored verdict at `at`: the text and the position after it.
local function lengthPrefixed(raw, at)
  local colon = string.find(raw, ':', at, true)
  local length = colon and tonumber(string.sub(raw, at, colon - 1))
  if not length or colon + length > #raw then corrupt('a stored verdict is not one doppel writes: ' .. raw) end
  local after = colon + length
  return string.sub(raw, colon + 1, after), after + 1
end

-- The stored verdict of `seq` as a table {k, r, c, d, y, m} (letters as above, r filled in, c nil
-- for the message's own id, names whole), or nil.
local function decodeVerdict(raw, seq)
  if not raw then return nil end
  local v = { k = string.sub(raw, 1, 1), r = seq }
  if raw == 'u' then return v end
  -- Checked as read (a tampered value must never become a verdict): kind, method and cluster
  -- letters, both commas, the numbers between them.
  local m, c = string.sub(raw, 2, 2), string.sub(raw, 3, 3)
  local comma = string.find(raw, ',', 4, true)
  local comma2 = comma and string.find(raw, ',', comma + 1, true)
  if not comma2 or not KIND_NAME[v.k] or not (m == '_' or m == '*' or METHOD_NAME[m])
    or not (c == 'o' or c == 'd' or c == 'x') then
    corrupt('the verdict of ' .. seq .. ' is not one doppel writes: ' .. string.sub(raw, 1, 40))
  end
  if comma > 4 then
    v.r = tonumber(string.sub(raw, 4, comma - 1))
    if not v.r then corrupt('the verdict of ' .. seq .. ' has no root number: ' .. string.sub(raw, 1, 40)) end
  end
  if comma2 > comma + 1 then
    v.y = tonumber(string.sub(raw, comma + 1, comma2 - 1))
    if not v.y then corrupt('the verdict of ' .. seq .. ' has no similarity: ' .. string.sub(raw, 1, 40)) end
  end
  local at = comma2 + 1
  if m == '*' then
    v.m, at = lengthPrefixed(raw, at)
  elseif m ~= '_' then
    v.m = METHOD_NAME[m]
  end
  if c == 'x' then v.c, at = lengthPrefixed(raw, at) end
  if at <= #raw then v.d = string.sub(raw, at) end
  if c == 'd' then v.c = v.d end
  return v
end

-- Id and event time of a stored record (store.ts writeRecordBlob): byte 1 has bit 7 set when the time
-- is a double (else 6 bytes, unsigned milliseconds) and the id's length in its low 7 bits (127: a
-- u16le length follows); then the time, the id, the signatures.
local function recordHeader(blob)
  local b0 = string.byte(blob, 1)
  local at, len = 2, b0 and b0 % 128
  if len == 127 and #blob >= 3 then
    len = struct.unpack('<H', blob, 2)
    at = 4
  end
  -- A blob shorter than its header says is not one doppel wrote.
  if not len or #blob < at - 1 + (b0 >= 128 and 8 or 6) + len then
    corrupt('a stored record is shorter than its header says (' .. #blob .. ' bytes)')
  end
  local ts
  if b0 >= 128 then
    ts = struct.unpack('<d', blob, at)
    at = at + 8
  else
    local a, b, c, d, e, f = string.byte(blob, at, at + 5)
    ts = a + b * 256 + c * 65536 + d * 16777216 + (e + f * 256) * 4294967296
    at = at + 6
  end
  -- Third: where the record (engine/record-bytes.ts) starts, after the id.
  return string.sub(blob, at, at + len - 1), ts, at + len
end

-- The verdict as the client reads it (store.ts parseVerdict): JSON with the kind's full name, its
-- sequence number, event time and, when `withDetail` (the read routes; replays in index and query
-- need neither), its title (h) and detail (x, engine/detail.ts's form), each absent for none.
-- With `withExact` (replays in index and query), the exact hash of its stored record as 16 hex
-- digits (e), so the client can tell a replay from an id reused with other content; the record is
-- read for the event time anyway.
local function verdictForClient(raw, seq, withDetail, withExact)
  local v = decodeVerdict(raw, seq)
  v.k = KIND_NAME[v.k]
  v.s = seq
  if withDetail then
    local b, slot = math.floor(seq / BLOCK_SIZE), seq % BLOCK_SIZE
    local title = redis.call('HGET', base .. KEY_TITLE .. b, slot)
    if title then v.h = title end
    local detail = redis.call('HGET', base .. KEY_DETAIL .. b, slot)
    if detail then v.x = detail end
  end
  local blob = redis.call('HGET', base .. KEY_RECORD .. math.floor(seq / BLOCK_SIZE), seq % BLOCK_SIZE)
  -- A record and its verdict leave together (their blocks are deleted at once, below the live
  -- bound): a verdict without its record means keys were deleted or evicted.
  if not blob then dataLost(KEYS[1], 'the record of ' .. seq .. ' is gone while its verdict is there') end
  local _id, ts, start = recordHeader(blob)
  v.t = ts
  if withExact and start then
    -- engine/record-bytes.ts: version, flags, u16 tokens, u8 lang length, lang, then the exact
    -- hash as two little-endian u32 (hi, lo).
    local at = start + 5 + (string.byte(blob, start + 4) or 0)
    local e1, e2, e3, e4, e5, e6, e7, e8 = string.byte(blob, at, at + 7)
    if e8 then v.e = string.format('%02x%02x%02x%02x%02x%02x%02x%02x', e4, e3, e2, e1, e8, e7, e6, e5) end
  end
  return cjson.encode(v)
end
