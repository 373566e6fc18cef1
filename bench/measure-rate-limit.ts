/**
 * The two rate-limit lines of issue 11: an advertised limit (`API_RATE_LIMIT` set) and one the API
 * only shows in its X-RateLimit-* headers, 100 requests per 10 s, 3 worker processes; the share
 * of the limit used and the share of answers that are 429s.
 *
 * ┌─ TO WIRE IN ────────────────────────────────────────────────────────────────────────────────┐
 * │ bench/rate-limit.ts (written on its own branch) measures these; until it is merged, both      │
 * │ lines say "not measured". Once it is: import its `measureRateLimit({ advertised, workers })`, │
 * │ and in `run` below return `rateLimitLine(spec, await measureRateLimit({ advertised, workers: │
 * │ WORKERS }), load)` instead of `unmeasured(…)`.                                               │
 * └──────────────────────────────────────────────────────────────────────────────────────────────┘
 */
import { type Line, line, type LineSpec, type Measure, unmeasured } from './lines.js';

const WORKERS = 3;
const MIN_PERCENT_OF_LIMIT = 95;
const MAX_PERCENT_429 = 1;

/** What bench/rate-limit.ts gives back, as far as these lines need it. */
export interface RateLimitFigures {
  percentOfLimit: number;
  percent429: number;
}

const spec = (key: string, label: string): LineSpec => ({
  key,
  label,
  targets: { minPercentOfLimit: MIN_PERCENT_OF_LIMIT, maxPercent429: MAX_PERCENT_429 },
  target: [`≥ ${MIN_PERCENT_OF_LIMIT} % of the limit`, `≤ ${MAX_PERCENT_429} % 429`],
});

function rateLimitMeasure(name: string, key: string, label: string, _advertised: boolean): Measure {
  const measure: Measure = {
    name,
    lines: [spec(key, label)],
    run: async () => unmeasured(measure, 'not measured', 'bench/rate-limit.ts is not merged yet'),
  };
  return measure;
}

/** The line of one rate-limit figure, once measured. */
export function rateLimitLine(
  which: LineSpec,
  figures: RateLimitFigures,
  load: Line['load'],
): Line {
  const met =
    figures.percentOfLimit >= MIN_PERCENT_OF_LIMIT && figures.percent429 <= MAX_PERCENT_429;
  return line(which, {
    status: met ? 'met' : 'NOT met',
    product: [
      `${figures.percentOfLimit.toFixed(1)} % of the limit`,
      `${figures.percent429.toFixed(1)} % 429`,
    ],
    peers: [],
    figures: { ...figures, workers: WORKERS },
    load,
  });
}

export const rateLimitAdvertised = rateLimitMeasure(
  'rate-advertised',
  'rateLimitAdvertised',
  `advertised rate limit (API_RATE_LIMIT, 100 per 10 s, ${WORKERS} workers)`,
  true,
);

export const rateLimitHeaders = rateLimitMeasure(
  'rate-headers',
  'rateLimitHeaders',
  `unadvertised rate limit (headers only, 100 per 10 s, ${WORKERS} workers)`,
  false,
);
