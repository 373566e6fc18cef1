/**
 * Every attempt count, wait and interval of the importer, with its default, in one place: what a
 * stage retries, how long it waits and how often it looks again is read here, never declared
 * beside the code that uses it (test/policy.test.ts scans src/ and jobs/ for such constants,
 * and for such numbers written where they are used).
 * The settings a person may change (API_WAIT_S, ROW_ATTEMPTS, …) take their defaults from here
 * (src/settings/table.ts); the others are fixed. Of layer 0: it imports nothing, every layer may
 * import it. Values that docs/design.md names are pinned by its test.
 */

// Defaults of settings (src/settings/table.ts): a person may change these.

/** INBOX_STABLE_MS: a sheet still being copied in must not be taken half-written. */
export const INBOX_STABLE_MS = 2000;
/** API_TIMEOUT_MS: a request that hangs must end, so that its row is retried or reviewed. */
export const API_TIMEOUT_MS = 30_000;
/** API_WAIT_S: an API that is away at start or in an outage is waited out this long (§2). */
export const API_WAIT_S = 300;
/** REDIS_WAIT_S: `import` waits this long for a Redis that went away before it stops (§2). */
export const REDIS_WAIT_S = 300;
/** LEDGER_DAYS: a year of imports and more is remembered, so a sheet dropped again is seen (§4). */
export const LEDGER_DAYS = 400;
/** RETENTION_DAYS: reports and copies of sheets hold personal data, kept no longer than this. */
export const RETENTION_DAYS = 400;
/** `watch` applies RETENTION_DAYS this often (design "Retention": once a day). */
export const RETENTION_PASS_MS = 86_400_000;
/** One daily pass at a time across processes: its lock lapses after this, should its process die. */
export const RETENTION_LOCK_MS = 3_600_000;
/** STATUS_DAYS: a sheet's orders are read back this long after it was reported (§2). */
export const STATUS_DAYS = 90;

/** The agenda: how long a cancelled inspection stays shown, struck through (design "The agenda"). */
export const AGENDA_CANCELLED_SHOWN_MS = 7 * 86_400_000;
/** The agenda's period when none is asked: today and the 30 days after. */
export const AGENDA_DAYS = 30;
/** An office's calendar feed: the visits of the last 30 days, and every one to come (ten years). */
export const FEED_PAST_DAYS = 30;
export const FEED_DAYS = 3650;
/** ROW_ATTEMPTS: a row job is tried this often (safe-to-retry failures) before it fails. */
export const ROW_ATTEMPTS = 8;
/** RETRY_DELAY_MS: the first wait before a retry; it doubles each time, with jitter (§3). */
export const RETRY_DELAY_MS = 1000;
/** JOB_LOCK_MS: a worker silent this long is taken for dead and its job resumed elsewhere. */
export const JOB_LOCK_MS = 30_000;
/** NOTIFY_RETRY_HOURS: a notification is delivered at least once, tried for a day (§2). */
export const NOTIFY_RETRY_HOURS = 24;

// Job attempts (src/queue/queues.ts): data on each job, so every worker applies the same.

/** A sheet or report job reads and writes files: few of its failures are worth a retry. */
export const FILE_JOB_ATTEMPTS = 5;
/** A sheet's status job: its orders' own retries are inside it (STATUS_ORDER_ATTEMPTS). */
export const STATUS_JOB_ATTEMPTS = 3;
/** The backoff's jitter: retries of many rows failed together do not come back together. */
export const RETRY_JITTER = 0.5;

// The API and its pace (src/api/, src/store/pace.ts).

/**
 * The longest wait an answer is obeyed for at once (Retry-After, X-RateLimit-Reset): an API that
 * asks for a day is asked again after this, rather than holding every import and status read.
 */
export const API_MAX_WAIT_MS = 10 * 60 * 1000;
/**
 * While nothing limits the pace (API_RATE_LIMIT unset, no limit heard), a process asks Redis at
 * most this often whether another one was told to hold (a 429's Retry-After) or heard a limit,
 * instead of once per request. A hold is seen that much late at worst: the requests sent
 * meanwhile may be refused with a 429, which holds this process too and is retried like any
 * other (nothing is lost); a request per 200 ms per process, whatever the rate, is the cost.
 */
export const PACE_PEEK_MS = 200;
/** A request that never gets an answer must not hold the other turns of its process longer. */
export const PACE_FIRST_ANSWER_MS = 2000;
/** The first pause between two checks of the API at start, without Retry-After; it doubles. */
export const API_CHECK_FIRST_DELAY_MS = 500;
/** The longest pause between two checks of the API at start: an API back is seen soon. */
export const API_CHECK_MAX_DELAY_MS = 5000;
/**
 * The API counts its limits in whole seconds (Laravel): a Retry-After shorter than a second, or
 * of 0 (said in a window's last second while it still refuses), holds the requests a second.
 */
export const SHORTEST_HOLD_MS = 1000;
/** A connection to the API left idle this long is closed; the next request opens another. */
export const API_KEEP_ALIVE_MS = 30_000;

// Rows (src/rows/).

/** A row waiting for another row or attempt waits this many times ROW_WAIT_MS… */
export const ROW_MAX_WAITS = 150;
/** …each this long (150 × 2 s = 5 minutes), before it asks a person (`needs-review`). */
export const ROW_WAIT_MS = 2000;
/**
 * Waits given to a create sent with no answer recorded (by an earlier attempt, or another one
 * now), in case its sender is alive and about to record it, before its outcome is unknown.
 */
export const SENDER_WAITS = 5;
/** A row of a Redis that forgot looks this often whether `ledger rebuild` has run. */
export const FORGOT_ROW_WAIT_MS = 30_000;
/** A service waiting for `ledger rebuild` looks again this often. */
export const FORGOT_POLL_MS = 2000;
/** A sheet job held back by the rows queue's high water mark looks again this often. */
export const HIGH_WATER_LOOK_MS = 250;
/** Rows an office's queue holds before a sheet job stops handing more on (rowsHighWater). */
export const ROWS_HIGH_WATER = 10_000;
/**
 * Of that high water mark, what a sheet may always have queued (a tenth: 1,000 rows), so that a
 * sheet dropped behind a big one takes turns with it rather than wait for its rows to drain.
 */
export const HIGH_WATER_SHARE = 0.1;
/** A sheet's creates log (store/creates-log.ts) is closed once no line came to it this long. */
export const CREATES_LOG_IDLE_MS = 2000;

// Sheets (src/intake/, src/split/, src/store/).

/** A sheet rewritten during each of these many copies is refused (it is never imported mixed). */
export const SHEET_COPY_ATTEMPTS = 3;
/** A registration written by an older version waits for its record: tries, and the pause. */
export const RECORD_WAIT = { tries: 40, everyMs: 50 } as const;
/** Migration 2 reads one job again when its data or entry changed in between; more is a fault. */
export const MIGRATION_JOB_TRIES = 10;
/** A sheet job waiting for the import of the same content looks again this often. */
export const DUPLICATE_SHEET_WAIT_MS = 2000;
/** The longest another installation's job waits before a worker looks at it again. */
export const ELSEWHERE_WAIT_MS = 5000;
/** Its first wait: short, so that a job a wrong worker took soon reaches a right one. */
export const FIRST_ELSEWHERE_WAIT_MS = 100;
/** An intake cut short (a file locked, a share gone a moment) is looked for again this often. */
export const INTAKE_RECOVERY_EVERY_MS = 60_000;
/** The watcher's look at the inbox when it polls (a share without file events). */
export const INBOX_POLL_EVERY_MS = 1000;
/** Folders the intake emptied are looked at this often at most, to be removed. */
export const EMPTY_FOLDERS_SWEEP_MS = 5000;
/** Attachments still being copied beside a sheet: looked for again this often. */
export const ATTACHMENT_LOOK_MS = 200;

/**
 * The hot folder's waits that follow INBOX_STABLE_MS (`stableMs`), so that a slow share is given
 * longer, within bounds that keep a fast one brisk.
 */
export function inboxWaits(stableMs: number) {
  return {
    /** How often a settling file's size and time are looked at: a quarter of it, 50–500 ms. */
    settleLookMs: Math.max(50, Math.min(500, stableMs / 4)),
    /** How often the watcher looks whether a write has finished (chokidar's own check). */
    writeFinishLookMs: Math.min(500, stableMs),
    /** How long attachments still being copied beside a sheet are waited for, at most. */
    attachmentsWaitMs: Math.max(10_000, stableMs * 5),
    /** A folder the intake emptied is removed once it stayed empty this long. */
    emptyFolderGraceMs: Math.max(5000, stableMs * 5),
    /** File events can be lost: the inbox is looked through for sheets left in it this often. */
    rescanEveryMs: Math.max(10_000, stableMs * 10),
  };
}

// Status, notifications, the reconciler, health and stopping.

/** Attempts at one order within a status run, waits between them doubling from RETRY_DELAY_MS. */
export const STATUS_ORDER_ATTEMPTS = 4;
/** A wait asked by the API that a status run does not wait out (the next run reads the order). */
export const STATUS_LONG_WAIT_MS = 30_000;
/** How long a webhook receiver or an SMTP server may take to answer. */
export const NOTIFY_TIMEOUT_MS = 30_000;
/** The longest wait between two tries of a notification. */
export const NOTIFY_MAX_WAIT_MS = 60 * 60 * 1000;
/** The reconciler looks this often for what a lost signal left behind (docs/architecture.md). */
export const RECONCILE_EVERY_MS = 30_000;

// The doorbell (src/workers/doorbell.ts): an office's worker runs only while its queue has work,
// so that a process's Redis connections do not grow with its offices (docs/design.md "Many
// offices": ≤ 64 whatever their number).

/**
 * The doorbell reads its prefix's counter this often, which every process moves when it queues a
 * job, and looks at the queues of the offices that have a worker running or waiting (a job queued
 * by another process waits this long at most for this one's worker; one queued here rings at
 * once).
 */
export const DOORBELL_EVERY_MS = 1000;
/**
 * And at every office's queues this often (one script call per office, some 20 µs of this
 * process's CPU each): the active jobs of a process that died (a running worker resumes them),
 * jobs queued by a version before the doorbell.
 */
export const DOORBELL_SWEEP_MS = 20_000;
/** A worker whose queue held nothing for this long is closed (its connection with it). */
export const WORKER_IDLE_MS = 10_000;
/**
 * Workers running at once in a process, each with a blocking connection of its own: with the
 * process's two shared clients and a few passing ones (a retention pass, a check at start), its
 * connections stay under 64.
 */
export const MAX_RUNNING_WORKERS = 40;
/** Of which sheet workers at most this many: a sheet waiting for its rows to drain holds its slot. */
export const MAX_SHEET_WORKERS = 20;
/**
 * The same on a Redis Cluster, where a worker's blocking connection is a Cluster client of its
 * own, connected to a node to learn the slots and to its office's master: 2.1 to 2.4 connections
 * a worker (measured, test/redis/cluster-connections.redis.test.ts), 3 at most. So many keep a
 * process under 64 even then.
 */
export const MAX_RUNNING_WORKERS_CLUSTER = 16;
export const MAX_SHEET_WORKERS_CLUSTER = 8;
/**
 * With every slot taken and other offices' queues waiting, a worker that has run this long is
 * closed (its jobs in flight finish first) and its office waits for its turn again.
 */
export const WORKER_TURN_MS = 60_000;
/** Queue counts read at a scrape are reused this long: a scrape storm must not hammer Redis. */
export const QUEUE_COUNTS_FRESH_MS = 1500;
/** A scrape waits this long for Redis; past it, the last counts known are answered. */
export const QUEUE_COUNTS_WAIT_MS = 1000;
/** The dashboard's rate: samples older than this are dropped, a sheet unseen this long forgotten. */
export const RATE_WINDOW_MS = 60_000;
/** Below this span of samples the dashboard tells the pace since the sheet was queued instead. */
export const RATE_SHORTEST_SPAN_MS = 4000;
/** A health check waits this long for Redis before calling it down. */
export const REDIS_PING_MS = 1000;
/** A Redis that has not connected or answered within this is away (at start, for the dashboard). */
export const REDIS_ANSWER_MS = 2000;
/**
 * A connection to Redis that closed is opened again after `stepMs` times the attempts so far,
 * never more than `maxMs` apart: after a failover the work goes on within seconds of the new
 * master being named (BullMQ's own delay grows to 20 s), and a stop just after a restart finds
 * BullMQ's connections back before it gives up waiting for them (src/workers/stop.ts).
 */
export const REDIS_RECONNECT = { stepMs: 100, maxMs: 1000 } as const;
/**
 * A check of Redis at start (a sentinel asked, a first PING) gives up after this long: a server
 * that takes the connection and never answers (a frozen host) is no reason to hang.
 */
export const REDIS_PROBE_MS = 5000;
/** How many sentinels of a Sentinel set each client listens to for a failover (`+switch-master`). */
export const SENTINELS_WATCHED = 3;

/**
 * How long after the last job whose lock was lost (a Redis outage) their number is said, in one
 * line: they come in a burst once Redis is back, each job up to three times.
 */
export const LOST_LOCKS_QUIET_MS = 2000;
/**
 * The dashboard waits this long for each read of Redis; past it, it answers from what it last
 * read and says that Redis does not answer (docs/design.md: within 2 s while Redis is away).
 */
export const DASHBOARD_REDIS_WAIT_MS = 1000;
/** Once Redis is known to be away, a page's further reads wait this long, not the whole second. */
export const DASHBOARD_AWAY_WAIT_MS = 200;
/**
 * What the agenda's pages, downloads and calendar feeds ask to wait (Retry-After, seconds) when
 * Redis does not answer and no agenda was read yet: a calendar client keeps the events it has.
 */
export const DASHBOARD_AWAY_RETRY_S = 60;
/**
 * A command of a client that does not wait for a Redis away (a tool, the dashboard) is tried this
 * often before it fails; the services' clients wait (REDIS_WAIT_S).
 */
export const REDIS_COMMAND_RETRIES = 3;
/**
 * A Redis Cluster in a failover (a master down, its replica not yet promoted) or resharding: a
 * command is tried again every `delayMs`, up to `waitingRedirections` times for the clients that
 * wait for Redis (the services', REDIS_WAIT_S) — longer than the 30 s a failover may take
 * (docs/design.md "Redis in production") — and 16 times (ioredis' default) for the others.
 */
export const REDIS_CLUSTER_RETRY = {
  delayMs: 200,
  waitingRedirections: 600,
  redirections: 16,
} as const;
/**
 * A step on the duplicates ledger names its shards by the shape it last saw; another process's
 * split makes it name them again (store/ledger.ts). Tries before the row is tried again later:
 * each try fails only if yet another split came between, which takes ~48 new entries.
 */
export const LEDGER_STALE_TRIES = 20;
/**
 * Splits of the ledger's shards one step makes at most when steps owed them (store/ledger.ts):
 * a burst of rows (a ledger rebuilt) owes many, each of which would otherwise wait for its own
 * round trip behind the burst.
 */
export const LEDGER_SPLITS_AT_ONCE = 16;
/** The importer's private redis-server: how long it may take to start, how often it is asked. */
export const PRIVATE_REDIS_START = { withinMs: 10_000, everyMs: 50, pingMs: 500 } as const;
/** A port to listen on (the private redis-server's, a test's) is looked for this many times. */
export const FREE_PORT_TRIES = 20;
/** A sandbox's id file written by another process starting now: tries, and the pause. */
export const SANDBOX_ID_WAIT = { tries: 20, everyMs: 50 } as const;
/** BullMQ looks for stalled jobs every half JOB_LOCK_MS, but not more often than this. */
export const STALLED_CHECK_MIN_MS = 500;
/** A stalled job is resumed this often before it fails: a row job resumes from its recorded step. */
export const STALLED_RESUMES = 50;
/** A dashboard search stops after this long, and says what it searched. */
export const SEARCH_TIME_MS = 3000;
/** A forced close may take this long before its connections are simply dropped. */
export const CUT_OFF_MS = 5000;
/** `watch` and `worker` let the jobs in flight finish this long when told to stop. */
export const SERVICE_GRACE_MS = 60_000;
/** A stop lets the jobs in flight finish this long, unless told otherwise (`import`'s Ctrl-C). */
export const STOP_GRACE_MS = 30_000;
/** A command that ends (or fails to start) closes its importers within this. */
export const CLOSE_GRACE_MS = 5000;

// What a command shows while it works (src/cli/).

/** `import` looks at its sheets this often while it waits for them. */
export const IMPORT_LOOK_MS = 300;
/** At its end, `import` waits for its notifications this long at most, looking this often. */
export const NOTIFICATIONS_WAIT = { withinMs: 30_000, everyMs: 200 } as const;
/** Progress bars on a terminal are drawn again this often. */
export const PROGRESS_DRAW_MS = 250;
/** Off a terminal (a log file), `import` says its progress in a line this often. */
export const PROGRESS_LINE_MS = 10_000;
/** Off a terminal, `watch` says each sheet's progress in a line this often. */
export const WATCH_PROGRESS_LINE_MS = 60_000;
/** `watch` looks this often whether a sheet it took is done, to say so. */
export const DONE_LOOK_MS = 1000;
