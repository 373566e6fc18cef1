/**
 * The Order and File Service client: undici over one keep-alive Agent per process, the bearer
 * token on every request and in no log, a timeout per request, the caller's abort signal, and
 * every failure turned into an ApiError that says what it means (classify.ts).
 */
import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { Readable } from 'node:stream';

import { type Dispatcher, request } from 'undici';
import { z } from 'zod';

import type { OrderPayload } from '../orders/row.js';
import { classifyNetwork, classifyStatus, retryAfterMs } from './classify.js';
import { readCapped } from './answer-body.js';
import { Deadline } from './deadline.js';
import { readErrorBody } from './error-body.js';
import { AbortedError, ApiError } from './errors.js';
import { type ApiAnswer, resetTime } from './rate-headers.js';
import { API_MAX_WAIT_MS } from '../policy.js';

/**
 * One request as it ended, for whoever counts them (the process's metrics): the documented route
 * with its ids as `{id}`, and its status or why no answer came (`timeout`, `aborted`, a socket's
 * error code). The client itself knows nothing of metrics.
 */
export interface RequestSeen {
  method: string;
  route: string;
  code: string;
  seconds: number;
}

/** What a request waits for before it leaves; undefined: nothing (the usual case, no await). */
export type Gate = (signal: AbortSignal | undefined) => Promise<void> | undefined;

export interface ApiClientOptions {
  /** e.g. `https://api.example.be`; the documented paths (`/api/orders/`) go after it. */
  baseUrl: string;
  token: string;
  /** Per-request timeout, in ms. */
  timeoutMs: number;
  /** The process's keep-alive agent. */
  dispatcher: Dispatcher;
  /** Milliseconds since the epoch (for Retry-After dates). */
  now?: () => number;
}

const createdSchema = z.object({
  id: z.number().int(),
  inspections: z.array(z.object({ id: z.number().int(), product_id: z.string() })).default([]),
});
export type CreatedOrder = z.infer<typeof createdSchema>;

const uploadedSchema = z.object({ id: z.number().int() });

const retrievedSchema = z.object({ data: z.looseObject({ id: z.number().int() }) });
export type RetrievedOrder = z.infer<typeof retrievedSchema>['data'];

/** A file to attach to an order. */
export interface FileToUpload {
  /** The name the order shows. */
  name: string;
  /**
   * Opens the file for one request; a request sent again (a redirect) opens it again. The
   * opener decides what may be read (open-attachment.ts: never through a link); what it throws
   * comes out of uploadFile as it is.
   */
  open(): Promise<FileBody>;
}

/** An opened file's bytes. */
export interface FileBody {
  size: number;
  stream(): Readable;
  /** The bytes read whole: what a small file is sent as. */
  bytes(): Promise<Buffer>;
  close(): Promise<void>;
}

/** Files up to this size are read whole and sent in one piece rather than streamed. */
const SMALL_FILE_BYTES = 256 * 1024;

const MAX_REDIRECTS = 3;

/**
 * The most of an answer's body that is read. The documented answers are a few KB; what goes on
 * past this is cut and its connection dropped, rather than read whole into the process's memory.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The code of an ApiError whose answer went on past MAX_ANSWER_BYTES. */
export const ANSWER_TOO_LARGE = 'ANSWER_TOO_LARGE';

export class ApiClient {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #timeoutMs: number;
  readonly #dispatcher: Dispatcher;
  readonly #now: () => number;
  readonly #listeners = new Set<(answer: ApiAnswer) => void>();
  readonly #observers = new Set<(seen: RequestSeen) => void>();
  #gate: Gate | undefined;
  /** Multipart boundaries: random for the client, then counted (not 16 random bytes a file). */
  readonly #boundaryBase = randomBytes(16).toString('hex');
  #boundaries = 0;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs;
    this.#dispatcher = options.dispatcher;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Has every request wait for `gate` just before it leaves (its body built, its file opened):
   * a Retry-After heard meanwhile is obeyed by a request whose turn came before it. Returns what
   * removes it.
   */
  gateWith(gate: Gate): () => void {
    this.#gate = gate;
    return () => {
      if (this.#gate === gate) this.#gate = undefined;
    };
  }

  /**
   * Calls `listener` with the status and headers of every answer, success or error (the pace
   * learns the API's rate limit from them), as it comes. Returns what stops it.
   */
  onAnswer(listener: (answer: ApiAnswer) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Calls `observer` once per request sent, when it ends (each hop of a redirect is one). */
  onRequest(observer: (seen: RequestSeen) => void): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** POST /api/orders/ → the new order's id and one inspection per ordered product. */
  async createOrder(order: OrderPayload, signal?: AbortSignal): Promise<CreatedOrder> {
    const text = await this.#send('POST', '/api/orders/', signal, () => ({
      body: JSON.stringify(order),
      headers: { 'content-type': 'application/json' },
    }));
    return this.#parse(createdSchema, text, 'POST', '/api/orders/');
  }

  /** POST /api/files/ with one file, streamed from the opened file → the file's id. */
  async uploadFile(orderId: number, file: FileToUpload, signal?: AbortSignal): Promise<number> {
    const opened: FileBody[] = [];
    try {
      const text = await this.#send('POST', '/api/files/', signal, async () => {
        const body = await file.open();
        opened.push(body);
        return uploadForm(
          this.#boundary(),
          { model_id: String(orderId), model_type: 'order', collection_name: 'clientFiles' },
          file.name,
          body.size <= SMALL_FILE_BYTES ? await body.bytes() : body,
        );
      });
      return this.#parse(uploadedSchema, text, 'POST', '/api/files/').id;
    } finally {
      await Promise.all(opened.map((body) => body.close()));
    }
  }

  /**
   * GET /api/orders/{id}. The API writes `contact_language` twice, the later one null; a plain
   * JSON parse keeps the null, so the first value is taken from the text.
   */
  async getOrder(id: number, signal?: AbortSignal): Promise<RetrievedOrder> {
    const path = `/api/orders/${id}`;
    const text = await this.#send('GET', path, signal);
    const { data } = this.#parse(retrievedSchema, text, 'GET', path);
    if (data.contact_language === null || data.contact_language === undefined) {
      const first = firstStringValue(text, 'contact_language');
      if (first !== undefined) data.contact_language = first;
    }
    return data;
  }

  /** GET /api/files/{id} → the file's bytes. */
  async getFile(id: number, signal?: AbortSignal): Promise<Buffer> {
    return this.#send('GET', `/api/files/${id}`, signal, undefined, 'bytes');
  }

  /** A boundary no file can be made to contain, and never the same twice. */
  #boundary(): string {
    return `----order-importer-${this.#boundaryBase}-${(this.#boundaries++).toString(36)}`;
  }

  #send(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal | undefined,
    body?: () => Promise<RequestBody> | RequestBody,
  ): Promise<string>;
  #send(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal | undefined,
    body: undefined,
    as: 'bytes',
  ): Promise<Buffer>;
  async #send(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal | undefined,
    body?: () => Promise<RequestBody> | RequestBody,
    as: 'text' | 'bytes' = 'text',
  ): Promise<string | Buffer> {
    let url = `${this.baseUrl}${path}`;
    const seen = { method, route: routeOf(path) };
    for (let hop = 0; ; hop++) {
      const answer = await this.#hop(seen, url, signal, body, as);
      if (answer.redirect === undefined) return answer.body;
      if (hop >= MAX_REDIRECTS) throw answer.redirect.error;
      url = answer.redirect.url;
    }
  }

  /** One request: its answer's body, or where a 307/308 sends it again (within the same host). */
  async #hop(
    seen: { method: 'GET' | 'POST'; route: string },
    url: string,
    signal: AbortSignal | undefined,
    body: (() => Promise<RequestBody> | RequestBody) | undefined,
    as: 'text' | 'bytes',
  ): Promise<
    { body: string | Buffer; redirect?: undefined } | { redirect: { url: string; error: ApiError } }
  > {
    const { method } = seen;
    const payload = body ? await body() : undefined;
    // A hold waited out before the request's own time starts: it has not left, whatever stops it.
    const holding = this.#gate?.(signal);
    if (holding !== undefined) {
      await holding.catch((error: unknown) => {
        throw new AbortedError(`${method} ${url} stopped before it was sent: shutting down`, {
          cause: error,
        });
      });
    }
    const deadline = new Deadline(this.#timeoutMs, signal);
    try {
      return await this.#exchange(seen, url, deadline, payload, as);
    } finally {
      deadline.end();
    }
  }

  async #exchange(
    seen: { method: 'GET' | 'POST'; route: string },
    url: string,
    deadline: Deadline,
    payload: RequestBody | undefined,
    as: 'text' | 'bytes',
  ): Promise<
    { body: string | Buffer; redirect?: undefined } | { redirect: { url: string; error: ApiError } }
  > {
    const { method } = seen;
    let response: Dispatcher.ResponseData;
    const sentAt = this.#now();
    const started = performance.now();
    const ended = (code: string) => {
      const seconds = (performance.now() - started) / 1000;
      for (const observer of this.#observers) observer({ ...seen, code, seconds });
    };
    try {
      response = await request(url, {
        method,
        dispatcher: this.#dispatcher,
        signal: deadline.signal,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${this.#token}`,
          ...payload?.headers,
        },
        body: payload?.body,
      });
    } catch (error) {
      const failure = this.#networkError(error, method, url, deadline);
      ended(failureCode(failure));
      throw failure;
    }
    const { statusCode: status, headers } = response;
    ended(String(status));
    for (const listener of this.#listeners)
      listener({ status, headers, sentAt, receivedAt: this.#now() });
    if (status >= 200 && status < 300) {
      let answer;
      try {
        answer = await readCapped(response, MAX_ANSWER_BYTES);
      } catch (error) {
        throw this.#networkError(error, method, url, deadline);
      }
      if (answer.cut) throw tooLarge(method, url, status);
      return { body: as === 'bytes' ? answer.bytes : answer.bytes.toString('utf8') };
    }
    // An error's body only says why: what fits under the cap is enough, its status says the rest.
    const text = await readCapped(response, MAX_ANSWER_BYTES).then(
      ({ bytes }) => bytes.toString('utf8'),
      () => '',
    );
    const error = this.#statusError(status, headers, text, method, url);
    const location = headers.location;
    if ((status !== 307 && status !== 308) || typeof location !== 'string') throw error;
    // The same method and body again: a 307/308 promises nothing was done. Only within the
    // connection's own server: elsewhere would get its token and its orders.
    const next = new URL(location, url);
    if (next.origin !== new URL(url).origin) {
      throw new ApiError(
        `${method} ${url} answered ${status} with a redirect to another host (${next.origin}), which is not followed: set API_BASE_URL to the API's own address.`,
        { kind: 'config', method, url, status },
      );
    }
    return { redirect: { url: next.toString(), error } };
  }

  #statusError(
    status: number,
    headers: Dispatcher.ResponseData['headers'],
    text: string,
    method: string,
    url: string,
  ): ApiError {
    const contentType = headers['content-type'];
    const { message, fieldErrors } = readErrorBody(
      status,
      Array.isArray(contentType) ? contentType[0] : contentType,
      text,
    );
    const kind = classifyStatus(status);
    const location = headers.location;
    // A 429 may say when its window resets with X-RateLimit-Reset alone.
    const now = this.#now();
    const resetAt = status === 429 ? resetTime(headers, now) : undefined;
    const asked = resetAt === undefined ? retryAfterMs(headers['retry-after'], now) : resetAt - now;
    const wait = asked === undefined ? undefined : Math.min(asked, API_MAX_WAIT_MS);
    const shown =
      status >= 300 && status < 400
        ? `the API answered ${method} ${url} with a ${status} redirect to ${String(location)}; a ${method} must not be followed there as another request: set API_BASE_URL so that the documented paths need no redirect.`
        : `${method} ${url} answered ${status}: ${message}`;
    return new ApiError(shown, {
      kind,
      method,
      url,
      status,
      ...(wait !== undefined && { retryAfterMs: wait }),
      ...(fieldErrors && { fieldErrors }),
    });
  }

  #networkError(error: unknown, method: string, url: string, deadline: Deadline): Error {
    if (deadline.stopped)
      return new AbortedError(`${method} ${url} stopped: shutting down`, { cause: error });
    if (deadline.expired) {
      return new ApiError(
        `${method} ${url} got no answer within ${this.#timeoutMs} ms (API_TIMEOUT_MS).`,
        { kind: 'ambiguous', method, url, code: 'TIMEOUT' },
        { cause: error },
      );
    }
    const code = errorCode(error);
    return new ApiError(
      `${method} ${url} failed: ${(error as Error).message}${code ? ` (${code})` : ''}.`,
      { kind: classifyNetwork(code), method, url, ...(code && { code }) },
      { cause: error },
    );
  }

  #parse<T>(schema: z.ZodType<T>, text: string, method: string, path: string): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      json = undefined;
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    // A success status with a body we cannot read: whatever was asked may well have been done.
    throw new ApiError(
      `${method} ${this.baseUrl}${path} answered with an unexpected body: ${text.slice(0, 200)}`,
      {
        kind: 'ambiguous',
        method,
        url: `${this.baseUrl}${path}`,
      },
    );
  }
}

interface RequestBody {
  body: string | Buffer | Readable;
  headers: Record<string, string>;
}

/**
 * A multipart/form-data body with text fields and one file (`files[]`), written out here rather
 * than by FormData, which takes a file only as a Blob opened by path: the file must be streamed
 * from the handle that was checked. Its length is known, so it is sent with a Content-Length.
 */
function uploadForm(
  boundary: string,
  fields: Record<string, string>,
  name: string,
  file: FileBody | Buffer,
): RequestBody {
  // As browsers write them: a quote or line break in a name would end the header early.
  const quoted = (value: string) =>
    value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const head = Buffer.from(
    [
      ...Object.entries(fields).map(
        ([key, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(key)}"\r\n\r\n${value}\r\n`,
      ),
      `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="${quoted(name)}"\r\n`,
      `Content-Type: ${mediaType(name)}\r\n\r\n`,
    ].join(''),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  if (Buffer.isBuffer(file)) return { body: Buffer.concat([head, file, tail]), headers };
  const streamed = file;
  async function* parts(): AsyncIterable<Uint8Array> {
    yield head;
    for await (const chunk of streamed.stream()) yield chunk as Uint8Array;
    yield tail;
  }
  return {
    body: Readable.from(parts(), { objectMode: false }),
    headers: { ...headers, 'content-length': String(head.length + streamed.size + tail.length) },
  };
}

/**
 * A success whose body went on past MAX_ANSWER_BYTES: what was asked may well have been done (an
 * order created, a file attached), but what the answer says of it is not known — ambiguous (§3).
 */
function tooLarge(method: string, url: string, status: number): ApiError {
  return new ApiError(
    `${method} ${url} answered ${status} with a body over ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, which was not read: what was asked may have been done, but its answer is unknown.`,
    { kind: 'ambiguous', method, url, status, code: ANSWER_TOO_LARGE },
  );
}

/** A documented path's route: its id as `{id}`, no query (bounded, never a raw id). */
export function routeOf(path: string): string {
  return (path.split('?')[0] ?? path).replace(/^(\/api\/(?:orders|files))\/[^/]+$/, '$1/{id}');
}

/** Why a request got no answer, in a word: `timeout`, `aborted`, or the socket's error code. */
function failureCode(error: Error): string {
  if (error instanceof AbortedError) return 'aborted';
  if (!(error instanceof ApiError)) return 'network';
  const { code } = error.details;
  if (code === 'TIMEOUT') return 'timeout';
  return code ?? 'network';
}

/** The error code of a failed request: the socket's (ECONNREFUSED) or undici's (UND_ERR_SOCKET). */
function errorCode(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code;
  if (typeof own === 'string') return own;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof cause === 'string' ? cause : undefined;
}

/** The first string value of `key` in raw JSON text (for keys the API writes twice). */
export function firstStringValue(text: string, key: string): string | undefined {
  const pattern = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`);
  const match = pattern.exec(text)?.[1];
  return match === undefined ? undefined : (JSON.parse(match) as string);
}

const MEDIA_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.txt': 'text/plain',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.zip': 'application/zip',
};

function mediaType(name: string): string {
  return MEDIA_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}
