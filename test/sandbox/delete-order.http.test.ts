import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiClient } from '../helpers/api.js';
import { validOrder } from '../helpers/orders.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

let dataDir: string;
let sandbox: TestSandbox;
let other: ApiClient;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sandbox-delete-'));
  sandbox = await testSandbox({
    dataDir,
    tokens: [
      { token: 'token-acme', org: 'acme' },
      { token: 'token-beta', org: 'beta' },
    ],
  });
  other = sandbox.api.withToken('token-beta');
});
afterAll(async () => {
  await sandbox.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function createdOrder(api = sandbox.api): Promise<number> {
  const answer = await api.createOrder(validOrder());
  expect(answer.status, answer.text).toBe(201);
  return (answer.json as { id: number }).id;
}

const remove = (id: number | string, api = sandbox.api) =>
  api.send('DELETE', `/__sandbox/orders/${id}`);

describe('DELETE /__sandbox/orders/{id}', () => {
  it('deletes the order with its files: each then answers 404', async () => {
    const id = await createdOrder();
    const uploaded = await sandbox.api.upload(id, [
      { name: 'plan.pdf', data: Buffer.from('%PDF') },
    ]);
    const { id: fileId } = uploaded.json as { id: number };
    const blobs = await readdir(join(dataDir, 'blobs'));

    const answer = await remove(id);
    expect(answer.status, answer.text).toBe(204);
    expect(answer.text).toBe('');

    const read = await sandbox.api.getOrder(id);
    expect(read.status).toBe(404);
    expect(read.json).toEqual({ message: `No query results for model [App\\Models\\Order] ${id}` });
    expect((await sandbox.api.getFile(fileId)).status).toBe(404);
    expect((await sandbox.api.listOrders()).map((o) => o.id)).not.toContain(id);
    expect((await readdir(join(dataDir, 'blobs'))).length).toBe(blobs.length - 1);
    // Nothing more to upload to, and nothing left to delete.
    const late = await sandbox.api.upload(id, [{ name: 'late.pdf', data: Buffer.from('%PDF') }]);
    expect(late.status).toBe(404);
    expect((await remove(id)).status).toBe(404);
  });

  it('leaves the other orders alone', async () => {
    const kept = await createdOrder();
    const gone = await createdOrder();
    expect((await remove(gone)).status).toBe(204);
    expect((await sandbox.api.getOrder(kept)).status).toBe(200);
  });

  it('answers 404 to another organisation, and the order stays', async () => {
    const id = await createdOrder();
    const answer = await remove(id, other);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({
      message: `No query results for model [App\\Models\\Order] ${id}`,
    });
    expect((await sandbox.api.getOrder(id)).status).toBe(200);
  });

  it('answers 404 to an unknown or malformed id, and 401 without a token', async () => {
    expect((await remove(99_999_999)).status).toBe(404);
    expect((await remove('abc')).status).toBe(404);
    const id = await createdOrder();
    const anonymous = await remove(id, sandbox.api.withToken(null));
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toBe('{"message":"Unauthenticated."}');
    expect((await sandbox.api.getOrder(id)).status).toBe(200);
  });

  it('is no route of the API itself: DELETE /api/orders/{id} stays a 405', async () => {
    const id = await createdOrder();
    const answer = await sandbox.api.send('DELETE', `/api/orders/${id}`);
    expect(answer.status).toBe(405);
    expect((await sandbox.api.getOrder(id)).status).toBe(200);
  });
});
