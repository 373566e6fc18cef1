/**
 * The duplicates ledger's Lua (store/ledger.ts). A connection's entries are spread over shards
 * small enough for Redis to keep each as a listpack (a few bytes of overhead per entry instead of
 * the ~50 of a hash table). The shards grow by linear hashing: one shard splits in two each time
 * the entries outgrow them, so a lookup is always one HGET, however many rows were imported.
 *
 * KEYS: the ledger's shape (hash: `l` level, `p` next shard to split, `n` entries), its sheet
 * numbers, the field's shard, and the two shards a split would rewrite. ARGV: today (days since
 * 1970), LEDGER_DAYS, the keys' time to live (ms), the entry's field (16 bytes of a hash), then
 * the script's own.
 *
 * Every key a script touches is one it was given (a Redis Cluster routes a script by them): the
 * caller names the shards by the shape it last saw (ledger.ts, `shardOf`). When the field's shard
 * was split since, a script that would touch it writes nothing and answers `{'stale', level,
 * next}`, and the caller names it again. A split due whose two shards were not the ones given
 * is not made: the step's answer comes as `{'split', level, next, answer}`, and the caller makes
 * it (SPLIT) with the two shards named.
 *
 * An entry is `<state><day>.<sheet>.<row>.<orderId>` (base 36); one written more than LEDGER_DAYS
 * days before today is gone: lookups skip it, claims overwrite it, splits drop it, and a shard
 * that nothing was written to for LEDGER_DAYS and a day expires whole. Counted in whole days, an
 * entry lives through the LEDGER_DAYS-th day after the one it was written on: never less than
 * LEDGER_DAYS (one written at 23:59 is not forgotten a day early), less than a day more.
 */

/** Entries per shard on average before one splits: well under Redis's 128 per listpack. */
const SHARD_LOAD = 48;

/** Keys and arguments every ledger script begins with (a larger script's own follow them). */
export const LEDGER_KEYS = 5;
export const LEDGER_ARGS = 6;

export const COMMON = `
local meta, sheets = KEYS[1], KEYS[2]
local today, days, ttl, field = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4]
local function live(v)
  local day = string.match(v, '^%a(%w+)%.')
  return day ~= nil and today - tonumber(day, 36) <= days
end
local function h32(f)
  local a, b, c, d = string.byte(f, 1, 4)
  return ((a * 256 + b) * 256 + c) * 256 + d
end
local L, P, N = 0, 0, 0
local function shard(f)
  local h = h32(f)
  local n = h % 2 ^ L
  if n < P then n = h % 2 ^ (L + 1) end
  return meta .. ':' .. n
end
-- Read by each script that touches an entry (a larger script may touch none), before it writes
-- anything: the field's shard, if it is the one given (KEYS[3]); else false, and nothing is done.
local function load()
  local shape = redis.call('HMGET', meta, 'l', 'p', 'n')
  L, P, N = tonumber(shape[1]) or 0, tonumber(shape[2]) or 0, tonumber(shape[3]) or 0
  local key = shard(field)
  return key == KEYS[3] and key
end
local function stale()
  return {'stale', L, P}
end
-- In pieces: unpack has a limit, and a shard may have outgrown a listpack (see SHARD_LOAD).
local function rewrite(key, flat)
  for i = 1, #flat, 256 do
    redis.call('HSET', key, unpack(flat, i, math.min(i + 255, #flat)))
  end
  if #flat > 0 then redis.call('PEXPIRE', key, ttl) end
end
-- Shard P becomes P and P + 2^L (source and dest, given), both rewritten whole so that
-- each is a listpack again.
local function split(source, dest)
  local all = redis.call('HGETALL', source)
  redis.call('DEL', source)
  local keep, move = {}, {}
  for i = 1, #all, 2 do
    local f, v = all[i], all[i + 1]
    local into = (h32(f) % 2 ^ (L + 1) == P) and keep or move
    if not live(v) then N = N - 1 else
      into[#into + 1] = f
      into[#into + 1] = v
    end
  end
  rewrite(source, keep)
  rewrite(dest, move)
  P = P + 1
  if P == 2 ^ L then L, P = L + 1, 0 end
end
local owed = false
local function due()
  return N > ${SHARD_LOAD} * (2 ^ L + P)
end
-- Whether from and to are the two shards the next split rewrites.
local function isNext(from, to)
  return from == meta .. ':' .. P and to == meta .. ':' .. (P + 2 ^ L)
end
-- A split due is made only with its two shards given; else it is owed (see answer).
local function splitDue()
  if not due() then return end
  if isNext(KEYS[4], KEYS[5]) then split(KEYS[4], KEYS[5]) else owed = true end
end
local function grown(added)
  N = N + added
  splitDue()
  redis.call('HSET', meta, 'l', L, 'p', P, 'n', N)
  redis.call('PEXPIRE', meta, ttl)
  redis.call('PEXPIRE', sheets, ttl)
end
-- A step's answer, wrapped when it owes a split: the caller makes it by the shape said.
local function answer(a)
  if owed then return {'split', L, P, a} end
  return a
end
`;

/** ARGV[5]: the entry to write if the field has none. Returns the live entry found, else nil. */
export const CLAIM = `${COMMON}
local key = load()
if not key then return stale() end
local found = redis.call('HGET', key, field)
if found and live(found) then return found end
redis.call('HSET', key, field, ARGV[5])
redis.call('PEXPIRE', key, ttl)
grown(found and 0 or 1)
return answer(false)
`;

/** ARGV[5]: the entry, written whatever was there. */
export const WRITE = `${COMMON}
local key = load()
if not key then return stale() end
local added = redis.call('HSET', key, field, ARGV[5])
redis.call('PEXPIRE', key, ttl)
grown(added)
return answer(1)
`;

/** ARGV[5]: the owner's marker `.<sheet>.<row>.`; the entry is deleted only if the owner holds it. */
export const RELEASE = `${COMMON}
local key = load()
if not key then return stale() end
local found = redis.call('HGET', key, field)
if not (found and string.find(found, ARGV[5], 1, true)) then return 0 end
redis.call('HDEL', key, field)
grown(-1)
return answer(1)
`;

/** The live entry of a field, else nil. */
export const LOOKUP = `${COMMON}
local key = load()
if not key then return stale() end
local found = redis.call('HGET', key, field)
if found and live(found) then return found end
return false
`;

/**
 * The splits steps owed. KEYS: the ledger's shape and sheet numbers, then pairs of shards, each
 * the two a split rewrites, in the order the splits come from the shape the caller last saw
 * (ledger.ts, `splitPairs`); ARGV the ledger's six (no field). Splits while they are due and the
 * next pair is the one given. Returns {1 when another is due, level, next}.
 */
export const SPLIT = `${COMMON}
local shape = redis.call('HMGET', meta, 'l', 'p', 'n')
L, P, N = tonumber(shape[1]) or 0, tonumber(shape[2]) or 0, tonumber(shape[3]) or 0
local k, split_any = 3, false
while due() and KEYS[k + 1] and isNext(KEYS[k], KEYS[k + 1]) do
  split(KEYS[k], KEYS[k + 1])
  split_any, k = true, k + 2
end
if split_any then redis.call('HSET', meta, 'l', L, 'p', P, 'n', N) end
return {due() and 1 or 0, L, P}
`;

/**
 * KEYS: the sheet numbers. ARGV: a sheet id, the time to live (ms). Returns the sheet's number,
 * given it the first time it is asked for.
 */
export const SHEET_NUMBER = `
local known = redis.call('HGET', KEYS[1], 's:' .. ARGV[1])
if known then return tonumber(known) end
local n = redis.call('HINCRBY', KEYS[1], 'next', 1)
redis.call('HSET', KEYS[1], 's:' .. ARGV[1], n, 'n:' .. n, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n
`;
