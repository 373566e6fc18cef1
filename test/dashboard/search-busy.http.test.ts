/**
 * Searches are bounded one by one (rows, seconds, hits), and in number: a dashboard runs a few
 * at once and asks the rest to come back, so that the overview still answers while people search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAX_SEARCHES } from '../../src/dashboard/search-page.js';
import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import { reportOf, sheetOf } from '../helpers/reports.js';

let dashboard: RunningDashboard;

beforeAll(async () => {
  // Big enough that a search for what no row holds runs for a good second.
  const dirs = await Promise.all([1, 2].map(() => reportOf(150_000)));
  const sheets = dirs.map((dir, i) => sheetOf(dir, 150_000, `s${i}`));
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    overview: () => Promise.resolve(sheets),
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
}, 60_000);
afterAll(() => dashboard.close());

describe('searches at once', () => {
  it(`runs ${MAX_SEARCHES} and asks the others to come back, while the overview answers`, async () => {
    const search = () => fetch(`${dashboard.url}/search?q=nothing-holds-this`);
    const answers = Array.from({ length: MAX_SEARCHES + 2 }, search);
    // Asked while those run: the overview is not held up behind them.
    const overview = await fetch(`${dashboard.url}/`);
    expect(overview.status).toBe(200);
    const settled = await Promise.all(answers);
    const statuses = settled.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array.from({ length: MAX_SEARCHES }, () => 200), 503, 503]);
    const busy = settled.find((a) => a.status === 503);
    expect(busy?.headers.get('retry-after')).toBe('3');
    expect(await busy?.text()).toMatch(/searches are running already; try again in a few seconds/);
    // Once they are done, a search runs again.
    expect((await search()).status).toBe(200);
  }, 60_000);
});
