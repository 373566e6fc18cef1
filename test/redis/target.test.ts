/** REDIS_URL read into where Redis is (src/redis/target.ts), and the options every client gets. */
import { inspect } from 'node:util';

import { describe, expect, it } from 'vitest';

import { bullmqOptions, clientOptions, reconnectOnError } from '../../src/redis/options.js';
import { parseRedisUrl, readRedisUrl } from '../../src/redis/target.js';
import { redactUrl } from '../../src/redis/url.js';
import { REDIS_RECONNECT } from '../../src/policy.js';

describe('parseRedisUrl', () => {
  it('reads one server, with its user, password, database and TLS', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6379')).toMatchObject({
      kind: 'server',
      host: '127.0.0.1',
      port: 6379,
      db: 0,
      shown: 'redis://127.0.0.1:6379',
    });
    const acl = parseRedisUrl('rediss://importer:p%40ss:w0rd@redis.example.com:6380/2');
    expect(acl).toMatchObject({
      kind: 'server',
      host: 'redis.example.com',
      port: 6380,
      db: 2,
      username: 'importer',
      tls: {},
      shown: 'rediss://importer:***@redis.example.com:6380/2',
    });
    expect(acl.password?.reveal()).toBe('p@ss:w0rd');
    expect(parseRedisUrl('redis://:only@[::1]')).toMatchObject({ host: '::1', port: 6379 });
    expect(parseRedisUrl('redis://:only@[::1]').username).toBeUndefined();
  });

  it('reads a Sentinel set: its sentinels, the master name, the user', () => {
    const target = parseRedisUrl(
      'redis+sentinel://importer:secret@10.0.0.1:26379,10.0.0.2,[fd00::3]:26380/orders-master',
    );
    expect(target).toMatchObject({
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: '10.0.0.2', port: 26379 },
        { host: 'fd00::3', port: 26380 },
      ],
      master: 'orders-master',
      db: 0,
      username: 'importer',
      shown: 'redis+sentinel://importer:***@10.0.0.1:26379,10.0.0.2,[fd00::3]:26380/orders-master',
    });
    expect(parseRedisUrl('rediss+sentinel://s1:1/m/3')).toMatchObject({ db: 3, tls: {} });
  });

  it('keeps a private CA with a TLS target only', () => {
    const ca = Buffer.from('-----BEGIN CERTIFICATE-----');
    expect(parseRedisUrl('rediss://h:1', ca).tls).toEqual({ ca });
    expect(parseRedisUrl('rediss+sentinel://h:1/m', ca).tls).toEqual({ ca });
    expect(parseRedisUrl('redis://h:1', ca).tls).toBeUndefined();
  });

  it('refuses what it cannot use, saying why (a Cluster over TLS is not one of them yet)', () => {
    const why = (url: string) => {
      const read = readRedisUrl(url);
      return 'problem' in read ? read.problem : 'taken';
    };
    expect(why('rediss+cluster://h1:7000,h2:7001')).toMatch(/^must be a redis:\/\/, rediss:\/\//);
    expect(why('redis+cluster://h1:7000,h2:7001/2')).toMatch(/a Cluster has database 0 only/);
    expect(why('http://h:1')).toMatch(/^must be a redis:\/\//);
    expect(why('redis+sentinel://h:1,h:2')).toMatch(/name of the master/);
    expect(why('redis://h1:1,h2:2')).toMatch(/names one host/);
    expect(why('redis://h:99999')).toMatch(/not a port/);
    expect(why('redis://h:1/x')).toMatch(/not a number/);
    expect(why('redis://h:1?family=6')).toMatch(/query/);
    expect(why('redis://:%zz@h:1')).toMatch(/%/);
  });

  it('never shows the password: not in its text, its JSON or an inspection', () => {
    const target = parseRedisUrl('redis+sentinel://importer:Sup3rS3cret@h:1/m');
    for (const said of [target.shown, JSON.stringify(target), inspect(target, { depth: 9 })])
      expect(said).not.toContain('Sup3rS3cret');
    expect(redactUrl('redis+sentinel://importer:Sup3rS3cret@h:1,h:2/m')).toBe(
      'redis+sentinel://importer:***@h:1,h:2/m',
    );
    expect(redactUrl('redis://:secret@127.0.0.1:6390')).toBe('redis://:***@127.0.0.1:6390');
  });
});

describe('the options of a client', () => {
  it('of one server: where, who, TLS with the CA, and a soon reconnection', () => {
    const ca = Buffer.from('pem');
    const options = clientOptions(parseRedisUrl('rediss://u:p@h:7/1', ca), {
      waitWhileAway: true,
    });
    expect(options).toMatchObject({
      host: 'h',
      port: 7,
      db: 1,
      username: 'u',
      password: 'p',
      tls: { ca },
      maxRetriesPerRequest: null,
      lazyConnect: true,
    });
    expect(options.retryStrategy?.(1)).toBe(REDIS_RECONNECT.stepMs);
    expect(options.retryStrategy?.(1000)).toBe(REDIS_RECONNECT.maxMs);
  });

  it("of a Sentinel set: its sentinels, the master's name, a failover listened for", () => {
    const target = parseRedisUrl('rediss+sentinel://u:p@a:1,b:2/orders');
    if (target.kind !== 'sentinel') throw new Error('not read as a Sentinel set');
    const options = bullmqOptions(target);
    expect(options).toMatchObject({
      sentinels: [
        { host: 'a', port: 1 },
        { host: 'b', port: 2 },
      ],
      name: 'orders',
      username: 'u',
      password: 'p',
      enableTLSForSentinelMode: true,
      sentinelTLS: {},
      failoverDetector: true,
      maxRetriesPerRequest: null,
    });
    // Sentinels that ask for no password are not sent one; those that do, the one they take.
    expect(options).not.toHaveProperty('sentinelPassword');
    expect(bullmqOptions({ ...target, sentinelAuth: 'user' })).toMatchObject({
      sentinelUsername: 'u',
      sentinelPassword: 'p',
    });
    const alone = bullmqOptions({ ...target, sentinelAuth: 'password' });
    expect(alone).toMatchObject({ sentinelPassword: 'p' });
    expect(alone).not.toHaveProperty('sentinelUsername');
  });

  it('reconnects on a reply that says the master is one no more, and only then', () => {
    expect(
      reconnectOnError(new Error("READONLY You can't write against a read only replica.")),
    ).toBe(2);
    expect(reconnectOnError(new Error('UNBLOCKED force unblock from blocking operation'))).toBe(2);
    expect(reconnectOnError(new Error('ERR wrong number of arguments'))).toBe(false);
  });
});
