/** The dashboard users' password hashes: scrypt, self-describing, checked in constant time. */
import { describe, expect, it } from 'vitest';

import {
  hashPassword,
  hashProblem,
  PasswordChecks,
  verifyPassword,
} from '../../src/dashboard/password.js';

describe('a password hash', () => {
  it('says how it was made: scrypt$N$r$p$salt$hash, N at least 16384', async () => {
    const hash = await hashPassword('correct horse');
    const [scheme, n, r, p, salt, key] = hash.split('$');
    expect(scheme).toBe('scrypt');
    expect(Number(n)).toBeGreaterThanOrEqual(16384);
    expect(Number(r)).toBe(8);
    expect(Number(p)).toBe(1);
    expect(Buffer.from(salt ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(32);
    expect(hashProblem(hash)).toBeUndefined();
  });

  it('is salted: the same password twice gives two hashes', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('accepts its password, and no other', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct hors', hash)).toBe(false);
    expect(await verifyPassword('correct horse ', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('refuses a tampered hash: salt, key or parameters changed', async () => {
    const hash = await hashPassword('pw-1234');
    const parts = hash.split('$');
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64');
    };
    const withPart = (i: number, value: string) =>
      parts.map((part, j) => (j === i ? value : part)).join('$');
    expect(await verifyPassword('pw-1234', withPart(4, flip(parts[4] ?? '')))).toBe(false);
    expect(await verifyPassword('pw-1234', withPart(5, flip(parts[5] ?? '')))).toBe(false);
    expect(await verifyPassword('pw-1234', withPart(1, '16384'))).toBe(false);
  });

  it.each([
    ['not a hash', 'plain'],
    ['another scheme', 'bcrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5'],
    ['too few parts', 'scrypt$16384$8$1$c2FsdA=='],
    ['N below 16384', 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA==$' + 'A'.repeat(43) + '='],
    ['N not a power of two', 'scrypt$20000$8$1$c2FsdHNhbHRzYWx0c2FsdA==$' + 'A'.repeat(43) + '='],
    ['an absurd N', `scrypt$${2 ** 30}$8$1$c2FsdHNhbHRzYWx0c2FsdA==$` + 'A'.repeat(43) + '='],
    ['an absurd r', 'scrypt$16384$4096$1$c2FsdHNhbHRzYWx0c2FsdA==$' + 'A'.repeat(43) + '='],
    ['an absurd p', 'scrypt$16384$8$1000$c2FsdHNhbHRzYWx0c2FsdA==$' + 'A'.repeat(43) + '='],
    ['a short salt', 'scrypt$16384$8$1$c2FsdA==$' + 'A'.repeat(43) + '='],
    ['a short key', 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5'],
    ['no base64', 'scrypt$16384$8$1$!!!!!!!!!!!!!!!!!!!!!!!!$' + 'A'.repeat(43) + '='],
    ['a number with a sign', 'scrypt$+16384$8$1$c2FsdHNhbHRzYWx0c2FsdA==$' + 'A'.repeat(43) + '='],
  ])('refuses %s before any work, and lets no password in', async (_, hash) => {
    expect(hashProblem(hash)).toEqual(expect.any(String));
    // Refused as read: an absurd N would take minutes and gigabytes, and the test its timeout.
    expect(await verifyPassword('anything', hash)).toBe(false);
  });
});

describe('checks of passwords at once', () => {
  it('runs a few at a time, lets the rest wait their turn, and refuses beyond the line', async () => {
    const hash = await hashPassword('right-one');
    const checks = new PasswordChecks({ atOnce: 1, waiting: 2 });
    const answers = await Promise.all([
      checks.verify('right-one', hash),
      checks.verify('right-one', hash),
      checks.verify('wrong-one', hash),
      // The fourth finds one running and two waiting: refused without a hash worked out.
      checks.verify('right-one', hash),
    ]);
    expect(answers).toEqual([true, true, false, false]);
    // The line is empty again: the next check is run.
    expect(await checks.verify('right-one', hash)).toBe(true);
  });
});
