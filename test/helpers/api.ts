import { FormData, request } from 'undici';

/** What came back, raw: tests look at exact text and headers, not only parsed JSON. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
  body: Buffer;
}

export interface FilePart {
  name: string;
  data: Uint8Array;
  type?: string;
  /** Form field name; `files[]` as documented. */
  field?: string;
}

/**
 * A plain HTTP client for the sandbox, written from the provider's documentation; it follows no
 * redirect and hides no status, so tests see what a client would.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null,
  ) {}

  withToken(token: string | null): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      accept: 'application/json',
      ...(this.token === null ? {} : { authorization: `Bearer ${this.token}` }),
      ...extra,
    };
  }

  async send(
    method: string,
    path: string,
    options: { body?: string | Buffer | FormData; headers?: Record<string, string> } = {},
  ): Promise<RawAnswer> {
    // Joined as text: `new URL('//x', base)` would read `//x` as another host.
    const res = await request(`${this.baseUrl}${path}`, {
      method: method as 'GET',
      headers: this.headers(options.headers),
      body: options.body,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    const text = body.toString('utf8');
    let json: unknown = undefined;
    try {
      json = JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error; // not JSON: the test looks at `text`
    }
    return { status: res.statusCode, headers: res.headers, text, json, body };
  }

  createOrder(order: unknown, path = '/api/orders/'): Promise<RawAnswer> {
    return this.send('POST', path, {
      body: JSON.stringify(order),
      headers: { 'content-type': 'application/json' },
    });
  }

  getOrder(id: number | string): Promise<RawAnswer> {
    return this.send('GET', `/api/orders/${id}`);
  }

  upload(
    modelId: number | string | null,
    files: readonly FilePart[],
    fields: Record<string, string> = { model_type: 'order', collection_name: 'clientFiles' },
  ): Promise<RawAnswer> {
    const form = new FormData();
    if (modelId !== null) form.append('model_id', String(modelId));
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const file of files) {
      const blob = new Blob([file.data], { type: file.type ?? 'application/octet-stream' });
      form.append(file.field ?? 'files[]', blob, file.name);
    }
    return this.send('POST', '/api/files/', { body: form });
  }

  getFile(id: number | string): Promise<RawAnswer> {
    return this.send('GET', `/api/files/${id}`);
  }

  /** The sandbox-only listing of the caller's organisation's orders and files. */
  async listOrders(): Promise<SandboxListedOrder[]> {
    const answer = await this.send('GET', '/__sandbox/orders');
    if (answer.status !== 200) throw new Error(`listing failed: ${answer.status} ${answer.text}`);
    return (answer.json as { data: SandboxListedOrder[] }).data;
  }
}

export interface SandboxListedOrder {
  id: number;
  contact_name: string;
  files: Array<{ id: number; file_name: string; mime_type: string; size: number; sha256: string }>;
  [field: string]: unknown;
}

export interface LoggedApiRequest {
  at: number;
  method: string;
  path: string;
  status: number | null;
}

/** The sandbox's log of API requests (sandbox only). */
export async function sandboxRequests(api: ApiClient): Promise<LoggedApiRequest[]> {
  const answer = await api.send('GET', '/__sandbox/requests');
  return (answer.json as { data: LoggedApiRequest[] }).data;
}
