import { describe, expect, it } from 'vitest';

import { createLogger } from '../src/logger.js';

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
