/**
 * A receiver that answers with a big body (an endpoint serving a file, a hostile one) is not read
 * whole to log a few words of it: the worker would hold all of it (450 MB of answer took `import`
 * from 170 MB to 1.5 GB before), and a few GB would take `watch` and its imports down.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { postWebhook } from '../../src/notify/webhook.js';

const TOTAL_MB = 64;
let server: Server;
let url: string;
let flushedMb = 0;
let ended: Promise<void>;

beforeAll(async () => {
  let done: () => void = () => undefined;
  ended = new Promise((resolve) => (done = resolve));
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(1 << 20, 'z');
      let written = 0;
      res.on('close', done);
      const push = (): void => {
        while (written < TOTAL_MB) {
          written += 1;
          const flushed = res.write(chunk, () => (flushedMb += 1));
          if (!flushed) {
            res.once('drain', push);
            return;
          }
        }
        res.end();
      };
      push();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('does not read a receiver’s whole answer to deliver a notification', async () => {
  await postWebhook(
    { url },
    { id: 'sheet-done-x', body: '{"event":"sheet.done"}' },
    { signal: new AbortController().signal, now: Date.now },
  );
  await ended;
  expect(flushedMb).toBeLessThan(TOTAL_MB / 2);
}, 60_000);
