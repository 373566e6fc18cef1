/**
 * JSON text as Laravel's JsonResponse writes it: PHP's json_encode with no flags (Laravel passes
 * 0), so without JSON_UNESCAPED_SLASHES / JSON_UNESCAPED_UNICODE. Clients then meet `\/` and
 * `\u00e9` exactly as the real API sends them.
 */
export function phpJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return phpString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(phpJson).join(',')}]`;
  if (typeof value === 'object') return phpObject(Object.entries(value));
  throw new TypeError(`phpJson cannot encode a ${typeof value}`);
}

/** An object from ordered entries: unlike a JS object, it may repeat a key (see order-view.ts). */
export function phpObject(entries: Iterable<readonly [string, unknown]>): string {
  const parts: string[] = [];
  for (const [key, value] of entries) parts.push(`${phpString(key)}:${phpJson(value)}`);
  return `{${parts.join(',')}}`;
}

const SHORT_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '"': '\\"',
};

function phpString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    const code = text.charCodeAt(i);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20 || code > 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
