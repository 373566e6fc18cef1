import { describe, expect, it } from 'vitest';

import { isRedisUnreachable } from '../../src/redis/connect.js';

function coded(code: string, message = `connect ${code} 127.0.0.1:6379`): Error {
  return Object.assign(new Error(message), { code });
}

function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

describe('isRedisUnreachable', () => {
  it.each([
    ['a refused connection', coded('ECONNREFUSED'), true],
    ['a reset', coded('ECONNRESET', 'read ECONNRESET'), true],
    ['a timeout', coded('ETIMEDOUT'), true],
    ['a broken pipe', coded('EPIPE'), true],
    ['an unknown host', coded('ENOTFOUND'), true],
    [
      'too many reconnections for one command',
      named('MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 3).'),
      true,
    ],
    ['a closed connection', new Error('Connection is closed.'), true],
    ['Redis loading its data', new Error('LOADING Redis is loading the dataset in memory'), true],
    ['a Cluster slot without a master', new Error('CLUSTERDOWN The cluster is down'), true],
    [
      'a Cluster slot being moved',
      new Error('TRYAGAIN Multiple keys request during rehashing'),
      true,
    ],
    ['no Cluster node answering', new Error('None of startup nodes is available'), true],
    [
      'a Cluster failover outlasting the retries',
      new Error('Too many Cluster redirections. Last error: Error: CLUSTERDOWN'),
      true,
    ],
    [
      'keys of two slots',
      new Error("CROSSSLOT Keys in request don't hash to the same slot"),
      false,
    ],
    [
      'a refused command',
      new Error('WRONGTYPE Operation against a key holding the wrong kind of value'),
      false,
    ],
    ['a script error', new Error('ERR Error running script'), false],
    ['out of memory', new Error('OOM command not allowed when used memory > maxmemory'), false],
    ['a file error', coded('ENOENT', 'no such file'), false],
    ['not an error at all', 'ECONNREFUSED', false],
    ['nothing', undefined, false],
  ])('%s', (_what, error, expected) => {
    expect(isRedisUnreachable(error)).toBe(expected);
  });
});
