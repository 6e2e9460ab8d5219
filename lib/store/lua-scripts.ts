// The limit store's Lua scripts: each runs atomically inside Redis (or Upstash).

// KEYS[1] = key; ARGV = json, version, ttl. Compares versions inside Redis, atomically.
export const SET_IF_NEWER = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, decoded = pcall(cjson.decode, current)
  if ok and type(decoded) == 'table' and tonumber(decoded.v) and tonumber(decoded.v) >= tonumber(ARGV[2]) then
    return 0
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[3]))
return 1`;

export const ALLOCATE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local floor = tonumber(ARGV[1])
if current < floor then current = floor end
local last = current + tonumber(ARGV[2])
redis.call('SET', KEYS[1], last, 'EX', tonumber(ARGV[3]))
return last`;

// A fair lock: KEYS = holder (a string that expires with its lease), queue (waiters by ticket),
// alive (each waiter's last sign of life, Unix ms), ticket counter.
// LOCK_TURN: ARGV = token, ticket (0 when it has none yet), lease ms, alive ms, now (Unix ms).
// Joins the queue (or keeps its place), forgets waiters that stopped asking, and takes the lock
// when it is free and this waiter is first. Returns { held (1/0), waiters ahead, ticket }.
export const LOCK_TURN = `
local token = ARGV[1]
local ticket = tonumber(ARGV[2])
local holder = redis.call('GET', KEYS[1])
if holder == token then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {1, 0, ticket}
end
if not redis.call('ZSCORE', KEYS[2], token) then
  if ticket <= 0 then ticket = redis.call('INCR', KEYS[4]) end
  redis.call('ZADD', KEYS[2], ticket, token)
end
redis.call('ZADD', KEYS[3], tonumber(ARGV[5]) + tonumber(ARGV[4]), token)
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[5])) do
  redis.call('ZREM', KEYS[2], gone)
  redis.call('ZREM', KEYS[3], gone)
end
for i = 2, 4 do redis.call('PEXPIRE', KEYS[i], 86400000) end
local ahead = redis.call('ZRANK', KEYS[2], token)
if holder or ahead > 0 then return {0, ahead, ticket} end
redis.call('SET', KEYS[1], token, 'PX', ARGV[3])
redis.call('ZREM', KEYS[2], token)
redis.call('ZREM', KEYS[3], token)
return {1, 0, ticket}`;

// KEYS[1] = holder; ARGV = token, lease ms. Extends the lease only if the token still holds it.
export const LOCK_RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

// KEYS = holder, queue, alive; ARGV[1] = token. Releases the lock if held, or leaves the queue.
export const LOCK_RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 0`;

// KEYS = holder, hash; ARGV = token, field, JSON value, ttl seconds. Sets the field only while
// the token holds the lock: a holder whose lease ran out cannot record anything more.
export const HSET_IF_HOLDER = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[4]))
return 1`;

export const HGETALL = `return redis.call('HGETALL', KEYS[1])`;

export const INCR = `
local value = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]))
return value`;

// The check-and-count of one request, as a Lua function over KEYS[base + 1 ..] (burst set, then
// counters) and ARGV[base + 1 ..] (now, member, burst limit, burst window, then limit and expiry
// in Unix ms per counter). Returns the exceeded index (-1 = counted), the oldest burst entry and
// the use of each window.
const CONSUME_FN = `
local function consume(kb, ab)
  local now = tonumber(ARGV[ab + 1])
  local window = tonumber(ARGV[ab + 4])
  local burst = KEYS[kb + 1]
  redis.call('ZREMRANGEBYSCORE', burst, '-inf', now - window)
  local used = { redis.call('ZCARD', burst) }
  local exceeded = -1
  if used[1] >= tonumber(ARGV[ab + 3]) then exceeded = 0 end
  local n = #KEYS - kb
  for i = 2, n do
    used[i] = tonumber(redis.call('GET', KEYS[kb + i]) or '0')
    if exceeded < 0 and used[i] >= tonumber(ARGV[ab + 3 + 2 * (i - 1)]) then exceeded = i - 1 end
  end
  if exceeded < 0 then
    redis.call('ZADD', burst, now, ARGV[ab + 2])
    redis.call('PEXPIRE', burst, window)
    used[1] = used[1] + 1
    for i = 2, n do
      used[i] = redis.call('INCR', KEYS[kb + i])
      redis.call('PEXPIREAT', KEYS[kb + i], tonumber(ARGV[ab + 4 + 2 * (i - 1)]))
    end
  end
  local oldest = redis.call('ZRANGE', burst, 0, 0, 'WITHSCORES')
  local result = { exceeded, tonumber(oldest[2] or '-1') }
  for i = 1, #used do result[#result + 1] = used[i] end
  return result
end
`;

export const CONSUME = `${CONSUME_FN}
return consume(0, 0)`;

// The hot path's one round trip: reads the records (key record first), and counts the request
// only when the key record is there, not revoked, and of the expected sheet and account.
// KEYS: records, then the consume keys. ARGV: record count, sheet id, user id, consume args.
// Returns { counted (1/0), records..., consume result... }.
export const AUTHORIZE = `${CONSUME_FN}
local n = tonumber(ARGV[1])
local out = { 0 }
for i = 1, n do out[i + 1] = redis.call('GET', KEYS[i]) end
local ok, key = pcall(cjson.decode, out[2] or 'null')
if not (ok and type(key) == 'table' and key.revoked == false and key.sheetId == ARGV[2] and key.userId == ARGV[3]) then
  return out
end
out[1] = 1
for _, x in ipairs(consume(n, 3)) do out[#out + 1] = x end
return out`;

// KEYS: burst set, then counters. ARGV: now, burst window. Same answer shape as CONSUME.
export const PEEK = `
local from = '(' .. string.format('%d', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local used = { redis.call('ZCOUNT', KEYS[1], from, '+inf') }
for i = 2, #KEYS do used[i] = tonumber(redis.call('GET', KEYS[i]) or '0') end
local oldest = redis.call('ZRANGEBYSCORE', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
local result = { -1, tonumber(oldest[2] or '-1') }
for i = 1, #used do result[#result + 1] = used[i] end
return result`;

export const REFUND = `
redis.call('ZREM', KEYS[1], ARGV[1])
for i = 2, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1`;

// One request's entry in the ledger (lib/usage/usage-ledger.ts), all of it or none. KEYS: the
// ledger. ARGV: the number of counters, then field and amount of each counter, then field and
// Unix ms of each stamp; a stamp keeps the latest time it was given (a key's last use).
export const ADD_TO_LEDGER = `
local counters = tonumber(ARGV[1])
local i = 2
for _ = 1, counters do
  redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
  i = i + 2
end
while i < #ARGV do
  if tonumber(ARGV[i + 1]) > tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0') then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
  i = i + 2
end
return 1`;

// The usage ledger (lib/usage/usage-ledger.ts). KEYS: the ledger, the set of sealed batches,
// the new batch's key. Moves the ledger's counts into the new batch (when there are any) and
// answers every batch not yet rolled up, in one step: a count lands either before the move or
// in the ledger after it, never in between.
export const SEAL_USAGE = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('RENAME', KEYS[1], KEYS[3])
  redis.call('SADD', KEYS[2], KEYS[3])
end
return redis.call('SMEMBERS', KEYS[2])`;
