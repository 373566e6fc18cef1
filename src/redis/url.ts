import { isClusterUrl, redactClusterUrl } from './cluster.js';

/** A Redis URL fit for messages and logs: the password, if any, replaced. */
export function redactUrl(url: string): string {
  if (isClusterUrl(url)) return redactClusterUrl(url);
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch (error) {
    if (error instanceof TypeError) return '(not a valid URL)';
    throw error;
  }
}
