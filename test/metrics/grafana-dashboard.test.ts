import { readFile } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import { Metrics } from '../../src/metrics/metrics.js';
import { parseMetrics } from '../helpers/metrics.js';

interface Dashboard {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
  templating: { list: Array<{ query: string }> };
}

/** What /metrics serves once each metric has a sample (a row, a sheet, a request, a queue). */
async function served(): Promise<string> {
  const metrics = new Metrics();
  metrics.rowsFinal('default', ['created']);
  metrics.sheet('default', 'queued');
  metrics.apiObserver('default')({
    method: 'POST',
    route: '/api/orders/',
    code: '429',
    seconds: 0.2,
  });
  metrics.watchQueues(() =>
    Promise.resolve([{ connection: 'default', queue: 'rows', states: { waiting: 1 } }]),
  );
  return metrics.text();
}

describe('docs/grafana-dashboard.json', () => {
  it('plots only metrics and labels that /metrics serves', async () => {
    const dashboard = JSON.parse(
      await readFile('docs/grafana-dashboard.json', 'utf8'),
    ) as Dashboard;
    const queries = [
      ...dashboard.panels.flatMap((panel) => panel.targets.map((t) => t.expr)),
      ...dashboard.templating.list.map((variable) => variable.query),
    ];
    const samples = parseMetrics(await served());
    const labelsOf = new Map<string, Set<string>>();
    for (const s of samples) {
      const labels = labelsOf.get(s.name) ?? new Set<string>();
      for (const label of Object.keys(s.labels)) labels.add(label);
      labelsOf.set(s.name, labels);
    }
    const named = queries.flatMap((q) => [...q.matchAll(/\b(order_importer_\w+)(\{[^}]*\})?/g)]);
    expect(named.length).toBeGreaterThanOrEqual(6);
    for (const [, name = '', selector = ''] of named) {
      expect([...labelsOf.keys()], `${name} is not served`).toContain(name);
      for (const [, label = ''] of selector.matchAll(/(\w+)\s*=~?/g))
        expect([...(labelsOf.get(name) ?? [])], `${name} has no label ${label}`).toContain(label);
    }
    // What each panel groups by is a label of what it plots (or `le`, the histogram's buckets).
    const everyLabel = new Set([...labelsOf.values()].flatMap((labels) => [...labels]));
    for (const query of queries)
      for (const [, list = ''] of query.matchAll(/\bby \(([^)]*)\)/g))
        for (const label of list.split(',').map((l) => l.trim()))
          expect([...everyLabel], `grouped by ${label}`).toContain(label);
  });

  it('plots rows per status, API latency percentiles, queue depth and 429s', async () => {
    const text = await readFile('docs/grafana-dashboard.json', 'utf8');
    expect(text).toMatch(/rate\(order_importer_rows_total/);
    expect(text).toMatch(
      /histogram_quantile\(0\.95, sum by \(le, route\) \(rate\(order_importer_api_request_duration_seconds_bucket/,
    );
    expect(text).toMatch(/order_importer_queue_jobs\{connection=~\\"\$connection\\", state=~/);
    expect(text).toMatch(/order_importer_api_requests_total\{code=\\"429\\"/);
  });

  // Every process of an installation reports the same queue counts (they are read from Redis):
  // a sum over processes would count each job once per process. Counters are each process's own,
  // so they are summed, but only as rates (a restarted process starts again from 0).
  it('is right with several processes: queue counts taken once, counters summed as rates', async () => {
    const dashboard = JSON.parse(
      await readFile('docs/grafana-dashboard.json', 'utf8'),
    ) as Dashboard;
    const queries = dashboard.panels.flatMap((panel) => panel.targets.map((t) => t.expr));
    const queue = queries.filter((q) => q.includes('order_importer_queue_jobs'));
    expect(queue.length).toBeGreaterThanOrEqual(1);
    for (const query of queue) {
      expect(query, 'queue counts of one process').toMatch(
        /^\s*(max|min|avg) by \([^)]*\) \(order_importer_queue_jobs\{/,
      );
      expect(query).not.toMatch(/\bsum\b/);
    }
    for (const query of queries)
      for (const [counter = ''] of query.matchAll(/\border_importer_\w+_(total|bucket)\b/g))
        expect(query, `${counter} as a rate`).toMatch(
          new RegExp(`\\b(rate|increase)\\(${counter}\\{`),
        );
  });
});
