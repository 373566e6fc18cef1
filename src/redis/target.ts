/**
 * Where Redis is (docs/operations.md, "Redis in production"): REDIS_URL read once into a
 * `RedisTarget`, from which every client of the process is made (./options.ts). One server
 * (`redis://`, `rediss://` for TLS) or a Sentinel set (`redis+sentinel://`, `rediss+sentinel://`),
 * or a Redis Cluster (`redis+cluster://`, ./cluster.ts), each with an ACL user and password if
 * given. The rest of the importer holds a target, never a URL.
 */
import { UserError } from '../errors.js';

/** A host and port, as a Sentinel set lists them. */
export interface RedisEndpoint {
  host: string;
  port: number;
}

/**
 * A password: kept out of every log line, message and inspection of the object that holds it.
 * Only the options given to a client (./options.ts) read it.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return '[redacted]';
  }

  toString(): string {
    return '[redacted]';
  }
}

interface TargetBase {
  /** The URL as messages and logs say it: the password replaced by `***`. */
  shown: string;
  /** The ACL user, if any (none: Redis's `default` user). */
  username?: string;
  password?: Secret;
  /** The database number (`/2`); 0 when not said. */
  db: number;
  /** TLS (`rediss`): `ca` is a private CA's PEM (REDIS_TLS_CA_FILE), read at start. */
  tls?: { ca?: Buffer };
}

/** One Redis server. */
export interface ServerTarget extends TargetBase {
  kind: 'server';
  host: string;
  port: number;
}

/** A Sentinel set: the sentinels name the master of `master`, and name the new one after a failover. */
export interface SentinelTarget extends TargetBase {
  kind: 'sentinel';
  sentinels: RedisEndpoint[];
  /** The master's name as the sentinels know it (`sentinel monitor <name> …`). */
  master: string;
  /**
   * How the sentinels themselves are asked, found at start (./probe.ts): with the user and
   * password (`user`), with the password alone (`password`: a sentinel's `requirepass`), or
   * without (none: many a Sentinel set asks for none where its data nodes do).
   */
  sentinelAuth?: 'user' | 'password';
}

/**
 * A Redis Cluster: some of its nodes (the client learns the others from them). Each office's keys
 * are under a hash tag of its own there (store/keys.ts, `KeyLayout`).
 */
export interface ClusterTarget extends TargetBase {
  kind: 'cluster';
  nodes: RedisEndpoint[];
}

export type RedisTarget = ServerTarget | SentinelTarget | ClusterTarget;

/** A REDIS_URL read: where Redis is, or why it cannot be used (in English, for the setting's error). */
export type ReadRedisUrl = { target: RedisTarget } | { problem: string };

/** The schemes accepted, and what each is. */
const SCHEMES: Record<string, { kind: RedisTarget['kind']; tls: boolean }> = {
  'redis:': { kind: 'server', tls: false },
  'rediss:': { kind: 'server', tls: true },
  'redis+sentinel:': { kind: 'sentinel', tls: false },
  'rediss+sentinel:': { kind: 'sentinel', tls: true },
  'redis+cluster:': { kind: 'cluster', tls: false },
};

const DEFAULT_PORT = { server: 6379, sentinel: 26379, cluster: 6379 } as const;

/** What REDIS_URL must be, said when it is not. */
export const REDIS_URL_FORMS =
  'a redis://, rediss://, redis+sentinel://, rediss+sentinel:// or redis+cluster:// URL (redis+sentinel://[user:password@]host:port[,host:port…]/<master name>, redis+cluster://[user:password@]host:port[,host:port…])';

/**
 * A REDIS_URL the settings have checked (settings/table.ts), read; a private CA (REDIS_TLS_CA_FILE's
 * content) goes with a TLS target. One that cannot be read here is a setting's error.
 */
export function parseRedisUrl(text: string, ca?: Buffer): RedisTarget {
  const read = readRedisUrl(text, ca);
  if ('problem' in read) throw new UserError('config.invalid', `REDIS_URL: ${read.problem}.`);
  return read.target;
}

/** REDIS_URL read, or why it cannot be used. */
export function readRedisUrl(text: string, ca?: Buffer): ReadRedisUrl {
  const match = /^([a-z][a-z0-9+.-]*:)\/\/([^/?#]*)([^?#]*)(.*)$/i.exec(text.trim());
  const scheme = match?.[1]?.toLowerCase() ?? '';
  const form = SCHEMES[scheme];
  if (match === null || form === undefined) return { problem: `must be ${REDIS_URL_FORMS}` };
  const [, , authority = '', path = '', rest = ''] = match;
  if (rest !== '') return { problem: 'must not hold a query (?…) or fragment (#…)' };
  const at = authority.lastIndexOf('@');
  const credentials = credentialsOf(at < 0 ? '' : authority.slice(0, at));
  if ('problem' in credentials) return credentials;
  const hosts = (at < 0 ? authority : authority.slice(at + 1)).split(',');
  const endpoints: RedisEndpoint[] = [];
  for (const host of hosts) {
    const endpoint = endpointOf(host, DEFAULT_PORT[form.kind]);
    if ('problem' in endpoint) return endpoint;
    endpoints.push(endpoint);
  }
  const names: string[] = [];
  for (const segment of path.split('/').filter((part) => part !== '')) {
    const name = decoded(segment);
    if ('problem' in name) return name;
    names.push(name.text);
  }
  const base = {
    shown: shownUrl(scheme, credentials, hosts, path),
    ...credentials.given,
    ...(form.tls && { tls: ca === undefined ? {} : { ca } }),
  };
  if (form.kind === 'cluster') return clusterOf(base, endpoints, names);
  return form.kind === 'server'
    ? serverOf(base, endpoints, names)
    : sentinelOf(base, endpoints, names);
}

/** A Cluster keeps database 0 only: its URL names nodes, and nothing after them. */
function clusterOf(base: Base, nodes: RedisEndpoint[], names: string[]): ReadRedisUrl {
  if (names.length > 0)
    return { problem: 'names no database: a Cluster has database 0 only (host:port[,host:port…])' };
  return { target: { kind: 'cluster', nodes, db: 0, ...base } };
}

type Base = Omit<TargetBase, 'db'>;

function serverOf(base: Base, endpoints: RedisEndpoint[], names: string[]): ReadRedisUrl {
  const [endpoint] = endpoints;
  if (endpoints.length !== 1 || endpoint === undefined)
    return { problem: 'names one host: a Sentinel set is redis+sentinel://' };
  if (names.length > 1) return { problem: 'has no path but a database number (/0)' };
  const db = dbOf(names[0]);
  if (typeof db === 'string') return { problem: db };
  return { target: { kind: 'server', ...endpoint, db, ...base } };
}

function sentinelOf(base: Base, sentinels: RedisEndpoint[], names: string[]): ReadRedisUrl {
  const [master, dbText, ...more] = names;
  if (master === undefined || more.length > 0)
    return {
      problem: 'must end with the name of the master the sentinels watch (…/<master name>[/<db>])',
    };
  const db = dbOf(dbText);
  if (typeof db === 'string') return { problem: db };
  return { target: { kind: 'sentinel', sentinels, master, db, ...base } };
}

interface Credentials {
  username: string;
  password: string;
  given: Pick<TargetBase, 'username' | 'password'>;
}

/** `user:password` as written before the `@`, decoded. */
function credentialsOf(userinfo: string): Credentials | { problem: string } {
  const colon = userinfo.indexOf(':');
  const user = decoded(colon < 0 ? userinfo : userinfo.slice(0, colon));
  const secret = decoded(colon < 0 ? '' : userinfo.slice(colon + 1));
  if ('problem' in user) return user;
  if ('problem' in secret) return secret;
  const [username, password] = [user.text, secret.text];
  return {
    username,
    password,
    given: {
      ...(username !== '' && { username }),
      ...(password !== '' && { password: new Secret(password) }),
    },
  };
}

/** `host`, `host:port`, `[::1]:port`. */
function endpointOf(text: string, defaultPort: number): RedisEndpoint | { problem: string } {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]\s]+)(?::(\d{1,5}))?$/i.exec(text);
  if (match === null) return { problem: `names a host that cannot be read ("${text}")` };
  const [, host = '', portText] = match;
  const port = portText === undefined ? defaultPort : Number(portText);
  if (port < 1 || port > 65_535) return { problem: `names port ${portText}, not a port` };
  return { host: host.replace(/^\[|\]$/g, ''), port };
}

/** The database number, or why it is none. */
function dbOf(text: string | undefined): number | string {
  if (text === undefined) return 0;
  if (!/^\d{1,5}$/.test(text)) return `names the database "${text}", not a number`;
  return Number(text);
}

function decoded(text: string): { text: string } | { problem: string } {
  try {
    return { text: decodeURIComponent(text) };
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    return { problem: 'holds a % that starts no character (write %25 for a %)' };
  }
}

/** The URL again, its password (if any) replaced: what every message and log line says. */
function shownUrl(
  scheme: string,
  { username, password }: Credentials,
  hosts: readonly string[],
  path: string,
): string {
  const user = encodeURIComponent(username);
  const userinfo = password !== '' ? `${user}:***@` : username !== '' ? `${user}@` : '';
  return `${scheme}//${userinfo}${hosts.join(',')}${path}`;
}
