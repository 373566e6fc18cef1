/**
 * The sandbox's own time: the real clock moved on by whole days. Planned visits lie weeks ahead,
 * so a rehearsal of what follows them moves this clock instead of waiting; the offset is kept
 * with the sandbox's data, so a restart does not take the sandbox back in time.
 */
export const DAY_MS = 86_400_000;

/** Where the offset is kept; read every time, since several processes may share a data folder. */
export interface ClockOffset {
  offsetDays(): number;
  /** Adds `days` to the kept offset and gives the new one. */
  addDays(days: number): number;
}

export interface ClockReading {
  /** ISO 8601, UTC. */
  now: string;
  offsetDays: number;
}

export class SandboxClock {
  constructor(
    private readonly realNow: () => number,
    private readonly offset: ClockOffset,
  ) {}

  /** Milliseconds since the epoch on the sandbox's clock. */
  now(): number {
    return this.realNow() + this.offset.offsetDays() * DAY_MS;
  }

  /** Moves the clock on by `days`; what it reads then. */
  advance(days: number): ClockReading {
    return this.#reading(this.offset.addDays(days));
  }

  /** What `/__sandbox/clock` tells. */
  reading(): ClockReading {
    return this.#reading(this.offset.offsetDays());
  }

  #reading(offsetDays: number): ClockReading {
    return { now: new Date(this.realNow() + offsetDays * DAY_MS).toISOString(), offsetDays };
  }
}
