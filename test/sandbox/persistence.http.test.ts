import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { validOrder } from '../helpers/orders.js';
import { testSandbox } from '../helpers/sandbox.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sandbox-data-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('a sandbox with a data folder', () => {
  it('keeps orders and files across a restart', async () => {
    const tokens = [{ token: 'keep', org: 'acme' }];
    const bytes = randomBytes(70_000);

    const first = await testSandbox({ dataDir, tokens });
    const created = await first.api.createOrder(validOrder({ contact_name: 'Survivor' }));
    const { id: orderId } = created.json as { id: number };
    const uploaded = await first.api.upload(orderId, [{ name: 'plan.pdf', data: bytes }]);
    const { id: fileId } = uploaded.json as { id: number };
    const before = await first.api.getOrder(orderId);
    await first.close();

    expect(await readdir(dataDir)).toContain('sandbox.sqlite');
    expect(await readdir(join(dataDir, 'blobs'))).toHaveLength(1);

    const second = await testSandbox({ dataDir, tokens });
    try {
      const after = await second.api.getOrder(orderId);
      expect(after.status).toBe(200);
      expect(after.text).toBe(before.text);
      const file = await second.api.getFile(fileId);
      expect(file.body.equals(bytes)).toBe(true);
      const next = await second.api.createOrder(validOrder());
      expect((next.json as { id: number }).id).toBe(orderId + 1);
    } finally {
      await second.close();
    }
  });
});

describe('an upload cut off half-way', () => {
  it('leaves no file record and no stray bytes behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-abort-'));
    const sandbox = await testSandbox({ dataDir: dir });
    try {
      const created = await sandbox.api.createOrder(validOrder());
      const { id } = created.json as { id: number };
      const boundary = 'cut0ff';
      const req = httpRequest(`${sandbox.url}/api/files/`, {
        method: 'POST',
        headers: {
          ...sandbox.api.headers(),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      });
      req.on('error', () => undefined); // we cut it ourselves
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n${id}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="a.bin"\r\n\r\n`,
      );
      req.write(randomBytes(256 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 200));
      req.destroy();

      const blobs = join(dir, 'blobs');
      const deadline = Date.now() + 5000;
      while ((await readdir(blobs)).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await readdir(blobs)).toEqual([]);
      const [order] = await sandbox.api.listOrders();
      expect(order?.files).toEqual([]);
    } finally {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
