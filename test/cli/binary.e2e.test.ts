/**
 * The built binary itself, as users run it: what needs a process of its own (a signal from the
 * terminal, npx in the project folder, an exit code). Everything else about the commands is
 * tested in process, through their IO.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import { type CliProcess, orderImporter, ROOT, runCli } from '../helpers/cli.js';
import { documentedConversation } from '../helpers/documented-api.js';

const BASE_URL = /base URL:\s+(http:\/\/\S+)/;

async function stopCleanly(cli: CliProcess) {
  cli.child.kill('SIGTERM');
  const finished = await cli.finished;
  expect(finished.code, finished.stderr).toBe(0);
}

describe('bin/order-importer.js', () => {
  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const finished = await orderImporter(['--version']).finished;
    expect(finished.code).toBe(0);
    expect(finished.stdout).toBe(`${version}\n`);
  });

  it('exits 1 with the message of the command: a sheet that does not exist, an unknown command', async () => {
    const invalid = await orderImporter([
      'validate',
      'samples/orders.csv',
      'test/fixtures/none.csv',
    ]).finished;
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(/none\.csv does not exist/);
    const unknown = await orderImporter(['frobnicate']).finished;
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);
  });

  it('serves the sandbox on the asked port and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const cli = orderImporter(['sandbox', '--port', String(port), '--token', 'e2e-token:e2e-org']);
    const [, baseUrl] = await cli.waitFor(BASE_URL);
    expect(baseUrl).toBe(`http://127.0.0.1:${port}`);
    await documentedConversation(baseUrl ?? '', 'e2e-token');
    await stopCleanly(cli);
  });

  it('runs the sandbox through npx in the project folder, with the demo token', async () => {
    const port = await freePort();
    const cli = runCli('npx', ['order-importer', 'sandbox', '--port', String(port)]);
    const [, baseUrl] = await cli.waitFor(BASE_URL, 60_000);
    expect(cli.stdout).toContain('sandbox-demo-token');
    await documentedConversation(baseUrl ?? '', 'sandbox-demo-token');
    // Ctrl+C reaches the whole foreground group; npm itself then ends by the signal.
    cli.signal('SIGINT');
    const finished = await cli.finished;
    expect(finished.code === 0 || finished.signal === 'SIGINT').toBe(true);
    await expect(fetch(`${baseUrl ?? ''}/api/orders/1`)).rejects.toThrow();
    // A hang guard past the minute npx is given to start: on a loaded machine it took over 30 s.
  }, 120_000);
});
