import { describe, expect, it } from 'vitest';

import { routeOf } from '../../src/api/client.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { parseMetrics, sumBy } from '../helpers/metrics.js';

describe('the process metrics', () => {
  it('reads the queue counts once for scrapes close together, again once they are stale', async () => {
    let clock = 1_000_000;
    const metrics = new Metrics({ now: () => clock, defaultMetrics: false });
    let reads = 0;
    metrics.watchQueues(() => {
      reads += 1;
      return Promise.resolve([
        { connection: 'gent', queue: 'rows', states: { waiting: reads, active: 2 } },
      ]);
    });
    await metrics.text();
    const second = parseMetrics(await metrics.text());
    expect(reads).toBe(1);
    // Each queue by its office's name and its kind, never its hashed name.
    expect(sumBy(second, 'order_importer_queue_jobs', ['connection', 'queue', 'state'])).toEqual({
      'gent rows waiting': 1,
      'gent rows active': 2,
    });
    clock += 5_000;
    const third = parseMetrics(await metrics.text());
    expect(reads).toBe(2);
    expect(sumBy(third, 'order_importer_queue_jobs', ['state']).waiting).toBe(2);
  });

  it('answers a scrape when Redis does not: with the last counts known', async () => {
    let clock = 0;
    const metrics = new Metrics({ now: () => clock, defaultMetrics: false });
    let hang = false;
    metrics.watchQueues(() =>
      hang
        ? new Promise(() => undefined)
        : Promise.resolve([{ connection: 'gent', queue: 'rows', states: { waiting: 3 } }]),
    );
    await metrics.text();
    hang = true;
    clock += 60_000;
    const scraped = parseMetrics(await metrics.text());
    expect(sumBy(scraped, 'order_importer_queue_jobs', ['state'])).toEqual({ waiting: 3 });
  });

  it('templates routes: never an id, never a query', () => {
    expect(routeOf('/api/orders/123')).toBe('/api/orders/{id}');
    expect(routeOf('/api/files/9?download=1')).toBe('/api/files/{id}');
    expect(routeOf('/api/orders/')).toBe('/api/orders/');
    expect(routeOf('/api/files/')).toBe('/api/files/');
  });

  it('remembers a refused token until the API takes it again', () => {
    const metrics = new Metrics({ defaultMetrics: false });
    const seen = metrics.apiObserver('office');
    seen({ method: 'POST', route: '/api/orders/', code: '401', seconds: 0.1 });
    expect(metrics.refusedToken('office')).toBe('401');
    seen({ method: 'POST', route: '/api/orders/', code: '503', seconds: 0.1 });
    expect(metrics.refusedToken('office')).toBe('401');
    seen({ method: 'GET', route: '/api/orders/{id}', code: '404', seconds: 0.1 });
    expect(metrics.refusedToken('office')).toBeUndefined();
  });
});
