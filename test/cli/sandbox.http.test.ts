import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import { InProcessCli, runInProcess } from '../helpers/cli.js';
import { documentedConversation } from '../helpers/documented-api.js';
import { validOrder } from '../helpers/orders.js';

const BASE_URL = /base URL:\s+(http:\/\/\S+)/;

async function stopCleanly(cli: InProcessCli) {
  cli.stop('SIGTERM');
  const finished = await cli.finished;
  expect(finished.code, finished.stderr).toBe(0);
}

describe('order-importer sandbox', () => {
  it('serves the documented API on the asked port and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const cli = new InProcessCli([
      'sandbox',
      '--port',
      String(port),
      '--token',
      'e2e-token:e2e-org',
    ]);
    const [, baseUrl] = await cli.waitFor(BASE_URL);
    expect(baseUrl).toBe(`http://127.0.0.1:${port}`);
    expect(cli.stdout).toContain('token:     e2e-token');
    await documentedConversation(baseUrl ?? '', 'e2e-token');
    await stopCleanly(cli);
  });

  it("applies PHP's stock upload limits with --php-defaults", async () => {
    const port = await freePort();
    const cli = new InProcessCli(['sandbox', '--port', String(port), '--php-defaults']);
    const [, baseUrl = ''] = await cli.waitFor(BASE_URL);
    expect(cli.stdout).toMatch(/2097152 bytes per file, 20 files per request/);
    const headers = { Authorization: 'Bearer sandbox-demo-token', Accept: 'application/json' };
    const created = await fetch(`${baseUrl}/api/orders/`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(validOrder()),
    });
    const { id } = (await created.json()) as { id: number };
    const form = new FormData();
    form.append('model_id', String(id));
    form.append('model_type', 'order');
    form.append('collection_name', 'clientFiles');
    form.append('files[]', new Blob([new Uint8Array(3 * 1024 * 1024)]), 'scan.pdf');
    const uploaded = await fetch(`${baseUrl}/api/files/`, { method: 'POST', headers, body: form });
    expect(uploaded.status).toBe(422);
    expect(await uploaded.json()).toEqual({
      message: 'The files.0 failed to upload.',
      errors: { 'files.0': ['The files.0 failed to upload.'] },
    });
    await stopCleanly(cli);
  });

  it('plans orders with --planning: its start-up says when, and an order read later has its plan', async () => {
    const port = await freePort();
    const cli = new InProcessCli([
      'sandbox',
      '--port',
      String(port),
      '--planning',
      '1',
      '--seed',
      '5',
    ]);
    const [, baseUrl = ''] = await cli.waitFor(BASE_URL);
    expect(cli.stdout).toContain('planning:  1 s after an order is created (seed 5)');
    const headers = { Authorization: 'Bearer sandbox-demo-token', Accept: 'application/json' };
    const created = await fetch(`${baseUrl}/api/orders/`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(validOrder()),
    });
    const { id } = (await created.json()) as { id: number };
    // Real time here: waited for, never timed.
    let status = 'to schedule';
    for (let i = 0; i < 200 && status === 'to schedule'; i++) {
      const read = await fetch(`${baseUrl}/api/orders/${id}`, { headers });
      status = ((await read.json()) as { data: { status: string } }).data.status;
      if (status === 'to schedule') await sleep(100);
    }
    expect(['scheduled', 'cancelled', 'done']).toContain(status);
    await stopCleanly(cli);
  });

  it('says it never plans without --planning', async () => {
    const port = await freePort();
    const cli = new InProcessCli(['sandbox', '--port', String(port)]);
    await cli.waitFor(BASE_URL);
    expect(cli.stdout).toMatch(/planning:\s+never/);
    await stopCleanly(cli);
  });

  it('takes its tokens and port from the environment', async () => {
    const port = await freePort();
    const cli = new InProcessCli(['sandbox'], {
      SANDBOX_PORT: String(port),
      SANDBOX_TOKENS: 'alpha:org-a,beta:org-b',
    });
    const [, baseUrl] = await cli.waitFor(BASE_URL);
    expect(baseUrl).toBe(`http://127.0.0.1:${port}`);
    expect(cli.stdout).toMatch(/token:\s+alpha\s+\(organisation "org-a"\)/);
    expect(cli.stdout).toMatch(/token:\s+beta\s+\(organisation "org-b"\)/);
    await stopCleanly(cli);
  });

  it.each([
    [
      ['sandbox', '--port', 'abc'],
      /^order-importer: --port must be a whole number from 0 to 65535 \(got "abc"\)\.\n$/,
    ],
    [
      ['sandbox', '--p503', '2'],
      /^order-importer: --p503 must be a probability from 0 to 1 \(got "2"\)\.\n$/,
    ],
    [
      ['sandbox', '--upload-max-filesize', 'big'],
      /^order-importer: --upload-max-filesize: "big" is not a size/,
    ],
    [
      ['sandbox', '--planning', 'soon'],
      /^order-importer: --planning must be a whole number from 0 to \d+ \(got "soon"\)\.\n$/,
    ],
    [
      ['sandbox', '--planning', '-5'],
      /^order-importer: --planning must be a whole number from 0 to \d+ \(got "-5"\)\.\n$/,
    ],
    [['sandbox', '--products', 'nowhere.json'], /Product catalogue .*nowhere\.json cannot be read/],
    [
      ['sandbox', '--token', 'a:x', '--token', 'a:y'],
      /--token \/ SANDBOX_TOKENS: Sandbox token "a" is given twice/,
    ],
  ])('refuses %j with one line and exit code 1', async (args, message) => {
    const finished = await runInProcess(args);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(message);
    expect(finished.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('says which port is taken', async () => {
    const port = await freePort();
    const first = new InProcessCli(['sandbox', '--port', String(port)]);
    await first.waitFor(BASE_URL);
    const second = await runInProcess(['sandbox', '--port', String(port)]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /Cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\): choose another --port/,
    );
    await stopCleanly(first);
  });

  it('has --help for the program and the command', async () => {
    const program = await runInProcess(['--help']);
    expect(program.code).toBe(0);
    expect(program.stdout).toMatch(/sandbox \[options\]\s+Run the sandbox/);
    const command = await runInProcess(['sandbox', '--help']);
    expect(command.code).toBe(0);
    for (const flag of [
      '--port',
      '--data',
      '--token',
      '--rate-limit',
      '--p503',
      '--p-reset-after',
      '--planning',
    ]) {
      expect(command.stdout).toContain(flag);
    }
  });

  it('refuses an unknown command', async () => {
    const finished = await runInProcess(['frobnicate']);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(/unknown command 'frobnicate'/);
  });
});
