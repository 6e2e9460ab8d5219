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

export const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

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
