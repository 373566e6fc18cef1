import { readRedisUrl } from './target.js';

/** A Redis URL fit for messages and logs: the password, if any, replaced. */
export function redactUrl(url: string): string {
  const read = readRedisUrl(url);
  if ('target' in read) return read.target.shown;
  // Not a URL the importer takes (a setting being refused): its password hidden all the same.
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch (error) {
    if (error instanceof TypeError) return '(not a valid URL)';
    throw error;
  }
}
