/**
 * The CLI in the person's language, run as users run it (the built binary): every line a person
 * reads on stderr comes from the catalogue (the pseudo-language marks each), and `import` and
 * `watch` speak Dutch and French end to end. Log lines (JSON) stay English and are left out.
 */
import { join } from 'node:path';

import { freePort } from '../../src/redis/local-server.js';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { type CliProcess, orderImporter } from '../helpers/cli.js';
import { writeDutchSheet } from '../helpers/dutch-sheet.js';
import { put, tempDir } from '../helpers/files.js';
import { unmarked } from '../helpers/pseudo.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { type TestWatch, testWatch } from '../helpers/watch.js';

/** The lines a person reads: not the empty ones, not the log's JSON. */
function humanLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{'));
}

let redis: TestRedis;
beforeAll(async () => {
  redis = await useTestRedis();
});
afterAll(async () => {
  await redis.cleanup();
});

function commonEnv(dataDir: string, extra: Record<string, string>): Record<string, string> {
  return {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}}`,
    DATA_DIR: dataDir,
    RETRY_DELAY_MS: '50',
    EMBEDDED_SANDBOX_PLANNING_S: '0',
    ...extra,
  };
}

describe('the pseudo-language', () => {
  it('marks every line import says on stderr, the embedded sandbox’s banner and Redis’s line too', async () => {
    const dir = await tempDir('qps-');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [sheetRow(1), sheetRow(2, { city: '' })]);
    const finished = await orderImporter(
      ['import', sheet],
      commonEnv(join(dir, 'data'), { LANGUAGE: 'qps' }),
    ).finished;
    expect(finished.code, finished.stderr).toBe(2);
    const lines = humanLines(finished.stderr);
    expect(lines.length).toBeGreaterThan(3);
    // Data may stand outside the marks: the sheet's name, a progress bar, numbers.
    for (const line of lines)
      expect(unmarked(line).replaceAll('orders.csv', ''), line).toMatch(/^[\s\d\p{P}]*$/u);
    // The human summary on stdout: its words marked, its numbers and paths as they are.
    expect(finished.stdout).toContain('⟦Report: ');
    expect(finished.stdout).toMatch(/⟦1 row not created⟧/);
  });

  it('marks the one line a failing command ends with', async () => {
    const dir = await tempDir('qps-');
    const finished = await orderImporter(
      ['import', join(dir, 'none.csv')],
      commonEnv(dir, { LANGUAGE: 'qps' }),
    ).finished;
    expect(finished.code).toBe(1);
    const lines = humanLines(finished.stderr);
    expect(lines).toHaveLength(1);
    expect(unmarked(lines[0]?.replace(/^order-importer: /, '') ?? 'x').trim()).toBe('');
  });

  it('marks every line status says, on stderr and stdout, after an import', async () => {
    const dir = await tempDir('qps-status-');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [sheetRow(1), sheetRow(2)]);
    const env = commonEnv(join(dir, 'data'), {});
    const imported = await orderImporter(['import', sheet], env).finished;
    expect(imported.code, imported.stderr).toBe(0);
    const finished = await orderImporter(['status'], { ...env, LANGUAGE: 'qps' }).finished;
    expect(finished.code, finished.stderr).toBe(0);
    const lines = [...humanLines(finished.stderr), ...humanLines(finished.stdout)];
    // Its sheet's line, with the API's status words inside the marks of its counts.
    expect(finished.stdout).toMatch(/^⟦.*⟦2 orders⟧.*⟧$/m);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(unmarked(line), line).toMatch(/^[\s\d\p{P}]*$/u);
  });

  it('marks every line a worker says, from its start to its stop, its metrics too', async () => {
    const sandbox = await testSandbox();
    try {
      const worker = orderImporter(['worker'], {
        ...commonEnv(await tempDir('qps-worker-'), { LANGUAGE: 'qps' }),
        API_BASE_URL: sandbox.url,
        API_TOKEN: sandbox.tokens[0]?.token ?? '',
        METRICS_PORT: String(await freePort()),
        METRICS_HOST: '127.0.0.1',
      });
      await worker.waitForStderr(/⟦Worker ready/, 30_000);
      worker.signal('SIGTERM');
      const finished = await worker.finished;
      expect(finished.code, finished.stderr).toBe(0);
      const lines = humanLines(finished.stderr);
      expect(finished.stderr).toContain('⟦Metrics: ');
      expect(finished.stderr).toContain('⟦Stopped.⟧');
      for (const line of lines) expect(unmarked(line), line).toMatch(/^[\s\d\p{P}]*$/u);
    } finally {
      await sandbox.close();
    }
  });
});

describe('import in Dutch and French', () => {
  it('a Dutch sheet with its mapping, in Dutch (LANG)', async () => {
    const dir = await tempDir('import-nl-');
    const { sheet } = await writeDutchSheet(dir);
    const finished = await orderImporter(
      ['import', sheet],
      commonEnv(join(dir, 'data'), { LANG: 'nl_BE.UTF-8' }),
    ).finished;
    expect(finished.code, finished.stderr).toBe(2);
    expect(finished.stderr).toContain('de opdrachten gaan naar de INGEBOUWDE TESTOMGEVING');
    expect(finished.stderr).toMatch(/In de wachtrij: \S*orders-nl\.csv als lijst \S+\./);
    expect(finished.stdout).toMatch(/lijst\s+rijen\s+aangemaakt\s+ongeldig\s+mislukt/);
    expect(finished.stdout).toContain('1 rij niet aangemaakt');
    expect(finished.stdout).toMatch(/rij 3 \(regel 4\)\s+referentie D-3\s+ongeldig/);
    expect(finished.stdout).toMatch(/Rapport: \S+/);
    expect(finished.stdout + finished.stderr).not.toMatch(/\b(Queued|Report|rows|not created)\b/);
  });

  it('a French sheet, in French (--language fr)', async () => {
    const dir = await tempDir('import-fr-');
    const sheet = await writeCsvSheet(dir, 'commandes.csv', [
      sheetRow(11, { city: 'Namur', postal_code: '5000', contact_language: 'fr' }),
      sheetRow(12, { city: '', contact_language: 'fr' }),
    ]);
    const finished = await orderImporter(
      ['import', '--language', 'fr', sheet],
      commonEnv(join(dir, 'data'), {}),
    ).finished;
    expect(finished.code, finished.stderr).toBe(2);
    expect(finished.stderr).toContain(
      'les commandes sont envoyées à l’ENVIRONNEMENT DE TEST INTÉGRÉ',
    );
    expect(finished.stderr).toMatch(/Mise en file d’attente de \S*commandes\.csv \(liste \S+\)\./);
    expect(finished.stdout).toMatch(/liste\s+lignes\s+créée\s+non valable\s+en échec/);
    expect(finished.stdout).toContain('1 ligne non créée');
    expect(finished.stdout).toMatch(/Rapport\u202f: \S+/);
    expect(finished.stdout + finished.stderr).not.toMatch(/\b(Queued|Report|rows|not created)\b/);
  });
});

describe('watch in Dutch and French', () => {
  let watch: TestWatch | undefined;
  const started: CliProcess[] = [];
  afterEach(async () => {
    for (const cli of started.splice(0))
      if (cli.child.exitCode === null && cli.child.signalCode === null) {
        cli.child.kill('SIGKILL');
        await cli.finished;
      }
    await watch?.close();
    watch = undefined;
  });

  const cases = [
    {
      language: 'nl',
      watching: /wordt opgevolgd/,
      done: /Klaar: orders-nl\.csv \(lijst \S+\): 2 aangemaakt, 1 ongeldig\. Rapport: /,
      stopped: /Gestopt\./,
      write: (inbox: string) => writeDutchSheet(join(inbox, 'agency')),
    },
    {
      language: 'fr',
      watching: /Surveillance de /,
      done: /Terminé\u202f: commandes\.csv \(liste \S+\)\u202f: 1 créée, 1 non valable\. Rapport\u202f: /,
      stopped: /Arrêté\./,
      write: (inbox: string) =>
        writeCsvSheet(join(inbox, 'bureau'), 'commandes.csv', [
          sheetRow(21, { contact_language: 'fr' }),
          sheetRow(22, { city: '' }),
        ]),
    },
  ] as const;

  it.each(cases)('$language: its start, a sheet done and its stop', async (one) => {
    watch = await testWatch();
    const cli = orderImporter(['watch', '--no-dashboard'], {
      ...watch.env,
      LANGUAGE: one.language,
    });
    started.push(cli);
    await cli.waitForStderr(one.watching, 30_000);
    await put(watch.inbox, '.keep', '');
    await one.write(watch.inbox);
    await cli.waitForStderr(one.done, 30_000);
    cli.child.kill('SIGTERM');
    const finished = await cli.finished;
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stderr).toMatch(one.stopped);
    expect(finished.stderr).not.toMatch(/\b(Watching|Took|Done|Stopped)\b/);
  });
});
