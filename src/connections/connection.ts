/**
 * A connection (docs/design.md, "Connections"): an API base URL plus a token, i.e. one organisation at
 * one inspection company. Everything a sheet or job carries names it by its id — a hash, never the
 * token — so that a row is only ever sent by a process holding that very URL and token, and so that
 * "imported before" means "imported through this connection".
 */
import { DEFAULT_LANGUAGE, type Language, type Speech } from '../language/languages.js';
import { wordsFor, type Words } from '../language/words.js';
import { createHash } from 'node:crypto';
import { Refused } from '../errors.js';

/** What a connection is, as sheets, reports and the dashboard may tell it (no token). */
export interface ConnectionInfo {
  /** `sha256(identity, token)`, 16 hex digits: safe in Redis keys and BullMQ queue names. */
  id: string;
  /** Its name: `default` for the one from API_BASE_URL, `sandbox` for the embedded one. */
  name: string;
  /** Normalised, without credentials. */
  apiBaseUrl: string;
  /** The embedded sandbox: orders that reach no inspection company. */
  sandbox: boolean;
  /** The office's language (its reports and e-mails), when its entry names one. */
  language?: Language;
}

/**
 * The one spelling of a base URL: lower-case scheme and host (URL does that), no default port, no
 * trailing `/`. Credentials are refused rather than dropped: a URL holding them is a mistake that
 * would otherwise end up in reports and logs.
 */
export function normaliseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch (error) {
    throw new Refused(
      'connection.url-invalid',
      'is not a URL: give it as https://host[:port][/path]',
      { cause: error, variant: 'not_url', values: {} },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Refused('connection.url-invalid', 'must be an http:// or https:// URL', {
      variant: 'scheme',
      values: {},
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new Refused(
      'connection.url-invalid',
      'must not hold a user name or password (user:pass@): give the token with API_TOKEN or API_TOKEN_FILE',
      { variant: 'credentials', values: {} },
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new Refused('connection.url-invalid', 'must not hold a query (?…) or fragment (#…)', {
      variant: 'query',
      values: {},
    });
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * Names this machine goes by: one server, however the user spells it — the wildcard addresses
 * too, which a server listening on every interface prints as its own (`http://0.0.0.0:4010`), and
 * IPv4 loopback written as IPv6 (URL writes `[::ffff:127.0.0.1]` as `[::ffff:7f00:1]`).
 */
const LOOPBACK = new Set([
  'localhost',
  'localhost.',
  '127.0.0.1',
  '[::1]',
  '0.0.0.0',
  '[::]',
  '[::ffff:7f00:1]',
]);

/**
 * What makes two normalised URLs the same API: the loopback names are one host (a sandbox on
 * `localhost:4010` is the one on `127.0.0.1:4010`). Other names are not resolved: DNS answers
 * change, the API behind a name does not.
 */
export function apiIdentity(normalisedUrl: string): string {
  const url = new URL(normalisedUrl);
  if (LOOPBACK.has(url.hostname)) url.hostname = 'localhost';
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The id of an API identity plus token. The token is in it because two tokens are two
 * organisations (a row of one must never be a "duplicate" of the other's order); a new token for
 * the same organisation is therefore a new connection, whose ledger starts empty.
 */
export function connectionId(identity: string, token: string): string {
  return createHash('sha256')
    .update(`order-importer connection\0${identity}\0${token}`)
    .digest('hex')
    .slice(0, 16);
}

/** The connection of a base URL (already normalised) and its token. */
export function connectionOf(
  parts: { apiBaseUrl: string; token: string; name: string; sandbox: boolean; language?: Language },
  /** What the API is known as, when not its URL (the embedded sandbox: its data folder). */
  identity: string = apiIdentity(parts.apiBaseUrl),
): ConnectionInfo {
  return {
    id: connectionId(identity, parts.token),
    name: parts.name,
    apiBaseUrl: parts.apiBaseUrl,
    sandbox: parts.sandbox,
    ...(parts.language !== undefined && { language: parts.language }),
  };
}

export type { Speech, Words };

/**
 * The office's words: what its reports and e-mails say, in its own language, else the
 * process's (docs/design.md "Language").
 */
export function officeWords(
  connection: Pick<ConnectionInfo, 'language'>,
  processLanguage: Speech = DEFAULT_LANGUAGE,
): Words {
  return wordsFor(connection.language ?? processLanguage);
}
