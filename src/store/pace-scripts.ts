/**
 * The pace's scripts (pace.ts). Three keys: the schedule (the next free slot, ms since the
 * epoch), the slots reserved while a window is learned (`sent`, below) and what was learned of
 * the API's limit, a hash: `limit`; `start`, when the current window's
 * first request was sent, and `exact`, 1 when that request's answer said so (Remaining =
 * limit - 1) rather than a later one; `left`, the least Remaining heard in the window, and `leftAt`, when that
 * answer was heard; `over`, when the window spent is to end (a Remaining of 0 or a 429); `window`,
 * the shortest window seen, in ms, once known; `n`, slots reserved while it is learned. Times
 * are the senders' clocks.
 */

/**
 * KEYS: schedule, learned, sent. ARGV: now ms, interval ms ('' to use what was learned), margin,
 * default window ms.
 * Reserves the next slot and returns the whole ms to wait for it. The learned interval is the
 * window over the limit once the window's length is known; before, what is left of the window
 * is spread over the time it has run so far (at least a second), so that a window of any length
 * is seen to end before it is spent. What is left is the least of what the answers said and
 * what the slots reserved since the window began leave (answers lag behind requests in flight):
 * `sent` holds those slots while the window is learned, at most 1,000 before any limit is heard,
 * so that an API that advertises nothing does not fill it. Once all that is left is promised, no
 * slot is given: a negative answer says to ask again after that many ms, when answers may have
 * shown a new window, or the wait for a spent window (`over`, or the default window ARGV[4]) is
 * over: then one request is let through to learn when it ends.
 * PX takes whole numbers only.
 */
export const RESERVE = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local h = KEYS[2]
local limit = tonumber(redis.call('HGET', h, 'limit') or '0')
local window = tonumber(redis.call('HGET', h, 'window') or '0')
if interval == nil then
  interval = 0
  local start = tonumber(redis.call('HGET', h, 'start') or '-1')
  if limit > 0 and window > 0 then
    interval = window * tonumber(ARGV[3]) / limit
  elseif limit > 0 and start >= 0 then
    local over = tonumber(redis.call('HGET', h, 'over') or '0')
    if (over > 0 and now >= over) or now >= start + tonumber(ARGV[4]) then
      -- The time waited for a spent window of unknown length is over: one request goes, whose
      -- answer says whether a new window began or when the spent one ends.
      redis.call('HSET', h, 'left', 1, 'leftAt', now, 'over', 0)
      redis.call('DEL', KEYS[3])
    end
    -- What the last answer left, less the slots given since it was heard; and what the
    -- limit leaves after the slots given since the window began.
    local leftAt = tonumber(redis.call('HGET', h, 'leftAt') or '0')
    local heard = tonumber(redis.call('HGET', h, 'left') or '0') - redis.call('ZCOUNT', KEYS[3], leftAt, '+inf')
    local left = math.min(heard, limit - redis.call('ZCOUNT', KEYS[3], start - 1000, '+inf'))
    if left <= 0 then return -250 end
    -- The last one: whoever asks next waits for an answer anyway.
    if left > 1 then interval = math.max(now - start, 1000) / left end
  end
end
local slot = tonumber(redis.call('GET', KEYS[1]) or '0')
if slot < now then slot = now end
local following = slot + interval
redis.call('SET', KEYS[1], string.format('%.3f', following), 'PX', math.ceil(math.max(1000, following - now + 60000)))
if window == 0 then
  local n = redis.call('HINCRBY', h, 'n', 1)
  if limit > 0 or n <= 1000 then
    redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 120000)
    -- n starts again with a new limit: the slot keeps the members apart.
    redis.call('ZADD', KEYS[3], string.format('%.3f', slot), string.format('%.3f:%d', slot, n))
    redis.call('PEXPIRE', KEYS[3], 120000)
    redis.call('PEXPIRE', h, 3600000)
  end
end
return math.ceil(slot - now)
`;

/**
 * KEYS: schedule, learned. ARGV: now ms (when the answer was heard), limit, remaining, reset ms ('' when not said), sent ms
 * (when the answered request left), default window ms (0: no hold while the window is unknown;
 * else a window spent before its length is known is waited for as long as it lasted so far).
 * Records one answer; a Remaining of 0 or a reset moves the schedule past the window's end.
 * Returns { told, window }: told 1 when the limit is new, 2 when the window was first measured.
 * An answer to a request sent before the current window began is late and teaches nothing of it.
 */
export const LEARN = `
local h = KEYS[2]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local remaining = tonumber(ARGV[3])
local resetAt = tonumber(ARGV[4])
local sentAt = tonumber(ARGV[5])
local defaultWindow = tonumber(ARGV[6])
local told = 0
if tonumber(redis.call('HGET', h, 'limit') or '0') ~= limit then
  redis.call('DEL', h)
  redis.call('HSET', h, 'limit', limit)
  told = 1
end
local start = tonumber(redis.call('HGET', h, 'start') or '-1')
local exact = redis.call('HGET', h, 'exact') == '1'
local left = tonumber(redis.call('HGET', h, 'left') or ARGV[2])
local leftAt = tonumber(redis.call('HGET', h, 'leftAt') or '-1')
local over = tonumber(redis.call('HGET', h, 'over') or '0')
local window = tonumber(redis.call('HGET', h, 'window') or '0')
local function measured(seen)
  if seen > 0 and (window == 0 or seen < window) then
    if window == 0 and told == 0 then told = 2 end
    window = math.floor(seen)
    redis.call('HSET', h, 'window', window)
  end
end
if remaining == limit - 1 and sentAt > start then
  if start >= 0 and exact then measured(sentAt - start) end
  start = sentAt
  exact = true
  left = remaining
  leftAt = now
  over = 0
elseif start < 0 or (remaining > left and sentAt > leftAt) then
  -- More left than an answer heard before this request was sent: a window began whose first
  -- answer was not heard (answers of requests sent together may come in any order). It began
  -- by this request at the latest, which is what its end is reckoned from: too late, not early.
  start = sentAt
  exact = false
  left = remaining
  leftAt = now
  over = 0
elseif sentAt >= start and remaining < left then
  left = remaining
  leftAt = now
end
local untilMs = nil
if resetAt ~= nil then
  if exact and sentAt >= start then measured(resetAt - start) end
  untilMs = resetAt
elseif remaining == 0 and sentAt >= start then
  if window > 0 then
    untilMs = start + window
    -- A window that would have ended before this request was sent is not its window: the
    -- window it spent began a whole window before now at the earliest.
    if untilMs <= sentAt then untilMs = now + window end
  elseif defaultWindow > 0 then
    -- Its length unknown: it has lasted this long without ending; as long again (a second at
    -- least) before one request goes to find out (RESERVE).
    untilMs = math.max(start + 1000, now + (now - start))
  end
end
if untilMs ~= nil then
  left = 0
  over = math.max(over, untilMs)
  local slot = tonumber(redis.call('GET', KEYS[1]) or '0')
  if slot < untilMs then
    redis.call('SET', KEYS[1], string.format('%.3f', untilMs), 'PX', math.ceil(math.max(1000, untilMs - now + 60000)))
  end
end
redis.call('HSET', h, 'start', string.format('%.0f', start), 'exact', exact and '1' or '0', 'left', left,
  'leftAt', string.format('%.0f', leftAt), 'over', string.format('%.0f', over))
redis.call('PEXPIRE', h, 3600000)
return { told, window }
`;
