/**
 * The two rate-limit lines of issue 11: an advertised limit (`API_RATE_LIMIT` set) and one the API
 * only shows in its X-RateLimit-* headers, 100 requests per 10 s, 3 worker processes; the share
 * of the limit used and the share of answers that are 429s (bench/rate-limit.ts measures them,
 * from the sandbox's own log; `npm run bench:rate` runs the same with one worker too).
 */
import { join } from 'node:path';

import { tempFolder } from './cleanup.js';
import {
  type Line,
  line,
  type LineSpec,
  loadNow,
  type Measure,
  progress,
  scaled,
} from './lines.js';
import { startPrivateRedis } from './private-redis.js';
import { measureRateLimit } from './rate-limit.js';

const WORKERS = 3;
const MIN_PERCENT_OF_LIMIT = 95;
const MAX_PERCENT_429 = 1;

/** What bench/rate-limit.ts gives back, as far as these lines need it. */
export interface RateLimitFigures {
  percentOfLimit: number;
  percent429: number;
}

/** Rows of the sheet (two requests each): about ten windows of the limit. */
const ROWS = 500;

const spec = (key: string, label: string): LineSpec => ({
  key,
  label,
  targets: { minPercentOfLimit: MIN_PERCENT_OF_LIMIT, maxPercent429: MAX_PERCENT_429 },
  target: [`≥ ${MIN_PERCENT_OF_LIMIT} % of the limit`, `≤ ${MAX_PERCENT_429} % 429`],
});

function rateLimitMeasure(name: string, key: string, label: string, advertised: boolean): Measure {
  const which = spec(key, label);
  return {
    name,
    lines: [which],
    run: async (scale) => {
      const folder = await tempFolder(`bench-${name}`);
      const redis = await startPrivateRedis(join(folder.path, 'redis'));
      try {
        const before = loadNow();
        progress(`${name}: ${WORKERS} worker processes against a throttle of 100 per 10 s…`);
        const figures = await measureRateLimit({
          advertised,
          workers: WORKERS,
          rows: scaled(ROWS, scale),
          redisUrl: redis.url,
        });
        return [rateLimitLine(which, figures, { before, after: loadNow() })];
      } finally {
        await redis.stop();
        await folder.remove();
      }
    },
  };
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
