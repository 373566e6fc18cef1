import { describe, expect, it } from 'vitest';

import { classifyNetwork, classifyStatus, retryAfterMs } from '../../src/api/classify.js';
import { readErrorBody } from '../../src/api/error-body.js';

describe('classifyStatus', () => {
  it.each([
    [400, 'permanent'],
    [401, 'auth'],
    [403, 'auth'],
    [404, 'permanent'],
    [405, 'config'],
    [408, 'ambiguous'],
    [409, 'permanent'],
    [410, 'permanent'],
    [413, 'permanent'],
    [415, 'permanent'],
    [418, 'permanent'],
    [422, 'permanent'],
    [429, 'retryable'],
    [500, 'ambiguous'],
    [501, 'ambiguous'],
    [502, 'retryable'],
    [503, 'retryable'],
    [504, 'ambiguous'],
    [599, 'ambiguous'],
    [301, 'config'],
    [302, 'config'],
    [303, 'config'],
    [307, 'config'],
  ])('%d → %s', (status, kind) => {
    expect(classifyStatus(status)).toBe(kind);
  });
});

describe('classifyNetwork', () => {
  it.each([
    ['ECONNREFUSED', 'retryable'],
    ['ENOTFOUND', 'retryable'],
    ['EAI_AGAIN', 'retryable'],
    ['EHOSTUNREACH', 'retryable'],
    ['ENETUNREACH', 'retryable'],
    ['UND_ERR_CONNECT_TIMEOUT', 'retryable'],
    ['ECONNRESET', 'ambiguous'],
    ['EPIPE', 'ambiguous'],
    ['UND_ERR_SOCKET', 'ambiguous'],
    ['UND_ERR_HEADERS_TIMEOUT', 'ambiguous'],
    ['UND_ERR_BODY_TIMEOUT', 'ambiguous'],
    ['TIMEOUT', 'ambiguous'],
    ['SOMETHING_NEW', 'ambiguous'],
    [undefined, 'ambiguous'],
  ])('%s → %s', (code, kind) => {
    expect(classifyNetwork(code)).toBe(kind);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-25T10:00:00Z');
  it.each([
    ['7', 7000],
    [' 0 ', 0],
    [['3', '9'], 3000],
    ['Wed, 25 Nov 2026 10:00:30 GMT', 30_000],
    ['Wed, 25 Nov 2026 09:00:00 GMT', 0],
    [undefined, undefined],
    ['', undefined],
    ['soon', undefined],
  ])('%j → %j', (header, ms) => {
    expect(retryAfterMs(header, now)).toBe(ms);
  });
});

describe('readErrorBody', () => {
  it("reads Laravel's message and field errors", () => {
    expect(
      readErrorBody(
        422,
        'application/json',
        '{"message":"The city field is required. (and 1 more error)","errors":{"city":["The city field is required."],"order_products.0.id":["The selected order_products.0.id is invalid."]}}',
      ),
    ).toEqual({
      message: 'The city field is required. (and 1 more error)',
      fieldErrors: {
        city: ['The city field is required.'],
        'order_products.0.id': ['The selected order_products.0.id is invalid.'],
      },
    });
  });

  it('explains a file PHP refused ("failed to upload") as a file larger than the server accepts', () => {
    const body =
      '{"message":"The files.0 failed to upload.","errors":{"files.0":["The files.0 failed to upload."]}}';
    const read = readErrorBody(422, 'application/json', body);
    expect(read.message).toMatch(
      /^the server refused the file — probably larger than it accepts \(its answer: "The files\.0 failed to upload\."\); .*MAX_ATTACHMENT_MB/,
    );
    expect(read.fieldErrors).toEqual({ 'files.0': ['The files.0 failed to upload.'] });
    // Another field's 422, or the same words under another status, keep the server's message.
    const other =
      '{"message":"The model id field is required.","errors":{"model_id":["The model id field is required."]}}';
    expect(readErrorBody(422, 'application/json', other).message).toBe(
      'The model id field is required.',
    );
    expect(readErrorBody(400, 'application/json', body).message).toBe(
      'The files.0 failed to upload.',
    );
  });

  it('says the status when the JSON message is empty (Laravel 10 413)', () => {
    expect(readErrorBody(413, 'application/json', '{"message":""}')).toEqual({
      message: 'HTTP 413 Payload Too Large',
    });
  });

  it("reads a proxy's HTML page", () => {
    const nginx =
      '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    expect(readErrorBody(413, 'text/html', nginx).message).toBe(
      '413 Request Entity Too Large (HTTP 413)',
    );
    expect(
      readErrorBody(
        502,
        undefined,
        '<!DOCTYPE html><html><body><h1>Bad <b>Gateway</b></h1></body></html>',
      ).message,
    ).toBe('Bad Gateway (HTTP 502)');
  });

  it('reads plain text and nothing', () => {
    expect(readErrorBody(503, 'text/plain', '  upstream   overloaded \n')).toEqual({
      message: 'upstream overloaded',
    });
    expect(readErrorBody(502, undefined, '')).toEqual({ message: 'HTTP 502 Bad Gateway' });
    expect(readErrorBody(500, 'application/json', '{not json').message).toBe('{not json');
  });
});
