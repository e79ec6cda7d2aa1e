/**
 * The Lua scripts of `RateLimitsRedis`. Each reads Redis' own clock (`TIME`), so the
 * processes' clocks never meet; each runs atomically.
 *
 * Per limited key K (a scope's bucket) Redis holds:
 * - K: the permits, a sorted set of `holder|id` scored by when each stops counting
 *   (a lease's end while its attempt runs, its release + the window after);
 * - K:queue: the waiters, `holder|id` scored by their ticket (K:tickets counts them),
 *   and K:seen, when each last asked; K:grants counts the permits granted.
 * And per process (holder) a liveness key, `live:<holder>`, with a short TTL that the
 * process refreshes while it runs. A lease whose holder's liveness key is gone is
 * treated as released now (it counts one more window, then goes); a waiter whose
 * holder is gone, or who stopped asking, leaves the queue when it reaches the head.
 * @internal
 */

const NOW = `
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

/**
 * KEYS: per slot K, K:queue, K:seen, K:tickets, K:grants; then the caller's liveness key.
 * ARGV: member, liveness key prefix (whole), leaseMs, windowMs, pollMs, livenessTtlMs,
 * valid until (Redis ms), staleMs, graceMs, then each slot's limit.
 * Returns {1, ticket, grant} when granted, {0, waitMs} to ask again, {-1} when it arrived late (nothing done).
 */
export const ACQUIRE = NOW + `
if now > tonumber(ARGV[7]) then return {-1} end
local me, lease, window, poll = ARGV[1], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local stale, grace = tonumber(ARGV[8]), tonumber(ARGV[9])
local slots = (#KEYS - 1) / 5
redis.call("SET", KEYS[#KEYS], "1", "PX", ARGV[6])
local function alive(member)
  local holder = string.match(member, "^([^|]+)|")
  return holder ~= nil and redis.call("EXISTS", ARGV[2] .. holder) == 1
end
local wait, ticket = 0, 0
for i = 1, slots do
  local k, q, seen, tickets = KEYS[5 * i - 4], KEYS[5 * i - 3], KEYS[5 * i - 2], KEYS[5 * i - 1]
  local limit = tonumber(ARGV[9 + i])
  redis.call("ZREMRANGEBYSCORE", k, "-inf", "(" .. now)
  for _, m in ipairs(redis.call("ZRANGEBYSCORE", k, "(" .. (now + window), "+inf")) do
    if not alive(m) then redis.call("ZADD", k, now + window, m) end
  end
  while true do
    local head = redis.call("ZRANGE", q, 0, 0)[1]
    if not head or head == me then break end
    if tonumber(redis.call("HGET", seen, head) or "0") >= now - stale and alive(head) then break end
    redis.call("ZREM", q, head)
    redis.call("HDEL", seen, head)
  end
  if not redis.call("ZSCORE", q, me) then redis.call("ZADD", q, redis.call("INCR", tickets), me) end
  redis.call("HSET", seen, me, now)
  for j = 1, 4 do redis.call("PEXPIRE", KEYS[5 * i - 5 + j], lease + window) end
  local held = redis.call("ZCARD", k)
  local rank = redis.call("ZRANK", q, me)
  -- Waiters ahead that have not asked within the grace (a lagging process) do not hold a free permit back:
  -- they keep their place and are served when they ask again.
  if rank > 0 and rank <= 256 then
    local active = 0
    for _, t in ipairs(redis.call("HMGET", seen, unpack(redis.call("ZRANGE", q, 0, rank - 1)))) do
      if t and tonumber(t) >= now - grace then active = active + 1 end
    end
    rank = active
  end
  if i == 1 then ticket = tonumber(redis.call("ZSCORE", q, me)) end
  if held + rank >= limit then
    local w = math.min(poll * (1 + math.floor(rank / limit)), grace / 2)
    if held >= limit then
      local first = tonumber(redis.call("ZRANGE", k, 0, 0, "WITHSCORES")[2])
      if first - now <= window then w = math.max(1, first - now + 1) end
    end
    if w > wait then wait = w end
  end
end
if wait > 0 then return {0, wait} end
for i = 1, slots do
  redis.call("ZREM", KEYS[5 * i - 3], me)
  redis.call("HDEL", KEYS[5 * i - 2], me)
  redis.call("ZADD", KEYS[5 * i - 4], now + lease, me)
end
local grant = redis.call("INCR", KEYS[5])
redis.call("PEXPIRE", KEYS[5], lease + window)
return {1, ticket, grant}
`

/** KEYS: the slots' K. ARGV: member, windowMs. The permit counts until a window from now. */
export const RELEASE = NOW + `
for _, key in ipairs(KEYS) do
  if redis.call("ZSCORE", key, ARGV[1]) then redis.call("ZADD", key, "XX", now + tonumber(ARGV[2]), ARGV[1]) end
end
return 0
`

/** KEYS: per slot K, K:queue, K:seen. ARGV: member. Its ticket and any permit granted to it, gone. */
export const CANCEL = `
for i = 1, #KEYS, 3 do
  redis.call("ZREM", KEYS[i], ARGV[1])
  redis.call("ZREM", KEYS[i + 1], ARGV[1])
  redis.call("HDEL", KEYS[i + 2], ARGV[1])
end
return 0
`

/** KEYS: the caller's liveness key. ARGV: livenessTtlMs. Returns Redis' clock, in ms. */
export const HEARTBEAT = NOW + `
redis.call("SET", KEYS[1], "1", "PX", ARGV[1])
return now
`

/**
 * KEYS: the budget's count. ARGV: credits, ceiling, valid until (Redis ms).
 * 1 when counted, 0 when it would pass the ceiling, -1 when it arrived late (nothing done).
 */
export const SPEND = NOW + `
if now > tonumber(ARGV[3]) then return -1 end
local spent = tonumber(redis.call("GET", KEYS[1]) or "0")
if spent + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return 0 end
redis.call("INCRBYFLOAT", KEYS[1], ARGV[1])
return 1
`

/** KEYS: the budget's count. ARGV: credits. Never below 0. */
export const REFUND = `
if tonumber(redis.call("INCRBYFLOAT", KEYS[1], -tonumber(ARGV[1]))) < 0 then redis.call("SET", KEYS[1], "0") end
return 0
`
