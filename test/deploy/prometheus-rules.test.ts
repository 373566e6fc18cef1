/**
 * The alert rules shipped in deploy/prometheus/ are what Prometheus loads: checked by Debian's
 * promtool (package prometheus, got by scripts/test-needs.ts), and each alert seen firing and
 * not firing by the unit tests beside them (`promtool test rules`).
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const DIR = 'deploy/prometheus';
const RULES = `${DIR}/order-importer-rules.yml`;
const TESTS = `${DIR}/order-importer-rules.test.yml`;

interface Rules {
  groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
}
interface RuleTests {
  tests: Array<{ alert_rule_test: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
}

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { encoding: 'utf8' });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

async function rules() {
  const { groups } = parse(await readFile(RULES, 'utf8')) as Rules;
  return groups.flatMap((group) => group.rules);
}

describe('the Prometheus alert rules', () => {
  it('pass `promtool check rules`', () => {
    const { status, output } = promtool('check', 'rules', RULES);
    expect(output).toMatch(/SUCCESS: \d+ rules found/);
    expect(status, output).toBe(0);
  });

  it('fire as their unit tests expect (`promtool test rules`)', () => {
    const { status, output } = promtool('test', 'rules', TESTS);
    expect(status, output).toBe(0);
    expect(output).toMatch(/SUCCESS/);
  });

  it('have each alert tested both firing and quiet', async () => {
    const { tests } = parse(await readFile(TESTS, 'utf8')) as RuleTests;
    const cases = tests.flatMap((test) => test.alert_rule_test);
    const alerts = (await rules()).map((rule) => rule.alert);
    expect(alerts).toEqual(
      expect.arrayContaining([
        'OrderImporterDown',
        'OrderImporterUnhealthy',
        'OrderImporterRowsFailed',
        'OrderImporterRowsNeedReview',
        'OrderImporterRowsStuck',
        'OrderImporterApiErrors',
      ]),
    );
    for (const alert of alerts) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(
        mine.some((c) => c.exp_alerts.length > 0),
        `${alert} firing`,
      ).toBe(true);
      expect(
        mine.some((c) => c.exp_alerts.length === 0),
        `${alert} quiet`,
      ).toBe(true);
    }
  });

  it('take queue counts once: every process reports the same, a sum would count each again', async () => {
    for (const { alert, expr } of await rules()) {
      for (const found of expr.matchAll(/order_importer_queue_jobs\{/g))
        expect(expr.slice(0, found.index), `${alert}: queue counts`).toMatch(
          /(max|min|avg) by \([^)]*\) \($/,
        );
    }
  });

  it('are each explained on the operations page', async () => {
    const page = await readFile('docs/operations.md', 'utf8');
    for (const { alert } of await rules()) expect(page, alert).toContain(`| \`${alert}\` |`);
  });
});
