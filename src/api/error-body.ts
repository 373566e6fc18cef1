import { STATUS_CODES } from 'node:http';

/** What an error answer says, in one plain line, whatever its body is made of. */
export interface ErrorBody {
  message: string;
  fieldErrors?: Record<string, string[]>;
}

/**
 * Laravel's `{"message", "errors"}`, an HTML page from a proxy (nginx's 413, a gateway's 502),
 * plain text, or nothing: each gives a message a person can read.
 */
export function readErrorBody(
  status: number,
  contentType: string | undefined,
  text: string,
): ErrorBody {
  const fallback = `HTTP ${status} ${STATUS_CODES[status] ?? 'error'}`;
  const trimmed = text.trim();
  if (trimmed === '') return { message: fallback };
  if ((contentType ?? '').includes('json') || trimmed.startsWith('{')) {
    const json = parseJson(trimmed);
    if (json !== undefined) {
      const message =
        typeof json.message === 'string' && json.message.trim() !== ''
          ? json.message.trim()
          : fallback;
      const fieldErrors = fieldErrorsOf(json.errors);
      const refused = status === 422 ? fileRefused(fieldErrors) : undefined;
      const said = refused ?? message;
      return fieldErrors ? { message: said, fieldErrors } : { message: said };
    }
  }
  if ((contentType ?? '').includes('html') || /^<(!doctype|html)/i.test(trimmed)) {
    const title =
      /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1] ??
      /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(trimmed)?.[1];
    const words = (title ?? trimmed)
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return { message: words === '' ? fallback : `${words} (HTTP ${status})` };
  }
  const line = trimmed.replace(/\s+/g, ' ');
  return { message: line.length > 200 ? `${line.slice(0, 197)}…` : line };
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined; // not JSON after all: read it as text
    throw error;
  }
}

function fieldErrorsOf(errors: unknown): Record<string, string[]> | undefined {
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    const list = Array.isArray(messages) ? messages : [messages];
    out[field] = list.filter((m): m is string => typeof m === 'string');
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Laravel's "The files.0 failed to upload." is PHP refusing the file before Laravel saw it — a
 * file over upload_max_filesize, mostly (a full disk or a cut connection are rarer). Said as
 * such, with what the user can do about it; the server's own words are kept.
 */
function fileRefused(fieldErrors: Record<string, string[]> | undefined): string | undefined {
  for (const [field, messages] of Object.entries(fieldErrors ?? {})) {
    if (!/^files(\.\d+)?$/.test(field)) continue;
    const said = messages.find((m) => /failed to upload/i.test(m));
    if (said === undefined) continue;
    return `the server refused the file — probably larger than it accepts (its answer: "${said}"); send a smaller file, or set MAX_ATTACHMENT_MB under the server's limit so that such rows are refused before their order is created`;
  }
  return undefined;
}
