import { createHash, randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FormData } from 'undici';

import type { ApiClient } from '../helpers/api.js';
import { validOrder } from '../helpers/orders.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let other: ApiClient;

beforeAll(async () => {
  sandbox = await testSandbox({
    tokens: [
      { token: 'token-acme', org: 'acme' },
      { token: 'token-beta', org: 'beta' },
    ],
  });
  other = sandbox.api.withToken('token-beta');
});
afterAll(() => sandbox.close());

async function newOrder(api: ApiClient = sandbox.api): Promise<number> {
  const answer = await api.createOrder(validOrder());
  expect(answer.status).toBe(201);
  return (answer.json as { id: number }).id;
}

/** Every byte value, several times over, so no encoding step can slip through unnoticed. */
const EVERY_BYTE = Buffer.concat(
  Array.from({ length: 4 }, () => Buffer.from(Array.from({ length: 256 }, (_, i) => i))),
);

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('POST /api/files/', () => {
  it('stores a binary file that comes back byte for byte', async () => {
    const orderId = await newOrder();
    const answer = await sandbox.api.upload(orderId, [
      { name: 'plan.bin', data: EVERY_BYTE, type: 'application/octet-stream' },
    ]);
    expect(answer.status).toBe(201);
    const { id } = answer.json as { id: number };
    expect(Object.keys(answer.json as object)).toEqual(['id']);
    expect(Number.isInteger(id)).toBe(true);

    const file = await sandbox.api.getFile(id);
    expect(file.status).toBe(200);
    expect(file.body.equals(EVERY_BYTE)).toBe(true);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.headers['content-length']).toBe(String(EVERY_BYTE.length));
    expect(file.headers['content-disposition']).toBe('attachment; filename="plan.bin"');
  });

  it('tells the media type from the content, not from what the client claims', async () => {
    const orderId = await newOrder();
    const answer = await sandbox.api.upload(orderId, [
      { name: 'not-really.pdf', data: Buffer.from('just text\n'), type: 'application/pdf' },
      {
        name: 'photo',
        data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
        type: 'text/plain',
      },
    ]);
    expect(answer.status).toBe(201);
    const listed = (await sandbox.api.listOrders()).find((o) => o.id === orderId);
    expect(listed?.files.map((f) => f.mime_type)).toEqual(['text/plain', 'image/png']);
    const file = await sandbox.api.getFile(listed?.files[0]?.id ?? 0);
    expect(file.headers['content-type']).toBe('text/plain');
  });

  it('keeps a non-ASCII file name', async () => {
    const orderId = await newOrder();
    const pdf = Buffer.from('%PDF-1.4\n% plan\n');
    const answer = await sandbox.api.upload(orderId, [
      { name: 'grondplan_Liège.pdf', data: pdf, type: 'application/pdf' },
    ]);
    const file = await sandbox.api.getFile((answer.json as { id: number }).id);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="grondplan_Li_ge.pdf"; filename*=utf-8''grondplan_Li%C3%A8ge.pdf`,
    );
    expect(file.body.equals(pdf)).toBe(true);
  });

  it('streams a large file through intact', async () => {
    const orderId = await newOrder();
    const big = randomBytes(6 * 1024 * 1024 + 7);
    const answer = await sandbox.api.upload(orderId, [{ name: 'photos.zip', data: big }]);
    expect(answer.status).toBe(201);
    const file = await sandbox.api.getFile((answer.json as { id: number }).id);
    expect(sha256(file.body)).toBe(sha256(big));
  });

  it('takes several files at once and answers with the last one', async () => {
    const orderId = await newOrder();
    const answer = await sandbox.api.upload(orderId, [
      { name: 'a.txt', data: Buffer.from('first') },
      { name: 'b.txt', data: Buffer.from('second') },
      { name: 'c.txt', data: Buffer.from('third') },
    ]);
    expect(answer.status).toBe(201);
    const listed = (await sandbox.api.listOrders()).find((o) => o.id === orderId);
    expect(listed?.files.map((f) => f.file_name)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(listed?.files.at(-1)?.id).toBe((answer.json as { id: number }).id);
    expect(listed?.files[1]?.sha256).toBe(sha256(Buffer.from('second')));
    const first = await sandbox.api.getFile(listed?.files[0]?.id ?? 0);
    expect(first.text).toBe('first');
  });

  it.each([
    [{ collection_name: 'clientFiles' }, { model_type: ['The model type field is required.'] }],
    [
      { model_type: 'invoice', collection_name: 'clientFiles' },
      { model_type: ['The selected model type is invalid.'] },
    ],
    [
      { model_type: 'order', collection_name: 'photos' },
      { collection_name: ['The selected collection name is invalid.'] },
    ],
  ])('refuses the fields %j with 422', async (fields, errors) => {
    const orderId = await newOrder();
    const answer = await sandbox.api.upload(
      orderId,
      [{ name: 'a.txt', data: Buffer.from('x') }],
      fields,
    );
    expect(answer.status).toBe(422);
    expect((answer.json as { errors: object }).errors).toEqual(errors);
    const listed = (await sandbox.api.listOrders()).find((o) => o.id === orderId);
    expect(listed?.files).toEqual([]);
  });

  it('refuses an upload without files or without model_id', async () => {
    const orderId = await newOrder();
    const noFiles = await sandbox.api.upload(orderId, []);
    expect(noFiles.status).toBe(422);
    expect(noFiles.json).toEqual({
      message: 'The files field is required.',
      errors: { files: ['The files field is required.'] },
    });
    const noModel = await sandbox.api.upload(null, [{ name: 'a.txt', data: Buffer.from('x') }]);
    expect(noModel.status).toBe(422);
    expect((noModel.json as { errors: object }).errors).toEqual({
      model_id: ['The model id field is required.'],
    });
  });

  it('refuses a file sent as "files" without brackets: it is not a list', async () => {
    const orderId = await newOrder();
    const answer = await sandbox.api.upload(orderId, [
      { name: 'a.txt', data: Buffer.from('x'), field: 'files' },
    ]);
    expect(answer.status).toBe(422);
    expect((answer.json as { errors: object }).errors).toEqual({
      files: ['The files field must be an array.'],
    });
  });

  it("answers 404 for an unknown order or another organisation's", async () => {
    const theirs = await newOrder(other);
    for (const modelId of [theirs, 12345678, 'abc']) {
      const answer = await sandbox.api.upload(modelId, [{ name: 'a.txt', data: Buffer.from('x') }]);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({
        message: `No query results for model [App\\Models\\Order] ${modelId}`,
      });
    }
    const listed = (await other.listOrders()).find((o) => o.id === theirs);
    expect(listed?.files).toEqual([]);
  });

  it('refuses a body that is not multipart with 415', async () => {
    const orderId = await newOrder();
    const answer = await sandbox.api.send('POST', '/api/files/', {
      body: JSON.stringify({
        model_id: orderId,
        model_type: 'order',
        collection_name: 'clientFiles',
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(415);
    expect((answer.json as { message: string }).message).toMatch(/multipart\/form-data/);
  });

  it('answers 422, not 500, to a multipart body without a boundary', async () => {
    const orderId = await newOrder();
    const answer = await sandbox.api.send('POST', '/api/files/', {
      body: `model_id=${orderId}`,
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(answer.status).toBe(422);
    expect(Object.keys((answer.json as { errors: object }).errors)).toEqual([
      'model_id',
      'model_type',
      'collection_name',
      'files',
    ]);
  });

  it('answers 422 to a truncated multipart body', async () => {
    const orderId = await newOrder();
    const answer = await sandbox.api.send('POST', '/api/files/', {
      body: `--xx\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n${orderId}\r\n--xx\r\nContent-Disposition: form-data; name="files[]"; filename="a.txt"\r\n\r\nhalf a fi`,
      headers: { 'content-type': 'multipart/form-data; boundary=xx' },
    });
    expect(answer.status).toBe(422);
    const listed = (await sandbox.api.listOrders()).find((o) => o.id === orderId);
    expect(listed?.files).toEqual([]);
  });

  it('names a text part sent as files[] and an empty file input, as Laravel does', async () => {
    const orderId = await newOrder();
    const part = (headers: string, body: string) => `--xx\r\n${headers}\r\n\r\n${body}\r\n`;
    const body =
      part('Content-Disposition: form-data; name="model_id"', String(orderId)) +
      part('Content-Disposition: form-data; name="model_type"', 'order') +
      part('Content-Disposition: form-data; name="collection_name"', 'clientFiles') +
      part('Content-Disposition: form-data; name="files[]"', 'not a file') +
      part(
        'Content-Disposition: form-data; name="files[]"; filename=""\r\nContent-Type: application/octet-stream',
        '',
      ) +
      '--xx--\r\n';
    const answer = await sandbox.api.send('POST', '/api/files/', {
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=xx' },
    });
    expect(answer.status).toBe(422);
    expect((answer.json as { errors: object }).errors).toEqual({
      'files.0': ['The files.0 field must be a file.'],
      'files.1': ['The files.1 field is required.'],
    });
  });

  it('ignores file parts under other names, as PHP does', async () => {
    const orderId = await newOrder();
    const answer = await sandbox.api.upload(orderId, [
      { name: 'kept.txt', data: Buffer.from('kept') },
      { name: 'stray.txt', data: Buffer.from('stray'), field: 'attachment' },
    ]);
    expect(answer.status).toBe(201);
    const listed = (await sandbox.api.listOrders()).find((o) => o.id === orderId);
    expect(listed?.files.map((f) => f.file_name)).toEqual(['kept.txt']);
  });

  it('takes model_id after the files as well as before', async () => {
    const orderId = await newOrder();
    const form = new FormData();
    form.append('files[]', new Blob([Buffer.from('late fields')]), 'late.txt');
    form.append('model_type', 'order');
    form.append('collection_name', 'clientFiles');
    form.append('model_id', String(orderId));
    const answer = await sandbox.api.send('POST', '/api/files/', { body: form });
    expect(answer.status).toBe(201);
  });
});

describe('GET /api/files/{id}', () => {
  it("answers 404 for an unknown file or another organisation's", async () => {
    const orderId = await newOrder();
    const uploaded = await sandbox.api.upload(orderId, [{ name: 'a.txt', data: Buffer.from('x') }]);
    const { id } = uploaded.json as { id: number };
    for (const [api, fileId] of [
      [other, id],
      [sandbox.api, 1],
    ] as const) {
      const answer = await api.getFile(fileId);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({
        message: `No query results for model [Spatie\\MediaLibrary\\MediaCollections\\Models\\Media] ${fileId}`,
      });
    }
  });

  it('does not mistake an order id for a file id', async () => {
    const orderId = await newOrder();
    expect((await sandbox.api.getFile(orderId)).status).toBe(404);
  });
});

describe('PHP upload limits', () => {
  it('answers 422 "failed to upload" for a file over upload_max_filesize, and keeps nothing', async () => {
    const limited = await testSandbox({ uploadMaxFileBytes: 1000 });
    try {
      const orderId = ((await limited.api.createOrder(validOrder())).json as { id: number }).id;
      const exact = await limited.api.upload(orderId, [
        { name: 'ok.bin', data: randomBytes(1000) },
      ]);
      expect(exact.status).toBe(201);
      const over = await limited.api.upload(orderId, [
        { name: 'ok.bin', data: randomBytes(10) },
        { name: 'big.bin', data: randomBytes(1001) },
      ]);
      expect(over.status).toBe(422);
      expect(over.json).toEqual({
        message: 'The files.1 failed to upload.',
        errors: { 'files.1': ['The files.1 failed to upload.'] },
      });
      const listed = await limited.api.listOrders();
      expect(listed[0]?.files.map((f) => f.size)).toEqual([1000]);
    } finally {
      await limited.close();
    }
  });

  it('drops files past max_file_uploads without a word, as PHP does', async () => {
    const limited = await testSandbox({ maxFileUploads: 2 });
    try {
      const orderId = ((await limited.api.createOrder(validOrder())).json as { id: number }).id;
      const answer = await limited.api.upload(
        orderId,
        ['1', '2', '3'].map((n) => ({ name: `${n}.txt`, data: Buffer.from(n) })),
      );
      expect(answer.status).toBe(201);
      const listed = await limited.api.listOrders();
      expect(listed[0]?.files.map((f) => f.file_name)).toEqual(['1.txt', '2.txt']);
    } finally {
      await limited.close();
    }
  });
});
