-- The namespace's epoch (meta field `epoch`): a random token open-1.lua writes when it creates
-- the namespace. Every call passes the epoch its client opened the namespace with as its LAST
-- argument. A meta without it or with another one means the namespace lost its data while in use
-- (a Redis restart without persistence, FLUSHALL, an eviction, a deleted key): nothing is read or
-- written, the call fails with DOPPEL_DATA_LOST (the client's STORE_DATA_LOST, not retryable),
-- and meta gets a `lost` mark so that every client, also one that opens the namespace later,
-- refuses it until an operator accepts the loss (open-1.lua with reset). Checked first, by every
-- script: a namespace is judged whole or lost in the same atomic step that reads it.
-- One exception: another epoch in a namespace an operator reset (meta `reset`) means this client
-- is older than the reset; it fails the same way but marks nothing (it must reopen).
-- Returns the error reply, or nil when the namespace is whole.
local function epochLost(metaKey, expected)
  local m = redis.call('HMGET', metaKey, 'epoch', 'lost', 'reset')
  if m[1] == expected and not m[2] then return nil end
  local reason = m[2]
  if not reason then
    reason = m[1] and 'epoch changed' or 'epoch missing'
    if m[1] and m[3] then
      reason = 'reset by an operator since this client opened it; restart it'
    else
      reason = redis.call('TIME')[1] .. ': ' .. reason
      redis.call('HSET', metaKey, 'lost', reason)
    end
  end
  return redis.error_reply('DOPPEL_DATA_LOST namespace ' .. metaKey .. ' lost its data while in use (' .. reason .. ')')
end

-- A loss found after the epoch check (a record, block or key of the namespace gone while the
-- namespace says it is there: a deleted key, an eviction): marks meta lost as epochLost does and
-- stops the script with DOPPEL_DATA_LOST. Writes the script made before it stay; the namespace is
-- lost anyway.
local function dataLost(metaKey, what)
  local reason = redis.call('TIME')[1] .. ': ' .. what
  redis.call('HSET', metaKey, 'lost', reason)
  error({ err = 'DOPPEL_DATA_LOST namespace ' .. metaKey .. ' lost its data while in use (' .. reason .. ')' })
end
