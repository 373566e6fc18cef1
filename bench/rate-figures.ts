/**
 * What a run got out of a rate limit, computed from the sandbox's own log of the requests it
 * answered (GET /__sandbox/requests): the API's side, not the client's.
 *
 * The throttle (sandbox/rate-limiter.ts, as Laravel's) opens a fixed window with the first request
 * after the previous window ended. The windows are rebuilt from the log in the same way; the
 * log notes a request when it arrives, and the throttle sees it a fixed latency later (no
 * jitter in the bench), so both place the same requests in the same windows.
 *
 * "% of the limit" is the requests accepted in the run's steady windows over what the limit
 * allows in the time those windows span, from the start of the first counted window to the
 * start of the last window (the last one is left out: the sheet runs out in it). Time between
 * two windows, when no request opened the next one at once, counts against the run. The first
 * window, in which nothing is learned yet, is left out of `percentOfLimit` and counted in
 * `percentOfLimitWithFirst`.
 */

/** One API request as the sandbox logged it (sandbox/request-log.ts). */
export interface LoggedRequest {
  at: number;
  method: string;
  path: string;
  status: number | null;
}

export interface RateFigures {
  requests: number;
  accepted: number;
  answered429: number;
  /** Accepted over allowed, windows 2 to the one before the last; NaN for too short a run. */
  percentOfLimit: number;
  /** The same from the first window on. */
  percentOfLimitWithFirst: number;
  percent429: number;
  /** Requests accepted in each window, in order, and how long after the previous it opened. */
  windows: { accepted: number; refused: number; gapMs: number }[];
}

interface Window {
  start: number;
  accepted: number;
  refused: number;
}

export function rateFigures(
  log: readonly LoggedRequest[],
  limit: number,
  windowMs: number,
): RateFigures {
  const requests = [...log].sort((a, b) => a.at - b.at);
  const windows: Window[] = [];
  for (const request of requests) {
    let current = windows.at(-1);
    if (current === undefined || request.at >= current.start + windowMs) {
      current = { start: request.at, accepted: 0, refused: 0 };
      windows.push(current);
    }
    if (request.status === 429) current.refused += 1;
    else current.accepted += 1;
  }
  const share = (from: number) => {
    const last = windows.at(-1);
    const first = windows[from];
    if (last === undefined || first === undefined || windows.length - from < 2) return Number.NaN;
    const accepted = windows.slice(from, -1).reduce((sum, w) => sum + w.accepted, 0);
    return (100 * accepted) / ((limit * (last.start - first.start)) / windowMs);
  };
  const answered429 = requests.filter((r) => r.status === 429).length;
  return {
    requests: requests.length,
    accepted: requests.length - answered429,
    answered429,
    percentOfLimit: share(1),
    percentOfLimitWithFirst: share(0),
    percent429: requests.length === 0 ? 0 : (100 * answered429) / requests.length,
    windows: windows.map((w, i) => ({
      accepted: w.accepted,
      refused: w.refused,
      gapMs: i === 0 ? 0 : w.start - ((windows[i - 1]?.start ?? 0) + windowMs),
    })),
  };
}
