/**
 * An outage of something the importer needs (the API, Redis), told once. Retry loops report every
 * failure here and stay silent themselves, so that a person sees one plain line when the outage
 * starts and one when it ends, and the structured log is as quiet: the first failure at warn with
 * its message (no stack), the later ones at debug, the recovery at info.
 */
import type { Logger } from 'pino';

import type { Words } from './language/words.js';
import { LOST_LOCKS_QUIET_MS } from './policy.js';

export interface OutageOptions {
  /** What is away, as the subject of a sentence: `Redis at redis://…`, `The API at https://…`. */
  subject: string;
  /** What goes on meanwhile, ending the first line: `waiting up to 300 s for it (API_WAIT_S)`. */
  meanwhile: string;
  /** Where the two plain lines go; none for a process nobody watches. */
  announce?: (line: string) => void;
  logger: Logger;
  now?: () => number;
  /**
   * The plain lines in a person's language (`cli.outage.away`, `cli.outage.back`): what is away,
   * where, and what goes on meanwhile. Without them, `subject` and `meanwhile` are said as given.
   */
  words?: Words;
  said?: {
    what: 'api' | 'redis';
    url: string;
    meanwhile: 'api_wait' | 'rows' | 'work';
    seconds?: number;
  };
}

export class Outage {
  readonly #options: OutageOptions;
  readonly #now: () => number;
  #since: number | undefined;
  #failures = 0;
  /** The clients that failed and have not answered since: the outage ends with the last one. */
  readonly #away = new Set<object>();

  constructor(options: OutageOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Whether the plain lines went somewhere (a terminal's logger then leaves these records out). */
  get #told(): boolean {
    return this.#options.announce !== undefined;
  }

  /** When the outage under way began (ms since the epoch); undefined when there is none. */
  get since(): number | undefined {
    return this.#since;
  }

  /** How long the outage under way has lasted, in ms; 0 when there is none. */
  lasted(): number {
    return this.#since === undefined ? 0 : this.#now() - this.#since;
  }

  /**
   * One more failure (of `client`, when several report here): the first one starts the outage and
   * is told; the others are only counted.
   */
  failed(reason: unknown, client: object = this): void {
    const { subject, logger } = this.#options;
    const why = reasonText(reason);
    this.#failures += 1;
    this.#away.add(client);
    if (this.#since !== undefined) {
      logger.debug({ reason: why, failures: this.#failures }, `${subject} still does not answer`);
      return;
    }
    this.#since = this.#now();
    this.#options.announce?.(this.#awayLine(why));
    // Said in plain words already: the JSON log keeps it as detail, so that a terminal or a
    // service's journal shows the outage once, not a plain line and its JSON twin.
    const level = this.#told ? 'debug' : 'warn';
    logger[level]({ reason: why, told: this.#told }, `${subject} does not answer`);
  }

  /**
   * It answers (to `client`): the outage under way, if any, ends and is told once every client
   * that failed in it answers again, so that a process of several clients says it once.
   */
  recovered(client: object = this): void {
    this.#away.delete(client);
    if (this.#since === undefined || this.#away.size > 0) return;
    const lastedMs = this.lasted();
    const failures = this.#failures;
    this.#since = undefined;
    this.#failures = 0;
    this.#options.announce?.(this.#backLine(lastedMs));
    this.#options.logger[this.#told ? 'debug' : 'info'](
      { lastedMs, failures, told: this.#told },
      `${this.#options.subject} answers now`,
    );
  }

  #awayLine(reason: string): string {
    const { words, said, subject, meanwhile } = this.#options;
    if (words === undefined || said === undefined)
      return `${subject} does not answer (${reason}): ${meanwhile}.`;
    return words.t('cli.outage.away', { ...said, seconds: said.seconds ?? 0, reason });
  }

  #backLine(lastedMs: number): string {
    const { words, said, subject } = this.#options;
    if (words === undefined || said === undefined)
      return `${subject} answers now, after ${seconds(lastedMs)}.`;
    const s = Math.max(0, Math.round(lastedMs / 1000));
    const minutes = s < 120 ? 'none' : String(Math.floor(s / 60));
    return words.t('cli.outage.back', {
      what: said.what,
      url: said.url,
      minutes,
      seconds: s < 120 ? s : s % 60,
    });
  }
}

/** A failure's message on one line, whatever was thrown. */
export function reasonText(reason: unknown): string {
  const text = reason instanceof Error ? reason.message : String(reason);
  return text.replace(/\s+/g, ' ').trim() || 'no reason given';
}

function seconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

export type Told = Pick<OutageOptions, 'announce' | 'logger' | 'now' | 'words'>;

/** The API away while rows go on: they are retried, so it is told once, not per attempt. */
export function apiOutage(apiBaseUrl: string, told: Told): Outage {
  return new Outage({
    ...told,
    subject: `The API at ${apiBaseUrl}`,
    meanwhile: 'rows wait for it and are retried',
    said: { what: 'api', url: apiBaseUrl, meanwhile: 'rows' },
  });
}

/**
 * Jobs whose locks lapsed while Redis was away (BullMQ takes them over and they resume from their
 * last recorded step): one line once they have stopped coming, `quietMs` after the last, instead
 * of a warning per job and per call that found its lock gone. Each job is counted once.
 */
export class LostLocks {
  readonly #told: Told;
  readonly #quietMs: number;
  readonly #jobs = new Set<string>();
  #timer: NodeJS.Timeout | undefined;

  constructor(told: Told, quietMs = LOST_LOCKS_QUIET_MS) {
    this.#told = told;
    this.#quietMs = quietMs;
  }

  /** A job's lock found lost (`reason`, BullMQ's words): counted, and logged as detail. */
  lost(jobId: string, reason: string): void {
    this.#jobs.add(jobId);
    this.#told.logger.debug({ jobId, reason }, "a job's lock was lost");
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.flush();
    }, this.#quietMs);
    // Nothing to wait for at exit: a stop says nothing of locks.
    this.#timer.unref();
  }

  /** Says how many jobs lost their locks since it last said so, if any. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const count = this.#jobs.size;
    if (count === 0) return;
    this.#jobs.clear();
    const { announce, words, logger } = this.#told;
    const line =
      words?.t('cli.outage.locks-lost', { count }) ??
      `${count} jobs' locks were lost while Redis was away: they are taken over and resume from their last recorded step.`;
    announce?.(line);
    logger[announce === undefined ? 'warn' : 'debug'](
      { jobs: count, told: announce !== undefined },
      "jobs' locks were lost while Redis was away; they are taken over",
    );
  }
}
