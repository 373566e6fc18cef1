/**
 * The API check at start (docs/design.md, "Start-up, outages and the edges"): one harmless request
 * before any sheet is queued (`import` copies and reads its sheets meanwhile, and removes the
 * copies when the check fails), so that a refused token stops here with one message rather than
 * in ten thousand rows. What §3 calls safe to retry is waited out instead, for up to API_WAIT_S,
 * with backoff and the API's own Retry-After, and said once.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

import type { Logger } from 'pino';

import { apiAway, type ApiError } from '../api/errors.js';
import type { Speech } from '../language/languages.js';
import { wordsFor } from '../language/words.js';
import { Outage } from '../outage.js';
import { UserError } from '../errors.js';
import { API_CHECK_FIRST_DELAY_MS, API_CHECK_MAX_DELAY_MS, SHORTEST_HOLD_MS } from '../policy.js';

export interface WaitForApiOptions {
  /** For the messages (never with the token). */
  baseUrl: string;
  /** API_WAIT_S. */
  waitS: number;
  /** Where the token comes from, for a refused one. @defaultValue `API_TOKEN / API_TOKEN_FILE` */
  tokenSource?: string;
  /** The same, for the catalogue's words: a connection's name and its token file. */
  tokenOf?: { connection: string; file: string };
  /** The language of the person told of an outage. */
  language?: Speech;
  announce: (line: string) => void;
  logger: Logger;
  /** Stops the waiting (a signal at start-up). */
  signal?: AbortSignal;
  /**
   * `watch` and `worker`: past API_WAIT_S, say so once and wait on instead of giving up, since a
   * service must not exit because the API is away (its supervisor would only start it again).
   */
  waitOn?: boolean;
  now?: () => number;
  /** Rejects when the signal is aborted. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The first pause between two checks without Retry-After; it doubles each time. @defaultValue API_CHECK_FIRST_DELAY_MS */
  firstDelayMs?: number;
  /** @defaultValue API_CHECK_MAX_DELAY_MS */
  maxDelayMs?: number;
}

/**
 * Resolves once `probe` finds the API answering and taking the token (probe gives undefined);
 * throws a UserError when the token is refused, when the API cannot be used at all, when
 * API_WAIT_S is over, or (exit code 0) when the signal stops the waiting.
 */
export async function waitForApi(
  /** One check; the signal aborts a request that hangs. */
  probe: (signal?: AbortSignal) => Promise<ApiError | undefined>,
  options: WaitForApiOptions,
): Promise<void> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const api = `The API at ${options.baseUrl}`;
  const deadline = now() + options.waitS * 1000;
  const outage = new Outage({
    subject: api,
    meanwhile: `waiting up to ${options.waitS} s for it (API_WAIT_S)`,
    said: { what: 'api', url: options.baseUrl, meanwhile: 'api_wait', seconds: options.waitS },
    ...(options.language && { words: wordsFor(options.language) }),
    announce: options.announce,
    logger: options.logger,
    now,
  });
  let delay = options.firstDelayMs ?? API_CHECK_FIRST_DELAY_MS;
  let saidStill = false;
  const stopped = (cause: unknown) =>
    new UserError('api.wait-stopped', `Stopped while waiting for the API at ${options.baseUrl}.`, {
      exitCode: 0,
      cause,
      values: { url: options.baseUrl },
    });
  for (;;) {
    let error: ApiError | undefined;
    try {
      error = await probe(options.signal);
    } catch (failure) {
      if (options.signal?.aborted) throw stopped(failure);
      throw failure;
    }
    if (error === undefined) {
      outage.recovered();
      return;
    }
    if (error.kind === 'auth') throw tokenRefused(api, error, options);
    if (!apiAway(error)) {
      throw new UserError('api.unusable', `${api} cannot be used: ${error.message}`, {
        cause: error,
        values: { url: options.baseUrl, reason: error.message },
      });
    }
    let left = deadline - now();
    if (left <= 0 && options.waitOn === true) {
      if (!saidStill) {
        options.announce(
          `${api} still does not answer after ${options.waitS} s (API_WAIT_S): ${error.message} Waiting on; check that it runs and that API_BASE_URL is right, or stop with Ctrl+C.`,
        );
        saidStill = true;
      }
      left = options.maxDelayMs ?? API_CHECK_MAX_DELAY_MS;
    } else if (left <= 0) {
      throw new UserError(
        'api.no-answer',
        `${api} did not answer within ${options.waitS} s (API_WAIT_S): ${error.message} Check that it runs and that API_BASE_URL is right, or raise API_WAIT_S.`,
        {
          cause: error,
          values: { url: options.baseUrl, seconds: options.waitS, reason: error.message },
        },
      );
    }
    outage.failed(error);
    // The API's own Retry-After says when to come back; without one, back off. Laravel's says 0
    // in a window's last second while it still refuses: that is a second, not at once.
    const asked = error.details.retryAfterMs;
    const pause = Math.min(left, asked === undefined ? delay : asked || SHORTEST_HOLD_MS);
    if (asked === undefined)
      delay = Math.min(delay * 2, options.maxDelayMs ?? API_CHECK_MAX_DELAY_MS);
    try {
      await sleep(pause, options.signal);
    } catch (failure) {
      if (!options.signal?.aborted) throw failure;
      throw stopped(failure);
    }
  }
}

async function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  await sleepFor(ms, undefined, signal ? { signal } : {});
}

/** The token refused: the person's to fix, saying which token is meant. */
function tokenRefused(api: string, error: ApiError, options: WaitForApiOptions): UserError {
  return new UserError(
    'api.token-refused',
    `${api} refused the token (${error.message}): check ${options.tokenSource ?? 'API_TOKEN / API_TOKEN_FILE'}.`,
    {
      cause: error,
      values: {
        url: options.baseUrl,
        reason: error.message,
        connection: options.tokenOf?.connection ?? 'none',
        file: options.tokenOf?.file ?? '',
      },
    },
  );
}
