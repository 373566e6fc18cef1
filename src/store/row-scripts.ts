/**
 * The Lua of a row's steps (row-progress.ts). Each does in one round trip what the row needs
 * before its next request, with the ledger's own functions (ledger-scripts.ts) for its part.
 *
 * KEYS of BEGIN and ANSWER begin with the ledger's five (its shape, sheet numbers and the shards
 * it may touch); ARGV with its six: today, LEDGER_DAYS, time to live, field ('' when the row has
 * no key to claim), entry and owner's marker (ledger.ts `LedgerArgs`). Either may answer
 * {'stale', …} before it writes anything: the field's shard was split since the caller named it,
 * and the step is asked again.
 */
import { COMMON, LEDGER_ARGS, LEDGER_KEYS } from './ledger-scripts.js';

/** How many keys BEGIN and ANSWER are given: the ledger's, then their own. */
export const BEGIN_KEYS = LEDGER_KEYS + 4;
export const ANSWER_KEYS = LEDGER_KEYS + 1;

/** A row script's own KEYS[n] and ARGV[n], after the ledger's. */
const K = (n: number) => `KEYS[${LEDGER_KEYS + n}]`;
const A = (n: number) => `ARGV[${LEDGER_ARGS + n}]`;

/**
 * A claim refused in a Redis that no longer has the installation's marker (redis-marker.ts): the
 * answers of creates sent before were in the data it lost, so no create may leave until the
 * ledger is rebuilt. Checked in the claim's own step: no extra round trip, no window after a
 * restart. KEYS[k]: installations; ARGV[a]: the marker's field ('' checks nothing).
 */
const FORGOT = (k: string, a: string) => `
if ${a} ~= '' and redis.call('HEXISTS', ${k}, ${a}) == 0 then return {'forgot'} end
`;

/**
 * KEYS: the ledger's five, final rows, sheet record, creates, installations. ARGV: the ledger's
 * six, row, claim ('' to claim nothing), the marker's field.
 * Returns {'forgot'} in a Redis that lost the installation's data (FORGOT); {'final'} for a row already final or of a sheet reported; {'progress', entry} when
 * something is stored of its create; {'ledger', entry} when its key is another row's (or was
 * made into an order); else claims the key, then the create when asked: {'claimed'} or {'free'}.
 */
export const BEGIN = `${COMMON}
${FORGOT(K(4), A(3))}
local row, claim = ${A(1)}, ${A(2)}
if redis.call('SISMEMBER', ${K(1)}, row) == 1 or redis.call('HEXISTS', ${K(2)}, 'reportDir') == 1 then
  return {'final'}
end
local progress = redis.call('HGET', ${K(3)}, row)
if progress then return {'progress', progress} end
if field ~= '' then
  local key = load()
  if not key then return stale() end
  local found = redis.call('HGET', key, field)
  if found and live(found) then
    -- Pending for this very row (a resumed job) it is still this row's; anything else is said.
    if string.sub(found, 1, 1) ~= 'p' or not string.find(found, ARGV[6], 1, true) then
      return {'ledger', found}
    end
  else
    redis.call('HSET', key, field, ARGV[5])
    redis.call('PEXPIRE', key, ttl)
    grown(found and 0 or 1)
  end
end
if claim == '' then return answer({'free'}) end
redis.call('HSET', ${K(3)}, row, claim)
return answer({'claimed'})
`;

/**
 * KEYS: the ledger's five, creates. ARGV: the ledger's six (the entry: created), row, the
 * answer's entry. The answer first, the ledger with it: one cannot be kept without the other.
 */
export const ANSWER = `${COMMON}
local key = field ~= '' and load()
if field ~= '' and not key then return stale() end
redis.call('HSET', ${K(1)}, ${A(1)}, ${A(2)})
if key then
  local added = redis.call('HSET', key, field, ARGV[5])
  redis.call('PEXPIRE', key, ttl)
  -- The claim it replaces counted it already; but it may have been written days ago (a job
  -- resumed after a stop): the shape and sheet numbers must live as long as this entry does.
  if added == 1 then grown(1) else
    redis.call('PEXPIRE', meta, ttl)
    redis.call('PEXPIRE', sheets, ttl)
  end
end
return answer(1)
`;

/**
 * KEYS: creates, installations. ARGV: row, claim, the marker's field. Claims the create when
 * nothing is stored of it (nil), else returns what is; 'forgot' as BEGIN. A claim carried out already, its reply lost to a Redis restart and sent again
 * by the client on reconnecting, comes back as itself: the caller knows it as its own.
 */
export const CLAIM_CREATE = `
if ARGV[3] ~= '' and redis.call('HEXISTS', KEYS[2], ARGV[3]) == 0 then return 'forgot' end
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held then return held end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return false
`;

/** KEYS: creates. ARGV: row, claim. Deletes the claim only if it is still this one. */
export const UNCLAIM = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
`;
