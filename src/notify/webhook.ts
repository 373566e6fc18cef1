/**
 * The webhook channel: a POST of the event's body (JSON), `X-Order-Importer-Event: <id>` and,
 * with a secret, `X-Order-Importer-Signature: sha256=<hex HMAC-SHA256 of the raw body>`. A 2xx
 * delivers it; a network error, a 5xx or a 429 (its Retry-After obeyed) is retried; any other
 * answer ends it.
 */
import { createHmac } from 'node:crypto';

import { type Dispatcher, request } from 'undici';

import { retryAfterMs } from '../api/classify.js';
import { NotifyError, withoutSecrets } from './errors.js';
import { NOTIFY_TIMEOUT_MS } from '../policy.js';

export interface WebhookTarget {
  url: string;
  secret?: string;
}

/** `sha256=<hex>` of the body with the secret: what a receiver computes to check it. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The receiver's host, as logs and errors name it (a URL may carry a token in its query). */
export function webhookHost(url: string): string {
  return URL.canParse(url) ? new URL(url).host : '(the webhook)';
}

export async function postWebhook(
  target: WebhookTarget,
  message: { id: string; body: string },
  options: { signal: AbortSignal; now: () => number },
): Promise<void> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'order-importer',
    'x-order-importer-event': message.id,
  };
  if (target.secret !== undefined)
    headers['x-order-importer-signature'] = signatureOf(message.body, target.secret);
  const host = webhookHost(target.url);
  let answer: Awaited<ReturnType<typeof request>>;
  try {
    answer = await request(target.url, {
      method: 'POST',
      body: message.body,
      headers,
      headersTimeout: NOTIFY_TIMEOUT_MS,
      bodyTimeout: NOTIFY_TIMEOUT_MS,
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(NOTIFY_TIMEOUT_MS)]),
    });
  } catch (error) {
    const reason = withoutSecrets((error as Error).message, [target.url, target.secret]);
    throw new NotifyError(
      `the webhook at ${host} could not be reached: ${reason}`,
      'retry',
      undefined,
      {
        cause: error,
      },
    );
  }
  const said = await firstWords(answer.body);
  const { statusCode } = answer;
  if (statusCode >= 200 && statusCode < 300) return;
  const what = `the webhook at ${host} answered ${statusCode}${said.trim() === '' ? '' : ` (${said.trim()})`}`;
  if (statusCode === 429 || statusCode >= 500)
    throw new NotifyError(
      what,
      'retry',
      retryAfterMs(answer.headers['retry-after'], options.now()),
    );
  throw new NotifyError(
    `${what}: it refuses the notification, so it is not sent again. Check NOTIFY_WEBHOOK_URL (and NOTIFY_WEBHOOK_SECRET) against what the receiver expects.`,
    'refused',
  );
}

/** The most of an answer read, for the log: a receiver answering a file is not held whole. */
const SAID_BYTES = 4096;

/**
 * The start of what the receiver said (for the log). Past a few KiB the rest is not read: the
 * body is dropped, and its connection with it.
 */
async function firstWords(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= SAID_BYTES) break;
    }
  } catch (error) {
    // What it said is only for the log; the status code decides.
    return String(error);
  } finally {
    if (size >= SAID_BYTES) body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, 200).toString('utf8');
}
