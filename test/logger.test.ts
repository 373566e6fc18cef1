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
