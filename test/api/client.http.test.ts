import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { once } from 'node:events';

import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ApiClient, type FileToUpload } from '../../src/api/client.js';
import { AbortedError, ApiError } from '../../src/api/errors.js';
import { openInside } from '../../src/orders/open-attachment.js';
import type { SandboxOptionsInput } from '../../sandbox/options.js';
import { put, tempDir } from '../helpers/files.js';
import { validOrder } from '../helpers/orders.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
afterAll(() => dispatcher.close());
const dir = await tempDir('client-');

/** A file of the test folder, opened as the row job opens attachments. */
function fileIn(name: string): FileToUpload {
  return { name: name.split('/').pop() ?? name, open: () => openInside(dir, name) };
}

function clientFor(baseUrl: string, token = 'sandbox-demo-token', timeoutMs = 5000) {
  return new ApiClient({ baseUrl, token, timeoutMs, dispatcher });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('against a well-behaved sandbox', () => {
  let sandbox: TestSandbox;
  let client: ApiClient;
  beforeAll(async () => {
    sandbox = await testSandbox();
    client = clientFor(`${sandbox.url}/`);
  });
  afterAll(() => sandbox.close());

  it('creates an order, attaches a file streamed from disk, and reads both back', async () => {
    const created = await client.createOrder(
      validOrder({
        order_products: [
          { id: 'EPC', quantity: 1 },
          { id: 'GAS', quantity: 1 },
        ],
        contact_language: 'fr',
      }),
    );
    expect(created.inspections.map((i) => i.product_id)).toEqual(['EPC', 'GAS']);
    const bytes = randomBytes(300_000);
    await put(dir, 'plan.pdf', bytes);
    const fileId = await client.uploadFile(created.id, fileIn('plan.pdf'));
    expect((await client.getFile(fileId)).equals(bytes)).toBe(true);
    const order = await client.getOrder(created.id);
    expect(order).toMatchObject({
      id: created.id,
      contact_language: 'fr',
      habbitable_space: '140',
    });
    const listed = await sandbox.api.listOrders();
    expect(listed.find((o) => o.id === created.id)?.files.map((f) => f.file_name)).toEqual([
      'plan.pdf',
    ]);
  });

  it('sends a file named with quotes, accents or nothing at all in it, byte for byte', async () => {
    const created = await client.createOrder(validOrder());
    await put(dir, 'names/plan "één".pdf', '%PDF named');
    await put(dir, 'names/empty.txt', '');
    const named = await client.uploadFile(created.id, fileIn('names/plan "één".pdf'));
    const empty = await client.uploadFile(created.id, fileIn('names/empty.txt'));
    expect((await client.getFile(named)).toString()).toBe('%PDF named');
    expect((await client.getFile(empty)).length).toBe(0);
    const listed = await sandbox.api.listOrders();
    expect(listed.find((o) => o.id === created.id)?.files.map((f) => f.file_name)).toEqual([
      'plan %22één%22.pdf',
      'empty.txt',
    ]);
  });

  it('gives a 422 as a permanent error with the field errors', async () => {
    const error = await failure(client.createOrder({ city: 'Gent' }));
    expect(error.kind).toBe('permanent');
    expect(error.details.status).toBe(422);
    expect(error.details.fieldErrors?.address1).toEqual(['The address1 field is required.']);
    expect(error.message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/api\/orders\/ answered 422: The property type field is required\./,
    );
  });

  it('gives a refused token as an auth error', async () => {
    const error = await failure(clientFor(sandbox.url, 'wrong').createOrder(validOrder()));
    expect(error.details).toMatchObject({ kind: 'auth', status: 401 });
    expect(error.message).toContain('Unauthenticated.');
  });

  it('gives an unknown order as a permanent 404', async () => {
    expect((await failure(client.getOrder(1))).details).toMatchObject({
      kind: 'permanent',
      status: 404,
    });
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client.createOrder(validOrder(), controller.signal)).rejects.toBeInstanceOf(
      AbortedError,
    );
  });

  it('waits for its gate before a request leaves, its file already open, and not on its time', async () => {
    // The gate holds 300 ms, longer than the request's own time limit (200 ms).
    const gated = clientFor(sandbox.url, 'sandbox-demo-token', 200);
    const order = await gated.createOrder(validOrder());
    await put(dir, 'gated.pdf', '%PDF gated');
    const sent: number[] = [];
    gated.onAnswer((answer) => sent.push(answer.sentAt));
    let opened = 0;
    const file: FileToUpload = {
      name: 'gated.pdf',
      open: () => ((opened = Date.now()), openInside(dir, 'gated.pdf')),
    };
    const ungate = gated.gateWith(() => new Promise((resolve) => setTimeout(resolve, 300)));
    const asked = Date.now();
    await gated.uploadFile(order.id, file);
    expect(opened - asked).toBeLessThan(300);
    expect((sent[0] ?? 0) - asked).toBeGreaterThanOrEqual(295);
    ungate();
    await gated.getOrder(order.id);
    expect(sent[1]).toBeDefined();
  });

  it('sends nothing when stopped at its gate: not a verdict on the request', async () => {
    const gated = clientFor(sandbox.url);
    const heard: number[] = [];
    gated.onAnswer((answer) => heard.push(answer.status));
    const controller = new AbortController();
    gated.gateWith(
      (signal) =>
        new Promise((_, reject) => {
          signal?.addEventListener('abort', () => {
            reject(signal.reason as Error);
          });
        }),
    );
    const creating = gated.createOrder(validOrder(), controller.signal);
    setTimeout(() => {
      controller.abort();
    }, 50);
    await expect(creating).rejects.toBeInstanceOf(AbortedError);
    expect(heard).toEqual([]);
  });
});

describe('against a faulty sandbox', () => {
  const open: TestSandbox[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  async function faulty(options: SandboxOptionsInput) {
    const sandbox = await testSandbox(options);
    open.push(sandbox);
    return { sandbox, client: clientFor(sandbox.url, 'sandbox-demo-token', 1500) };
  }

  it.each([
    [
      'a 503 with Retry-After',
      { faults: { p503: 1, retryAfterSeconds: 4 } },
      { kind: 'retryable', status: 503, retryAfterMs: 4000 },
    ],
    [
      'a 500 after the order is stored',
      { faults: { p500After: 1 } },
      { kind: 'ambiguous', status: 500 },
    ],
    [
      'a reset after the order is stored',
      { faults: { pResetAfter: 1 } },
      { kind: 'ambiguous', code: 'ECONNRESET' },
    ],
    [
      'a reset before any work',
      { faults: { pResetBefore: 1 } },
      { kind: 'ambiguous', code: 'ECONNRESET' },
    ],
    ['no answer in time', { faults: { latencyMs: 3000 } }, { kind: 'ambiguous', code: 'TIMEOUT' }],
    ['an HTML 413 from the proxy', { proxyMaxBytes: 100 }, { kind: 'permanent', status: 413 }],
  ] as const)('classifies %s', async (_case, options, details) => {
    const { client } = await faulty(options);
    const error = await failure(client.createOrder(validOrder()));
    expect(error.details).toMatchObject(details);
  });

  it('reads the 429 of a rate limit with its Retry-After', async () => {
    const { client } = await faulty({ rateLimit: 1 });
    await client.createOrder(validOrder());
    const error = await failure(client.createOrder(validOrder()));
    expect(error.details).toMatchObject({ kind: 'retryable', status: 429 });
    expect(error.details.retryAfterMs).toBeGreaterThan(50_000);
  });

  it('tells every answer, success or error, with its status and rate-limit headers', async () => {
    const { client } = await faulty({ rateLimit: 2, rateWindowMs: 60_000 });
    const answers: Array<{ status: number; limit: unknown; remaining: unknown }> = [];
    const stop = client.onAnswer((answer) => {
      expect(answer.receivedAt).toBeGreaterThanOrEqual(answer.sentAt);
      answers.push({
        status: answer.status,
        limit: answer.headers['x-ratelimit-limit'],
        remaining: answer.headers['x-ratelimit-remaining'],
      });
    });
    const created = await client.createOrder(validOrder());
    await failure(client.getOrder(created.id + 1000));
    await failure(client.createOrder(validOrder()));
    stop();
    await failure(client.createOrder(validOrder()));
    expect(answers).toEqual([
      { status: 201, limit: '2', remaining: '1' },
      { status: 404, limit: '2', remaining: '0' },
      { status: 429, limit: '2', remaining: '0' },
    ]);
  });

  it('refuses to follow a 301 on a POST, naming the URL', async () => {
    const { sandbox, client } = await faulty({ redirectTrailingSlash: true });
    const error = await failure(client.createOrder(validOrder()));
    expect(error.details).toMatchObject({ kind: 'config', status: 301 });
    expect(error.message).toContain(
      `POST ${sandbox.url}/api/orders/ with a 301 redirect to /api/orders`,
    );
    expect(await sandbox.api.listOrders()).toEqual([]);
  });

  it('calls a connection refused retryable', async () => {
    const error = await failure(clientFor('http://127.0.0.1:1').createOrder(validOrder()));
    expect(error.details).toMatchObject({ kind: 'retryable', code: 'ECONNREFUSED' });
  });
});

describe('a 429 without Retry-After', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      const reset = Math.ceil(Date.now() / 1000) + 30;
      res
        .writeHead(429, {
          'content-type': 'application/json',
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(reset),
        })
        .end('{"message":"Too Many Attempts."}');
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => {
    server.close();
  });

  it('is waited out until its X-RateLimit-Reset', async () => {
    const error = await failure(clientFor(url).createOrder(validOrder()));
    expect(error.details).toMatchObject({ kind: 'retryable', status: 429 });
    expect(error.details.retryAfterMs).toBeGreaterThan(28_000);
    expect(error.details.retryAfterMs).toBeLessThanOrEqual(31_000);
  });
});

describe('a 307 redirect', () => {
  let sandbox: TestSandbox;
  let front: Server;
  let frontUrl: string;
  beforeAll(async () => {
    sandbox = await testSandbox();
    // A front server of the same API: `/moved/…` answers a 307 to `/…` on itself (which keeps
    // method and body); `/elsewhere/…` a 307 to another host; anything else goes on to the sandbox.
    front = createServer((req, res) => {
      const path = req.url ?? '/';
      if (path.startsWith('/moved/')) {
        res.writeHead(307, { location: path.slice('/moved'.length) }).end();
        return;
      }
      if (path.startsWith('/elsewhere/')) {
        res.writeHead(307, { location: `${sandbox.url}${path.slice('/elsewhere'.length)}` }).end();
        return;
      }
      const onward = request(
        `${sandbox.url}${path}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      onward.on('error', () => res.destroy());
      req.pipe(onward);
    }).listen(0, '127.0.0.1');
    await once(front, 'listening');
    const address = front.address();
    frontUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    front.close();
    await sandbox.close();
  });

  it('is followed with the same method and body, once, within the same API', async () => {
    const client = clientFor(`${frontUrl}/moved`);
    const created = await client.createOrder(validOrder({ contact_name: 'Via 307' }));
    await put(dir, 'via.txt', 'redirected bytes');
    const fileId = await client.uploadFile(created.id, fileIn('via.txt'));
    const listed = await sandbox.api.listOrders();
    expect(listed.map((o) => o.contact_name)).toEqual(['Via 307']);
    expect(listed[0]?.files.map((f) => f.id)).toEqual([fileId]);
  });

  it('to another host is not followed: the token and the order never leave the connection', async () => {
    const before = (await sandbox.api.listOrders()).length;
    const error = await failure(
      clientFor(`${frontUrl}/elsewhere`).createOrder(validOrder({ contact_name: 'Not sent' })),
    );
    expect(error.details.kind).toBe('config');
    expect(error.message).toMatch(/redirect.*another host/i);
    expect(await sandbox.api.listOrders()).toHaveLength(before);
  });
});
