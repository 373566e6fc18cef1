import { describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import { type CliProcess, orderImporter, runCli } from '../helpers/cli.js';
import { validOrder } from '../helpers/orders.js';

const BASE_URL = /base URL:\s+(http:\/\/\S+)/;

/**
 * A client written from the provider's documentation alone: the documented paths, headers and
 * bodies, the multipart field names with their literal `[]`.
 */
async function documentedConversation(baseUrl: string, token: string) {
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  const created = await fetch(`${baseUrl}/api/orders/`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      property_type: 'Vrijstaande woning',
      habbitable_space: '210',
      no_inv_mail: 0,
      no_contact_mail: 0,
      address1: 'Stationsstraat',
      address2: '4',
      city: 'Leuven',
      postal_code: '3000',
      contact_name: 'Marie Dubois',
      contact_language: 'fr',
      contact_email: 'marie.dubois@example.be',
      contact_phone1: '+32 16 12 34 56',
      inv_company_name: 'Notariaat Dubois',
      inv_address1: 'Grote Markt',
      inv_address2: '1',
      inv_city: 'Leuven',
      inv_postal_code: '3000',
      inv_mail: 'boekhouding@example.be',
      inv_phone1: '+32 16 00 00 00',
      invoice_to: 'other',
      is_contact_owner: 'yes',
      keyPickup_location: 'Grote Markt 1, 3000 Leuven',
      order_products: [
        { id: 'EPC', quantity: 1 },
        { id: 'ELEC-1.1', quantity: 1 },
      ],
      breaker_boxes: '2',
    }),
  });
  expect(created.status).toBe(201);
  const order = (await created.json()) as {
    id: number;
    inspections: Array<{ id: number; product_id: string }>;
  };
  expect(order.inspections.map((i) => i.product_id)).toEqual(['EPC', 'ELEC-1.1']);

  const form = new FormData();
  form.append('model_id', String(order.id));
  form.append('model_type', 'order');
  form.append('collection_name', 'clientFiles');
  form.append('files[]', new Blob(['floor plan'], { type: 'text/plain' }), 'plan.txt');
  const uploaded = await fetch(`${baseUrl}/api/files/`, { method: 'POST', headers, body: form });
  expect(uploaded.status).toBe(201);
  const file = (await uploaded.json()) as { id: number };

  const retrieved = await fetch(`${baseUrl}/api/orders/${order.id}`, { headers });
  expect(retrieved.status).toBe(200);
  const { data } = (await retrieved.json()) as { data: Record<string, unknown> };
  expect(data).toMatchObject({
    id: order.id,
    status: 'to schedule',
    habbitable_space: '210',
    city: 'Leuven',
  });

  const bytes = await fetch(`${baseUrl}/api/files/${file.id}`, { headers });
  expect(bytes.status).toBe(200);
  expect(await bytes.text()).toBe('floor plan');
}

async function stopCleanly(cli: CliProcess) {
  cli.child.kill('SIGTERM');
  const finished = await cli.finished;
  expect(finished.code, finished.stderr).toBe(0);
}

describe('order-importer sandbox', () => {
  it('serves the documented API on the asked port and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const cli = orderImporter(['sandbox', '--port', String(port), '--token', 'e2e-token:e2e-org']);
    const [, baseUrl] = await cli.waitFor(BASE_URL);
    expect(baseUrl).toBe(`http://127.0.0.1:${port}`);
    expect(cli.stdout).toContain('token:     e2e-token');
    await documentedConversation(baseUrl ?? '', 'e2e-token');
    await stopCleanly(cli);
  });

  it('runs through npx in the project folder, with the demo token', async () => {
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
  });

  it("applies PHP's stock upload limits with --php-defaults", async () => {
    const port = await freePort();
    const cli = orderImporter(['sandbox', '--port', String(port), '--php-defaults']);
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

  it('takes its tokens and port from the environment', async () => {
    const port = await freePort();
    const cli = orderImporter(['sandbox'], {
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
    [['sandbox', '--products', 'nowhere.json'], /Product catalogue .*nowhere\.json cannot be read/],
    [
      ['sandbox', '--token', 'a:x', '--token', 'a:y'],
      /--token \/ SANDBOX_TOKENS: Sandbox token "a" is given twice/,
    ],
  ])('refuses %j with one line and exit code 1', async (args, message) => {
    const finished = await orderImporter(args).finished;
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(message);
    expect(finished.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('says which port is taken', async () => {
    const port = await freePort();
    const first = orderImporter(['sandbox', '--port', String(port)]);
    await first.waitFor(BASE_URL);
    const second = await orderImporter(['sandbox', '--port', String(port)]).finished;
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /Cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\): choose another --port/,
    );
    await stopCleanly(first);
  });

  it('has --help for the program and the command', async () => {
    const program = await orderImporter(['--help']).finished;
    expect(program.code).toBe(0);
    expect(program.stdout).toMatch(/sandbox \[options\]\s+Run the sandbox/);
    const command = await orderImporter(['sandbox', '--help']).finished;
    expect(command.code).toBe(0);
    for (const flag of [
      '--port',
      '--data',
      '--token',
      '--rate-limit',
      '--p503',
      '--p-reset-after',
    ]) {
      expect(command.stdout).toContain(flag);
    }
  });

  it('refuses an unknown command', async () => {
    const finished = await orderImporter(['frobnicate']).finished;
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(/unknown command 'frobnicate'/);
  });
});
