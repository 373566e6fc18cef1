/**
 * The dashboard users' passwords (docs/design.md "The dashboard's users"), kept as scrypt hashes
 * that say how they were made: `scrypt$<N>$<r>$<p>$<salt, base64>$<key, base64>`. The users file
 * is hostile input: a hash whose cost is absurd (an N that would take gigabytes and minutes) is
 * refused as it is read, never worked out, and a key is compared in constant time.
 */
import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/** What a new hash is made with: about 32 MB and a tenth of a second. */
const MADE = { N: 2 ** 15, r: 8, p: 1, salt: 16, key: 32 } as const;

/** What a hash read from a file may ask for; beyond these it is refused unread. */
const BOUNDS = {
  N: { min: 2 ** 14, max: 2 ** 20 },
  r: { min: 1, max: 32 },
  p: { min: 1, max: 16 },
  salt: { min: 16, max: 64 },
  key: { min: 32, max: 64 },
  /** Memory scrypt may take (128·N·r, and some room): 256 MB at most. */
  memory: 256 * 1024 * 1024,
} as const;

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

const NUMBER = /^[1-9]\d{0,9}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A new hash of `password`, with a salt of its own. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(MADE.salt);
  const key = await derive(password, { N: MADE.N, r: MADE.r, p: MADE.p, salt }, MADE.key);
  return ['scrypt', MADE.N, MADE.r, MADE.p, salt.toString('base64'), key.toString('base64')].join(
    '$',
  );
}

/** Why `hash` is no hash this module would work out (English, for the users file's error). */
export function hashProblem(hash: string): string | undefined {
  const parsed = parseHash(hash);
  return typeof parsed === 'string' ? parsed : undefined;
}

/** Whether `password` is the one `hash` was made from; false for a hash refused as read. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parseHash(hash);
  if (typeof parsed === 'string') return false;
  const key = await derive(password, parsed, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

function parseHash(hash: string): Parsed | string {
  const parts = hash.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt')
    return 'not a scrypt hash (scrypt$N$r$p$salt$key): write it with order-importer dashboard-user';
  const [, n = '', r = '', p = '', salt = '', key = ''] = parts;
  if (![n, r, p].every((number) => NUMBER.test(number))) return 'its N, r and p must be numbers';
  if (!BASE64.test(salt) || !BASE64.test(key)) return 'its salt and key must be base64';
  const parsed: Parsed = {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt, 'base64'),
    key: Buffer.from(key, 'base64'),
  };
  return boundsProblem(parsed) ?? parsed;
}

function boundsProblem({ N, r, p, salt, key }: Parsed): string | undefined {
  const within = (value: number, { min, max }: { min: number; max: number }) =>
    value >= min && value <= max;
  if (!within(N, BOUNDS.N) || (N & (N - 1)) !== 0)
    return `its N must be a power of two from ${BOUNDS.N.min} to ${BOUNDS.N.max}`;
  if (!within(r, BOUNDS.r) || !within(p, BOUNDS.p))
    return `its r must be 1 to ${BOUNDS.r.max} and its p 1 to ${BOUNDS.p.max}`;
  if (memoryOf(N, r) > BOUNDS.memory) return 'its N and r would take more than 256 MB';
  if (!within(salt.length, BOUNDS.salt) || !within(key.length, BOUNDS.key))
    return 'its salt must be 16 to 64 bytes and its key 32 to 64';
  return undefined;
}

/** What scrypt takes for N and r (128·N·r), with room for its own bookkeeping. */
function memoryOf(N: number, r: number): number {
  return 128 * N * r + 1024 * 1024;
}

function derive(
  password: string,
  { N, r, p, salt }: Omit<Parsed, 'key'>,
  length: number,
): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: memoryOf(N, r) * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => {
      if (error === null) resolve(key);
      else reject(error);
    });
  });
}

/**
 * Passwords checked a few at a time: each check takes tens of megabytes and a thread of the
 * pool that also reads the dashboard's files, so a flood of wrong logins must neither fill the
 * memory nor stall the pages. Past `waiting` checks in line, a login is refused at once.
 */
export class PasswordChecks {
  #running = 0;
  readonly #line: Array<() => void> = [];

  constructor(
    private readonly limits: { atOnce: number; waiting: number } = { atOnce: 2, waiting: 64 },
  ) {}

  /** Whether `password` is `hash`'s; false too when too many wait for their turn. */
  async verify(password: string, hash: string): Promise<boolean> {
    if (this.#running >= this.limits.atOnce) {
      if (this.#line.length >= this.limits.waiting) return false;
      await new Promise<void>((resolve) => this.#line.push(resolve));
    } else {
      this.#running += 1;
    }
    try {
      return await verifyPassword(password, hash);
    } finally {
      // The turn passes to the next in line, or is given back.
      const next = this.#line.shift();
      if (next === undefined) this.#running -= 1;
      else next();
    }
  }
}
