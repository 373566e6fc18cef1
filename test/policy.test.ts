import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { packageRoot } from '../src/package-root.js';
import * as policy from '../src/policy.js';
import { SETTINGS } from '../src/settings/table.js';

const ROOT = packageRoot();

/** A constant's name that says it is an attempt count, a wait, an interval or a period. */
const POLICY_NAME =
  /(_MS|_S|_HOURS|_DAYS)$|ATTEMPTS|RETR|WAIT|EVERY|INTERVAL|(^|_)TRIES|TIMEOUT|BACKOFF|DELAY|POLL|GRACE/;
/** Units and dates, not policies: they never change. */
const NOT_POLICY = new Set(['DAY_MS', 'EXCEL_EPOCH_MS']);

/**
 * A number in code: not 0 or 1 (a start, a step), not an index (`ARGV[3]`), not a unit or a
 * doubling (`* 1000`, `/ 60`, `* 2`, `2 **`).
 */
const NUMBER = String.raw`(?<![\w.$[]|[*/] ?)(?!1\b)\b[1-9][\d_]*\b(?! ?[*/%.])`;
const UNITS = String.raw`(?:2|1000|1_000|60|24|1024|60_000|3_600_000|86_400_000)\b`;
/** A wait scaled by a number that is no unit (`stableMs * 5`, `stableMs / 4`). */
const FACTOR = String.raw`(?<![*/] ?)[*/] ?(?!${UNITS})[1-9][\d_]*\b`;
const IN_CODE = `(?:${NUMBER}|${FACTOR})`;
/** A name that says it is a wait, an interval, a timeout or an attempt count. */
const WAIT_NAME = String.raw`\b(?:\w*(?:Ms|Timeout|Interval|Delay|Tries|Attempts|Retries|Wait|Every|Stalled)\w*|ms|timeout|interval|delay|tries|attempts)`;
/**
 * Such a policy written as a number where it is used: a name that says so given one
 * (`connectTimeout: 2000`, `pollMs ?? 300`, `idleMs = 2000`), a sleep or a timer of so many ms, a
 * wait bounded or scaled by a number (`Math.max(retryAfterMs, 1000)`, `stableMs * 5`), tries
 * counted against one.
 */
const INLINE = [
  String.raw`${WAIT_NAME}\s*(?:\?\?|=|:)[^,;]*?${IN_CODE}`,
  String.raw`\b(?:sleep|setTimeout|setInterval)\([^;]*?${IN_CODE}`,
  String.raw`Math\.(?:max|min)\((?=[^;]*\w(?:Ms|ms)\b)[^;]*?${IN_CODE}`,
  String.raw`\w(?:Ms|ms)\b ?${FACTOR}`,
  String.raw`\b(?:tries|attempts?)\s*(?:>=|>|<=|<)\s*${IN_CODE}`,
].map((pattern) => new RegExp(pattern));

/**
 * A module's code, line by line: no comment, no text in quotes or backticks (a message's "in 5 s"
 * is no wait; a Redis script is Lua, read by its own tests).
 */
function codeLines(text: string): string[] {
  const blank = (quoted: string) => quoted.replace(/[^\n]/g, ' ');
  return text
    .replace(/`(?:\\.|[^`\\])*`|\/\*[\s\S]*?\*\//g, blank)
    .split('\n')
    .map((line) =>
      line.replace(/\/\/.*$/, '').replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g, "''"),
    );
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('src/policy.ts', () => {
  it('holds the numbers the design names', () => {
    // docs/design.md and DESIGN §2 (settings), §4 (the ledger), docs/architecture.md (reconciler).
    expect({
      INBOX_STABLE_MS: policy.INBOX_STABLE_MS,
      API_TIMEOUT_MS: policy.API_TIMEOUT_MS,
      API_WAIT_S: policy.API_WAIT_S,
      REDIS_WAIT_S: policy.REDIS_WAIT_S,
      LEDGER_DAYS: policy.LEDGER_DAYS,
      STATUS_DAYS: policy.STATUS_DAYS,
      NOTIFY_RETRY_HOURS: policy.NOTIFY_RETRY_HOURS,
      RECONCILE_EVERY_MS: policy.RECONCILE_EVERY_MS,
    }).toEqual({
      INBOX_STABLE_MS: 2000,
      API_TIMEOUT_MS: 30_000,
      API_WAIT_S: 300,
      REDIS_WAIT_S: 300,
      LEDGER_DAYS: 400,
      STATUS_DAYS: 90,
      NOTIFY_RETRY_HOURS: 24,
      RECONCILE_EVERY_MS: 30_000,
    });
  });

  it('keeps the dashboard within 2 s while Redis is away', () => {
    // docs/design.md "Outages, said once": a page's first read past the wait, the rest shorter.
    expect(policy.DASHBOARD_REDIS_WAIT_MS + policy.DASHBOARD_AWAY_WAIT_MS).toBeLessThan(2000);
    expect(policy.DASHBOARD_AWAY_WAIT_MS).toBeLessThan(policy.DASHBOARD_REDIS_WAIT_MS);
    // A calendar client asked to come back after a minute, not hammering a dashboard that waits.
    expect(policy.DASHBOARD_AWAY_RETRY_S).toBe(60);
  });

  it("has BullMQ's connections back before a stop gives up waiting for them", () => {
    // src/workers/stop.ts waits REDIS_ANSWER_MS for every worker's connection after a restart.
    expect(policy.REDIS_RECONNECT.maxMs).toBeLessThan(policy.REDIS_ANSWER_MS);
    expect(policy.REDIS_RECONNECT.stepMs).toBeLessThanOrEqual(policy.REDIS_RECONNECT.maxMs);
  });

  it('lets every sheet keep a thousand rows queued beside a big one at the high water mark', () => {
    // Fair turns (docs/design.md "Operations"): a sheet is held back only while the office's
    // rows queue holds more than the high water mark and it has more than its share of them.
    expect(policy.ROWS_HIGH_WATER).toBe(10_000);
    expect(policy.ROWS_HIGH_WATER * policy.HIGH_WATER_SHARE).toBe(1000);
  });

  it('moves to a new Redis master soon, and gives up on one that takes a connection and says nothing', () => {
    // docs/operations.md "Redis in production": the work goes on within 30 s of a failover.
    expect(policy.REDIS_RECONNECT).toEqual({ stepMs: 100, maxMs: 1000 });
    expect(policy.REDIS_RECONNECT.maxMs).toBeLessThan(30_000 / 10);
    expect(policy.SENTINELS_WATCHED).toBe(3);
    // A start-up check waits for a connection (REDIS_ANSWER_MS) and then for its answer.
    expect(policy.REDIS_PROBE_MS).toBe(5000);
    expect(policy.REDIS_PROBE_MS).toBeGreaterThan(policy.REDIS_ANSWER_MS);
  });

  it('keeps a process\'s Redis connections under 64 whatever its offices (design "Many offices")', () => {
    // Two shared clients, a blocking connection per worker running, a few passing ones (a
    // retention pass's lock, a check at start).
    const passing = 4;
    expect(2 + policy.MAX_RUNNING_WORKERS + passing).toBeLessThanOrEqual(64);
    // Sheet workers leave slots to the rows their sheets wait for.
    expect(policy.MAX_SHEET_WORKERS).toBeLessThan(policy.MAX_RUNNING_WORKERS);
    // On a Cluster a worker holds up to three (a node asked for the slots, its office's master).
    expect(6 + 3 * policy.MAX_RUNNING_WORKERS_CLUSTER + passing).toBeLessThanOrEqual(64);
    expect(policy.MAX_SHEET_WORKERS_CLUSTER).toBeLessThan(policy.MAX_RUNNING_WORKERS_CLUSTER);
    // A job another process queued is seen within 1–2 s; a worker is not closed between looks.
    expect(policy.DOORBELL_EVERY_MS).toBeLessThanOrEqual(2000);
    expect(policy.WORKER_IDLE_MS).toBeGreaterThan(2 * policy.DOORBELL_EVERY_MS);
    // The jobs of a dead process are looked for well within a lock's time.
    expect(policy.DOORBELL_SWEEP_MS).toBeLessThan(policy.JOB_LOCK_MS);
    expect(policy.DOORBELL_SWEEP_MS).toBeGreaterThan(policy.DOORBELL_EVERY_MS);
    // A worker gets its turn for longer than it takes to start and to be seen idle.
    expect(policy.WORKER_TURN_MS).toBeGreaterThan(policy.WORKER_IDLE_MS);
  });

  it("gives the settings' defaults", () => {
    const defaultOf = (key: keyof typeof SETTINGS): unknown =>
      SETTINGS[key].schema.parse(undefined);
    expect({
      inboxStableMs: defaultOf('inboxStableMs'),
      apiTimeoutMs: defaultOf('apiTimeoutMs'),
      apiWaitS: defaultOf('apiWaitS'),
      redisWaitS: defaultOf('redisWaitS'),
      ledgerDays: defaultOf('ledgerDays'),
      statusDays: defaultOf('statusDays'),
      rowAttempts: defaultOf('rowAttempts'),
      retryDelayMs: defaultOf('retryDelayMs'),
      jobLockMs: defaultOf('jobLockMs'),
      notifyRetryHours: defaultOf('notifyRetryHours'),
    }).toEqual({
      inboxStableMs: policy.INBOX_STABLE_MS,
      apiTimeoutMs: policy.API_TIMEOUT_MS,
      apiWaitS: policy.API_WAIT_S,
      redisWaitS: policy.REDIS_WAIT_S,
      ledgerDays: policy.LEDGER_DAYS,
      statusDays: policy.STATUS_DAYS,
      rowAttempts: policy.ROW_ATTEMPTS,
      retryDelayMs: policy.RETRY_DELAY_MS,
      jobLockMs: policy.JOB_LOCK_MS,
      notifyRetryHours: policy.NOTIFY_RETRY_HOURS,
    });
  });

  it('waits out a Cluster failover of 30 s and more before a waiting command fails', () => {
    const { delayMs, waitingRedirections } = policy.REDIS_CLUSTER_RETRY;
    expect(delayMs * waitingRedirections).toBeGreaterThanOrEqual(2 * 30_000);
    expect(delayMs).toBeLessThanOrEqual(policy.REDIS_ANSWER_MS);
  });

  it('is the only module of src/ and jobs/ that declares an attempt count, a wait or an interval', () => {
    const declaration = /^\s*(?:export\s+)?const\s+([A-Z][A-Z0-9_]*)\b[^=]*=\s*(.*)$/;
    const elsewhere = ['src', 'jobs']
      .flatMap((folder) => sources(join(ROOT, folder)))
      .map((path) => relative(ROOT, path))
      .filter((path) => path !== 'src/policy.ts')
      .flatMap((path) =>
        readFileSync(join(ROOT, path), 'utf8')
          .split('\n')
          .flatMap((line, at) => {
            const [, name, value] = declaration.exec(line) ?? [];
            if (name === undefined || NOT_POLICY.has(name) || !POLICY_NAME.test(name)) return [];
            return /\d/.test(value ?? '') ? [`${path}:${at + 1} ${name}`] : [];
          }),
      );
    expect(elsewhere).toEqual([]);
  });

  it('is where every wait, interval, timeout and attempt count is written, not beside its use', () => {
    const inline = ['src', 'jobs']
      .flatMap((folder) => sources(join(ROOT, folder)))
      .map((path) => relative(ROOT, path))
      .filter((path) => path !== 'src/policy.ts')
      .flatMap((path) =>
        codeLines(readFileSync(join(ROOT, path), 'utf8')).flatMap((code, at) =>
          INLINE.some((pattern) => pattern.test(code)) ? [`${path}:${at + 1} ${code.trim()}`] : [],
        ),
      );
    expect(inline).toEqual([]);
  });
});
