import type { Dispatcher } from 'undici';

/** An answer's body as read: at most the cap, and whether there was more. */
export interface AnswerBody {
  bytes: Buffer;
  /** True when the body went on past the cap: it was cut there and the connection dropped. */
  cut: boolean;
}

/**
 * Reads at most `cap` bytes of an answer's body. Past it, the body is destroyed, which drops its
 * connection: the rest is never read, so an answer of any size costs the process `cap` at most.
 */
export async function readCapped(
  response: Dispatcher.ResponseData,
  cap: number,
): Promise<AnswerBody> {
  const { body, headers } = response;
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) {
    body.destroy();
    return { bytes: Buffer.alloc(0), cut: true };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const part = chunk as Buffer;
    if (size + part.length > cap) {
      chunks.push(part.subarray(0, cap - size));
      body.destroy();
      return { bytes: Buffer.concat(chunks, cap), cut: true };
    }
    chunks.push(part);
    size += part.length;
  }
  return { bytes: Buffer.concat(chunks, size), cut: false };
}
