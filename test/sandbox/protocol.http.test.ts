import { Readable } from 'node:stream';

import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ApiClient } from '../helpers/api.js';
import { validOrder } from '../helpers/orders.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

describe('authentication', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });
  afterAll(() => sandbox.close());

  it.each([
    ['no token', {}],
    ['an unknown token', { authorization: 'Bearer nope' }],
    ['a lower-case scheme', { authorization: 'bearer sandbox-demo-token' }],
    ['basic auth', { authorization: 'Basic c2FuZGJveDpkZW1v' }],
  ])('answers 401 to %s', async (_case, headers) => {
    const api = new ApiClient(sandbox.url, null);
    for (const [method, path] of [
      ['GET', '/api/orders/1'],
      ['POST', '/api/orders/'],
      ['GET', '/api/files/1'],
      ['POST', '/api/files/'],
      ['GET', '/__sandbox/orders'],
    ] as const) {
      const answer = await api.send(method, path, { headers });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.text).toBe('{"message":"Unauthenticated."}');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('takes the demo token by default', async () => {
    expect(sandbox.tokens).toEqual([{ token: 'sandbox-demo-token', org: 'demo' }]);
    expect((await sandbox.api.createOrder(validOrder())).status).toBe(201);
  });
});

describe('routing', () => {
  let sandbox: TestSandbox;
  let anonymous: ApiClient;
  beforeAll(async () => {
    sandbox = await testSandbox();
    anonymous = sandbox.api.withToken(null);
  });
  afterAll(() => sandbox.close());

  it('answers 404 for an unknown route, before asking for a token', async () => {
    const answer = await anonymous.send('GET', '/api/inspections/1');
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ message: 'The route api/inspections/1 could not be found.' });
  });

  it.each([
    ['GET', '/api/orders/', 'POST', 'api/orders'],
    ['PUT', '/api/orders', 'POST', 'api/orders'],
    ['POST', '/api/orders/17', 'GET, HEAD', 'api/orders/17'],
    ['DELETE', '/api/orders/17', 'GET, HEAD', 'api/orders/17'],
    ['GET', '/api/files', 'POST', 'api/files'],
    ['PATCH', '/api/files/3', 'GET, HEAD', 'api/files/3'],
  ])(
    'answers %s %s with 405 and Allow: %s, before asking for a token',
    async (method, path, allow, route) => {
      const answer = await anonymous.send(method, path);
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe(allow);
      expect(answer.json).toEqual({
        message: `The ${method} method is not supported for route ${route}. Supported methods: ${allow}.`,
      });
    },
  );

  it('merges doubled slashes as the front server does', async () => {
    const created = await sandbox.api.createOrder(validOrder(), '//api//orders/');
    expect(created.status).toBe(201);
    const { id } = created.json as { id: number };
    for (const path of [`//api/orders/${id}`, `/api/orders/${id}//`, `/api//orders/${id}`]) {
      const answer = await sandbox.api.send('GET', path);
      expect(answer.status, path).toBe(200);
    }
    expect((await anonymous.send('GET', '//api/orders')).headers.allow).toBe('POST');
  });

  it('answers OPTIONS with the allowed methods', async () => {
    const answer = await anonymous.send('OPTIONS', '/api/orders/5');
    expect(answer.status).toBe(200);
    expect(answer.headers.allow).toBe('GET,HEAD');
  });

  it('answers HEAD like GET without a body', async () => {
    const created = await sandbox.api.createOrder(validOrder());
    const answer = await sandbox.api.send(
      'HEAD',
      `/api/orders/${(created.json as { id: number }).id}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
  });
});

describe('body size limits', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox({ postMaxBytes: 2000, proxyMaxBytes: 4000 });
  });
  afterAll(() => sandbox.close());

  const bigOrder = () => JSON.stringify(validOrder({ remark: 'x'.repeat(2500) }));

  it("answers Laravel's JSON 413 past post_max_size, before the route and the token", async () => {
    for (const [api, path] of [
      [sandbox.api, '/api/orders/'],
      [sandbox.api.withToken(null), '/api/orders/'],
      [sandbox.api, '/api/nowhere'],
    ] as const) {
      const answer = await api.send('POST', path, {
        body: bigOrder(),
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBe(413);
      expect(answer.text).toBe('{"message":""}');
    }
    expect(await sandbox.api.listOrders()).toEqual([]);
  });

  it("answers the proxy's HTML 413 past its own limit", async () => {
    const answer = await sandbox.api.send('POST', '/api/orders/', {
      body: JSON.stringify(validOrder({ remark: 'x'.repeat(5000) })),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.text).toContain('<center><h1>413 Request Entity Too Large</h1></center>');
    expect(answer.text).toContain('<hr><center>nginx</center>');
  });

  it('counts a chunked JSON body as it arrives', async () => {
    const answer = await request(`${sandbox.url}/api/orders/`, {
      method: 'POST',
      headers: { ...sandbox.api.headers(), 'content-type': 'application/json' },
      body: Readable.from([Buffer.from(bigOrder())]),
    });
    expect(answer.statusCode).toBe(413);
    expect(await answer.body.text()).toBe('{"message":""}');
  });

  it('counts a chunked multipart body as it arrives, and keeps none of it', async () => {
    const created = await sandbox.api.createOrder(validOrder());
    const { id } = created.json as { id: number };
    const boundary = 'b0undary';
    const multipart = [
      `--${boundary}\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n${id}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="model_type"\r\n\r\norder\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="collection_name"\r\n\r\nclientFiles\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      'y'.repeat(3000),
      `\r\n--${boundary}--\r\n`,
    ].map((s) => Buffer.from(s));
    const answer = await request(`${sandbox.url}/api/files/`, {
      method: 'POST',
      headers: {
        ...sandbox.api.headers(),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: Readable.from(multipart),
    });
    expect(answer.statusCode).toBe(413);
    await answer.body.dump();
    const listed = (await sandbox.api.listOrders()).find((o) => o.id === id);
    expect(listed?.files).toEqual([]);
  });
});

describe("Apache's trailing-slash redirect", () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox({ redirectTrailingSlash: true });
  });
  afterAll(() => sandbox.close());

  it('answers /api/orders/ with a 301 to /api/orders and creates nothing', async () => {
    const answer = await sandbox.api.createOrder(validOrder(), '/api/orders/');
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('/api/orders');
    expect(answer.text).toContain('Moved Permanently');
    expect(await sandbox.api.listOrders()).toEqual([]);
  });

  it('turns a client that follows it as a GET into a 405', async () => {
    const response = await fetch(`${sandbox.url}/api/orders/`, {
      method: 'POST',
      headers: { ...sandbox.api.headers(), 'content-type': 'application/json' },
      body: JSON.stringify(validOrder()),
      redirect: 'follow',
    });
    expect(response.status).toBe(405);
    expect(await response.json()).toEqual({
      message: 'The GET method is not supported for route api/orders. Supported methods: POST.',
    });
    expect(await sandbox.api.listOrders()).toEqual([]);
  });

  it('lets the path without a slash through', async () => {
    expect((await sandbox.api.createOrder(validOrder(), '/api/orders')).status).toBe(201);
  });
});

describe('rate limit', () => {
  let now = 1_800_000_000_000;
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox(
      {
        rateLimit: 3,
        tokens: [
          { token: 'one', org: 'acme' },
          { token: 'two', org: 'acme' },
        ],
      },
      { now: () => now },
    );
  });
  afterAll(() => sandbox.close());
  afterEach(() => {
    now += 60_000; // a fresh window for the next test
  });

  it('sends X-RateLimit headers on every answer and a 429 past the limit', async () => {
    const remaining: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await sandbox.api.getOrder(424242); // a 404 counts too
      expect(answer.status).toBe(404);
      expect(answer.headers['x-ratelimit-limit']).toBe('3');
      remaining.push(answer.headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    now += 20_000;
    const refused = await sandbox.api.createOrder(validOrder());
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ message: 'Too Many Attempts.' });
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['x-ratelimit-reset'])).toBe(Math.ceil((now + 40_000) / 1000));
    expect(await sandbox.api.listOrders()).toEqual([]);
  });

  it('sends them on successes and refusals of every route alike', async () => {
    const created = await sandbox.api.createOrder(validOrder());
    const invalid = await sandbox.api.createOrder({});
    const orderId = (created.json as { id: number }).id;
    const uploaded = await sandbox.api.upload(orderId, [
      { name: 'a.txt', data: Buffer.from('a'), type: 'text/plain' },
    ]);
    expect([created.status, invalid.status, uploaded.status]).toEqual([201, 422, 201]);
    const fileId = (uploaded.json as { id: number }).id;
    now += 60_000; // the window is spent: a new one for the download
    const file = await sandbox.api.getFile(fileId);
    expect(file.status).toBe(200);
    const answers = [created, invalid, uploaded, file];
    expect(answers.map((a) => a.headers['x-ratelimit-limit'])).toEqual(['3', '3', '3', '3']);
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '2']);
  });

  it('counts per token', async () => {
    for (let i = 0; i < 3; i++) await sandbox.api.getOrder(1);
    expect((await sandbox.api.getOrder(1)).status).toBe(429);
    expect((await sandbox.api.withToken('two').getOrder(1)).status).toBe(404);
  });

  it('opens again when the window has passed', async () => {
    for (let i = 0; i < 4; i++) await sandbox.api.getOrder(1);
    now += 60_000;
    const answer = await sandbox.api.getOrder(1);
    expect(answer.status).toBe(404);
    expect(answer.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('checks the token first: unknown callers get 401, not 429', async () => {
    for (let i = 0; i < 4; i++) await sandbox.api.getOrder(1);
    const answer = await sandbox.api.withToken('nope').getOrder(1);
    expect(answer.status).toBe(401);
    expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('checks the rate before validation: an invalid body gets 429', async () => {
    for (let i = 0; i < 3; i++) await sandbox.api.getOrder(1);
    expect((await sandbox.api.createOrder({})).status).toBe(429);
  });

  it('does not throttle the sandbox listing, nor count it against the token', async () => {
    const listings = [];
    for (let i = 0; i < 5; i++) listings.push(await sandbox.api.send('GET', '/__sandbox/orders'));
    expect(listings.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(listings.map((a) => a.headers['x-ratelimit-limit'])).toEqual(Array(5).fill(undefined));
    // The token's window is untouched: its first request of the window has two left after it.
    expect((await sandbox.api.getOrder(1)).headers['x-ratelimit-remaining']).toBe('2');
  });
});

describe('order of checks', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });
  afterAll(() => sandbox.close());

  it('looks up the record before validating the rest of the upload', async () => {
    const answer = await sandbox.api.upload(987654, [{ name: 'a.txt', data: Buffer.from('x') }], {
      model_type: 'nonsense',
    });
    expect(answer.status).toBe(404);
  });
});
