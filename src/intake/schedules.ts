/**
 * Scheduled imports: each `schedules` entry of the config file becomes a BullMQ job scheduler
 * (safe to upsert from several processes) whose job names the schedule and nothing else; the
 * process that works it scans the folder its own settings give that schedule, and takes its
 * sheets with the same intake as the watcher: for network shares where file events do not
 * arrive, and for nightly batches. A job's data is never trusted for a file's location.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';

import type { Queue } from 'bullmq';

import type { Intake, IntakeResult } from './intake.js';
import { sheetsIn } from './sheets-in.js';
import { UserError } from '../errors.js';

export interface Schedule {
  name: string;
  cron: string;
  dir: string;
}

/** Another office's inbox subfolder, which no schedule of this office may scan. */
export interface OfficeInbox {
  name: string;
  /** Absolute, its links resolved. */
  dir: string;
}

/** A scan job's payload: the schedule's name, never a folder. */
export interface ScanJobData {
  schedule: string;
}

/**
 * Makes Redis hold exactly these schedules on the connection's intake queue (one removed from the
 * config stops firing). Their scans run in workers/schedules.ts.
 */
export async function syncSchedules(queue: Queue, schedules: readonly Schedule[]): Promise<void> {
  const wanted = new Set(schedules.map((s) => `schedule:${s.name}`));
  for (const existing of await queue.getJobSchedulers()) {
    if (!wanted.has(existing.key)) await queue.removeJobScheduler(existing.key);
  }
  for (const schedule of schedules) {
    const data: ScanJobData = { schedule: schedule.name };
    try {
      await queue.upsertJobScheduler(
        `schedule:${schedule.name}`,
        { pattern: schedule.cron },
        {
          name: 'scan',
          data,
        },
      );
    } catch (error) {
      throw new UserError(
        'schedule.invalid',
        `schedule "${schedule.name}": "${schedule.cron}" is not a cron pattern (${(error as Error).message}).`,
        {
          cause: error,
          variant: 'cron',
          values: { name: schedule.name, cron: schedule.cron, problem: (error as Error).message },
        },
      );
    }
  }
}

/**
 * One connection's schedules, by name: the only place a scan learns its folder. With several
 * offices, a schedule's folder (its links resolved) may not lead into another office's inbox: a
 * scan coming before the watcher would take that office's sheet with this connection's token.
 * The settings refuse such a folder by name; a link to one is found here, at start and at
 * every scan (a link may be made later).
 */
export class ScheduledFolders {
  readonly #byName: ReadonlyMap<string, Schedule>;

  constructor(
    readonly schedules: readonly Schedule[],
    /** The connection's name, when the config file has `connections`. */
    private readonly office?: string,
    /** The inboxes of the other offices. */
    private readonly others: readonly OfficeInbox[] = [],
  ) {
    this.#byName = new Map(schedules.map((s) => [s.name, s]));
  }

  /** Every schedule's folder checked, as at start: 'schedule.invalid' for the first refused. */
  async check(): Promise<void> {
    for (const schedule of this.schedules) await this.#refuseOtherInbox(schedule);
  }

  /** The folder of the schedule named; 'schedule.invalid' when there is none, or it is refused. */
  async folderOf(name: string): Promise<string> {
    const schedule = this.#byName.get(name);
    if (schedule === undefined)
      throw new UserError(
        'schedule.invalid',
        `no schedule "${name}" here: its scan is not this process's`,
        { variant: 'unknown', values: { name } },
      );
    await this.#refuseOtherInbox(schedule);
    return schedule.dir;
  }

  async #refuseOtherInbox(schedule: Schedule): Promise<void> {
    const { office } = this;
    if (office === undefined || this.others.length === 0) return;
    // A folder not there (yet) leads nowhere: its scans fail until it is.
    const real = await realpath(schedule.dir).catch(() => undefined);
    if (real === undefined) return;
    for (const other of this.others) {
      if (other.name === office || (!within(real, other.dir) && !within(other.dir, real))) continue;
      throw new UserError(
        'schedule.invalid',
        `Schedule "${schedule.name}" of connection "${office}" scans ${schedule.dir}, which leads into the inbox of "${other.name}" (${other.dir}): that office's sheets would be sent with the token of "${office}". Give the schedule a folder of its own.`,
        {
          variant: 'other-inbox',
          values: {
            name: schedule.name,
            office,
            dir: schedule.dir,
            other: other.name,
            otherDir: other.dir,
          },
        },
      );
    }
  }
}

/** Whether `b` is `a` or lies below it. */
function within(a: string, b: string): boolean {
  const rel = relative(a, b);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * A scan of the schedule named: each sheet of its folder taken as the watcher takes it; the
 * number queued. A UserError ('schedule.invalid') when the name is not one of `folders`.
 */
export async function scanSchedule(
  folders: ScheduledFolders,
  name: string,
  intake: Pick<Intake, 'take'>,
  onResult?: (path: string, result: IntakeResult) => void,
): Promise<number> {
  const dir = await folders.folderOf(name);
  let queued = 0;
  for (const path of await sheetsIn(dir)) {
    const result = await intake.take(path, undefined, dir);
    onResult?.(path, result);
    if (result.kind === 'queued') queued += 1;
  }
  return queued;
}
