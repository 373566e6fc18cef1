/**
 * The pace's scripts (pace.ts). Three keys: the schedule (the next free slot, ms since the
 * epoch), the requests on their way while a limit is learned (`flight`, a sorted set of their
 * slots: one added per slot given, the oldest taken away per answer heard, none kept over a
 * minute) and what was learned of the API's limit, a hash:
 * - `limit`, as advertised;
 * - `start`, when the current window's first request was sent, `exact` 1 when its own answer
 *   said so (Remaining = limit - 1) rather than a later one (a window begun unseen: it began
 *   earlier);
 * - `left`, the least Remaining heard in the window, and `leftAt` when that answer was heard;
 * - `reset`, when the window ends as a 429 said it; `over`, until when nothing may be sent (a
 *   window spent, a 429); `probe`, when a request went to learn a window's end (0 once answered);
 *   `doubt` 1 when the current window's end is in doubt (a 429's, or it outlasted its length);
 * - the window's length: `hi`, the shortest time seen between two windows' first requests
 *   (a window begins with the first request after the last one ended, so never less than its
 *   length), else `guess`, from a 429's reset (and a second more); `window`, the one used.
 *
 * Every time is the Redis server's clock when ARGV[2] is '1' (production): the client's times
 * are moved by how far its clock is from the server's at the call, so that processes on hosts
 * whose clocks disagree share one timeline; an error of the call's one-way latency, not of the
 * hosts' skew. Tests pass their own clock with ARGV[2] ''.
 */

/** ARGV[1] the client's now, ARGV[2] '1' for the server's clock: `now` and `shift`. */
const CLOCK = `
local now = tonumber(ARGV[1])
local shift = 0
if ARGV[2] == '1' then
  local t = redis.call('TIME')
  local server = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  shift = server - now
  now = server
end
`;

/** SET the schedule to `following`, kept a minute past it. PX takes whole numbers only. */
const SET_SLOT = `
local function setSlot(following)
  redis.call('SET', KEYS[1], string.format('%.3f', following), 'PX',
    math.ceil(math.max(1000, following - now + 60000)))
end
`;

/**
 * KEYS: schedule, learned, flight. ARGV: now, clock, interval ms ('' to use what was learned),
 * margin.
 * Reserves the next slot: { the whole ms to wait for it, its member in `flight` ('' when not
 * counted there) }; a negative wait gives no slot: ask again after that many ms.
 * What is left of the current window is the least Remaining heard less the requests on their
 * way (their answers lag behind; a request counted twice, before its answer and in the
 * Remaining of another, only makes it less).
 * Once the window's length is known, slots are spaced by it over the limit (and the margin);
 * within the current window, what is left is spread over what remains of it (another client of
 * the same token spends it too), and nothing is given before its end once nothing is left.
 * While the length is unknown, slots are given without spacing as long as something is left.
 * Once the API said a window is spent and it should have ended (or its end is unknown, or its
 * length is a guess), a single request goes to see: a new window, or a 429 that says when it
 * ends.
 */
export const RESERVE = `
${CLOCK}
${SET_SLOT}
local h = KEYS[2]
local interval = tonumber(ARGV[3])
local slot = tonumber(redis.call('GET', KEYS[1]) or '0')
if slot < now then slot = now end
local limit = 0
local window = 0
if interval == nil then
  interval = 0
  local f = redis.call('HMGET', h, 'limit', 'window', 'start', 'left', 'over', 'probe', 'reset', 'hi', 'doubt')
  limit = tonumber(f[1] or '0')
  window = tonumber(f[2] or '0')
  local start = tonumber(f[3] or '-1')
  local left = tonumber(f[4] or f[1] or '0')
  if limit > 0 and window > 0 then
    interval = window * tonumber(ARGV[4]) / limit
    local reset = tonumber(f[7] or '0')
    local ends = start + window
    if reset > 0 then ends = reset end
    if start >= 0 and slot < ends then
      local heard = left - redis.call('ZCOUNT', KEYS[3], '-inf', '(' .. ends)
      if heard <= 0 then slot = ends
      elseif (ends - slot) / heard > interval then interval = (ends - slot) / heard end
    end
    if start >= 0 and slot >= ends and (f[9] == '1' or tonumber(f[8] or '0') == 0) then
      -- The window should be over, yet no answer showed the next one, and its end is in doubt
      -- (a 429's, a window that outlasted its length) or its length only a 429's guess: a single
      -- request goes to see (its 429 says when it ends), the others wait for its answer.
      local probe = tonumber(f[6] or '0')
      if probe > 0 and now < probe + 10000 then return { -250, '' } end
      redis.call('HSET', h, 'probe', string.format('%.3f', slot))
    end
  elseif limit > 0 then
    local over = tonumber(f[5] or '0')
    if over > now then return { -math.ceil(over - now), '' } end
    if left - redis.call('ZCARD', KEYS[3]) <= 0 then
      -- One request at a time learns the end: the next once its answer is heard (LEARN), or
      -- after a while if it never is.
      local probe = tonumber(f[6] or '0')
      if left > 0 or (probe > 0 and now < probe + 10000) then return { -250, '' } end
      redis.call('HSET', h, 'probe', string.format('%.3f', slot))
    end
  end
end
setSlot(slot + interval)
if limit > 0 then
  local n = redis.call('HINCRBY', h, 'n', 1)
  local member = string.format('%.3f:%d', slot, n)
  redis.call('ZADD', KEYS[3], string.format('%.3f', slot), member)
  redis.call('PEXPIRE', KEYS[3], 60000)
  return { math.ceil(slot - now), member }
end
return { math.ceil(slot - now), '' }
`;

/**
 * KEYS: learned, flight. ARGV: member. A slot given and not used: no request on its way for it,
 * and, if it was the one to learn a window's end, another may be.
 */
export const RELEASE = `
local slot = string.match(ARGV[1], '^[^:]+')
if redis.call('HGET', KEYS[1], 'probe') == slot then redis.call('HSET', KEYS[1], 'probe', 0) end
return redis.call('ZREM', KEYS[2], ARGV[1])
`;

/**
 * KEYS: schedule, learned, flight. ARGV: now, clock, limit, remaining, reset ms ('' when not
 * said: Laravel says it on a 429 only, other APIs on every answer), sent ms (when the answered
 * request left), heard ms, '1' for a 429, how many requests the process sent before it knew of
 * a limit and has no answer to yet, '1' when this answer's request is on its way in `flight`
 * (not one of those).
 * Records one answer. A Remaining of 0 holds everyone until the window's end when its length
 * or reset is known, else for a second from its start, after which one request goes to learn
 * its end; a 429 until its reset (or, said nothing, until the window's end, else for as long as
 * the window has lasted, a second at least). An answer to a request sent before the current
 * window began is late and teaches nothing of it.
 * Returns { told, window, held }: told 1 when the limit is new, 2 when the window's length was
 * first known; held, the ms until nothing may be sent no more (0: no hold), which the process
 * that heard the answer keeps for the requests whose turn came before it (pace.ts holdHeard).
 */
export const LEARN = `
${CLOCK}
${SET_SLOT}
local h = KEYS[2]
local limit = tonumber(ARGV[3])
local remaining = tonumber(ARGV[4])
local resetAt = tonumber(ARGV[5])
if resetAt ~= nil then resetAt = resetAt + shift end
local sentAt = tonumber(ARGV[6]) + shift
local heardAt = tonumber(ARGV[7]) + shift
local refused = ARGV[8] == '1'
local unanswered = tonumber(ARGV[9] or '0')
local told = 0
if tonumber(redis.call('HGET', h, 'limit') or '0') ~= limit then
  redis.call('DEL', h)
  redis.call('HSET', h, 'limit', limit)
  told = 1
end
local f = redis.call('HMGET', h, 'start', 'exact', 'left', 'leftAt', 'over', 'reset', 'hi', 'guess', 'window', 'probe', 'doubt')
local start = tonumber(f[1] or '-1')
local exact = f[2] == '1'
local left = tonumber(f[3] or ARGV[3])
local leftAt = tonumber(f[4] or '-1')
local over = tonumber(f[5] or '0')
local reset = tonumber(f[6] or '0')
local hi = tonumber(f[7] or '0')
local guess = tonumber(f[8] or '0')
local known = tonumber(f[9] or '0')
local probe = tonumber(f[10] or '0')
if probe > 0 and sentAt >= probe then probe = 0 end
local doubt = f[11] == '1'
local begun = false
if not refused and remaining == limit - 1 and sentAt > start then
  -- Laravel counts a request before it answers: this one opened a window.
  if start >= 0 and exact and (hi == 0 or sentAt - start < hi) then hi = sentAt - start end
  start, exact, begun = sentAt, true, true
elseif start < 0 or (remaining > left and sentAt > leftAt) then
  -- More left than an answer heard before this request was sent: a window began unseen (answers
  -- of requests sent together come in any order). It began by this request at the latest.
  start, exact, begun = sentAt, false, true
end
if begun then
  left, leftAt, over, reset, doubt = remaining, heardAt, 0, 0, false
elseif sentAt >= start and remaining < left then
  left, leftAt = remaining, heardAt
end
local current = sentAt >= start
-- A reset said in whole seconds may be a second early (Laravel's is): a guess is that much longer.
local function used() if hi > 0 then return hi elseif guess > 0 then return guess + 1000 end return 0 end
local window = used()
if refused and current and exact and window > 0 and sentAt - start >= window then
  -- Refused later in its window than its length allows: that length was short (a first answer
  -- heard late, a jittery start, a reset said early). Forgotten; the time between the next two
  -- windows' first requests measures it again.
  hi, guess = 0, sentAt - start
end
if resetAt ~= nil and current then
  reset = resetAt
  -- From a start learned late (exact 0) too: short by as much then, which the above corrects.
  if hi == 0 and resetAt - start > guess then guess = resetAt - start end
end
window = used()
if known == 0 and window > 0 and told == 0 then told = 2 end
local untilMs = nil
if refused and current then
  doubt = true
  if resetAt ~= nil and resetAt > now then untilMs = resetAt
  -- A reset of 0 is Laravel's in the window's last second, still refusing: a second, then.
  elseif resetAt ~= nil then untilMs = now + 1000
  elseif window > 0 then untilMs = math.max(start + window, now + 1000)
  else untilMs = now + math.max(1000, now - start) end
elseif remaining == 0 and current and window > 0 then
  -- When it should have ended already, no hold: one request goes to see (RESERVE).
  untilMs = start + window
  -- The reset said, unless the window's learned end is less than a second past it: a reset said
  -- in whole seconds is up to a second early (Laravel's), and the API still refuses till then.
  if reset > 0 and (untilMs <= reset or untilMs - reset >= 1000) then untilMs = reset end
  if untilMs <= sentAt then doubt = true end
elseif remaining == 0 and current then
  -- Spent before its length is known: a window lasts a second at least (Laravel counts whole
  -- seconds); then one request goes to learn when it ends (RESERVE).
  untilMs = math.max(start + 1020, now)
end
if untilMs ~= nil and untilMs > now then
  if current then left = 0 end
  if untilMs > over then over = untilMs end
  if tonumber(redis.call('GET', KEYS[1]) or '0') < untilMs then setSlot(untilMs) end
end
redis.call('HSET', h, 'start', string.format('%.0f', start), 'exact', exact and '1' or '0',
  'left', left, 'leftAt', string.format('%.0f', leftAt),
  'over', string.format('%.0f', over), 'reset', string.format('%.0f', reset),
  'hi', string.format('%.0f', hi),
  'guess', string.format('%.0f', guess), 'window', string.format('%.0f', window),
  'probe', string.format('%.3f', probe), 'doubt', doubt and '1' or '0')
redis.call('PEXPIRE', h, 3600000)
-- This answer's request has arrived (the oldest on its way stands for it), unless it was one of
-- those below; none is on its way for over a minute (no answer: a timeout, a reset connection).
if ARGV[10] == '1' then redis.call('ZPOPMIN', KEYS[3]) end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 60000)
if unanswered > 0 then
  -- Requests a process sent before it heard of a limit, still on their way: they spend the
  -- window too.
  local n = redis.call('HINCRBY', h, 'n', unanswered)
  for i = 1, unanswered do
    redis.call('ZADD', KEYS[3], string.format('%.3f', sentAt), string.format('%.3f:%d:u', sentAt, n - i))
  end
  redis.call('PEXPIRE', KEYS[3], 60000)
end
return { told, window, math.max(0, math.ceil(over - now)) }
`;

/**
 * KEYS: schedule, learned. ARGV: now, clock, ms. No request before `ms` from now, for anyone
 * (a Retry-After).
 */
export const HOLD = `
${CLOCK}
${SET_SLOT}
local untilMs = now + tonumber(ARGV[3])
if tonumber(redis.call('GET', KEYS[1]) or '0') < untilMs then setSlot(untilMs) end
if redis.call('HEXISTS', KEYS[2], 'limit') == 1 then
  if tonumber(redis.call('HGET', KEYS[2], 'over') or '0') < untilMs then
    redis.call('HSET', KEYS[2], 'over', string.format('%.0f', untilMs))
  end
end
return 0
`;

/**
 * KEYS: schedule, learned. ARGV: now, clock. What a process that reserves no slot needs to know:
 * { ms until the next free slot, the limit learned (0: none), ms until a hold ends }.
 */
export const PEEK = `
${CLOCK}
local slot = tonumber(redis.call('GET', KEYS[1]) or '0')
local f = redis.call('HMGET', KEYS[2], 'limit', 'over')
return { math.max(0, math.ceil(slot - now)), tonumber(f[1] or '0'),
  math.max(0, math.ceil(tonumber(f[2] or '0') - now)) }
`;
