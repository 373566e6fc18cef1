import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { asyncDestination, createLogger } from '../src/logger.js';

function capture(skipTold?: boolean) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level: 'debug',
    destination: {
      write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
    },
    ...(skipTold !== undefined && { skipTold }),
  });
  return { logger, msgs: () => lines.map((l) => l.msg) };
}

describe('createLogger', () => {
  it('leaves out what was told in plain words when asked to, and nothing else', () => {
    const { logger, msgs } = capture(true);
    logger.warn({ told: true }, 'said already');
    logger.warn({ told: false }, 'not said');
    logger.warn('plain');
    logger.child({ queue: 'rows' }).info({ told: true }, 'said by a child');
    logger.error({ err: new Error('x') }, 'an error');
    expect(msgs()).toEqual(['not said', 'plain', 'an error']);
  });

  it("never writes a Redis password: not the arguments of a refused AUTH, nor a client's options", () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'trace',
      destination: { write: (l: string) => lines.push(l) },
    });
    // As ioredis makes it when Redis refuses the user and password.
    const refused = Object.assign(new Error('WRONGPASS invalid username-password pair'), {
      command: { name: 'auth', args: ['importer', 'Sup3rS3cret'] },
    });
    logger.error({ err: refused }, 'Redis error');
    logger.error({ err: new Error('could not connect', { cause: refused }) }, 'wrapped');
    logger.debug({ options: { username: 'importer', password: 'Sup3rS3cret' } }, 'options');
    logger.debug({ password: 'Sup3rS3cret', sentinelPassword: 'Sup3rS3cret' }, 'flat');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).not.toContain('Sup3rS3cret');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      err: { message: 'WRONGPASS invalid username-password pair', command: { name: 'auth' } },
    });
    // The error itself is left as it was: only what is written leaves the arguments out.
    expect(refused.command.args).toEqual(['importer', 'Sup3rS3cret']);
  });

  it('keeps every record by default', () => {
    const { logger, msgs } = capture();
    logger.warn({ told: true }, 'said already');
    logger.info('plain');
    expect(msgs()).toEqual(['said already', 'plain']);
  });
});

describe('asyncDestination', () => {
  it('has written every line, in order, once flush resolves', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'log-destination-'));
    const fd = openSync(join(dir, 'log'), 'a');
    try {
      const destination = asyncDestination(fd);
      await destination.flush(); // nothing given yet: nothing to wait for
      const logger = createLogger({ level: 'info', destination });
      for (let i = 0; i < 5000; i++) logger.info({ i }, 'a line');
      await destination.flush();
      const lines = readFileSync(join(dir, 'log'), 'utf8').trimEnd().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual(
        Array.from({ length: 5000 }, (_, i) => i),
      );
    } finally {
      closeSync(fd);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
