/**
 * REDIS_URL naming a Redis Cluster (src/redis/cluster.ts): its nodes and ACL user read from
 * `redis+cluster://[user:pass@]host:port[,host:port…]`, said without the password; and where an
 * office's keys go (src/store/keys.ts, `KeyLayout`): the installation's prefix on one server, a
 * hash tag of the office's own on a Cluster.
 */
import { describe, expect, it } from 'vitest';

import { parseRedisUrl, readRedisUrl } from '../../src/redis/target.js';
import { redactUrl } from '../../src/redis/url.js';
import { KeyLayout } from '../../src/store/keys.js';

describe('a Cluster URL', () => {
  it('names its nodes, and the user it logs in as', () => {
    const url = 'redis+cluster://app:s%40cret@10.0.0.5:7000,redis-2:7001,[::1]:7002/';
    const target = parseRedisUrl(url);
    expect(target).toMatchObject({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.5', port: 7000 },
        { host: 'redis-2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: 'app',
      db: 0,
      shown: 'redis+cluster://app:***@10.0.0.5:7000,redis-2:7001,[::1]:7002/',
    });
    expect(target.password?.reveal()).toBe('s@cret');
    expect(parseRedisUrl('REDIS+CLUSTER://a')).toMatchObject({
      nodes: [{ host: 'a', port: 6379 }],
    });
  });

  it.each([
    ['redis+cluster://', /names a host that cannot be read/],
    ['redis+cluster://a:1,,b:2', /names a host that cannot be read/],
    ['redis+cluster://a:0', /names port 0, not a port/],
    ['redis+cluster://a:1/0', /names no database: a Cluster has database 0 only/],
    ['rediss+cluster://a:1', /must be a redis:\/\//],
  ])('refuses %s', (url, why) => {
    expect(readRedisUrl(url)).toEqual({ problem: expect.stringMatching(why) as unknown });
  });

  it('is said without its password', () => {
    const url = 'redis+cluster://app:secret@10.0.0.5:7000,10.0.0.6:7000';
    expect(redactUrl(url)).toBe('redis+cluster://app:***@10.0.0.5:7000,10.0.0.6:7000');
    expect(redactUrl('redis+cluster://:secret@a:1')).toBe('redis+cluster://:***@a:1');
    expect(redactUrl('redis+cluster://x:secret@a:1/0')).not.toContain('secret');
  });
});

describe('where an office’s keys go', () => {
  it('stays under the installation’s prefix on one server: nothing stored moves', () => {
    const layout = KeyLayout.of('{order-importer}', parseRedisUrl('redis://127.0.0.1:6379'));
    expect(layout.officePrefix('3f2a9c0d81b4e7a6')).toBe('{order-importer}');
    expect(layout.keysOf('3f2a9c0d81b4e7a6').sheet('s1')).toBe(
      '{order-importer}:importer:sheet:s1',
    );
    expect(layout.spaces(['a', 'b'])).toEqual([{ keys: layout.keysOf('a'), offices: ['a', 'b'] }]);
  });

  it('is a hash tag of each office’s own on a Cluster', () => {
    const layout = KeyLayout.of('{order-importer}', parseRedisUrl('redis+cluster://10.0.0.5:7000'));
    expect(layout.officePrefix('3f2a9c0d81b4e7a6')).toBe('{order-importer:3f2a9c0d81b4e7a6}');
    expect(layout.keysOf('3f2a9c0d81b4e7a6').bySha).toBe(
      '{order-importer:3f2a9c0d81b4e7a6}:importer:by-sha',
    );
    expect(new KeyLayout('plain', true).officePrefix('c1')).toBe('{plain:c1}');
    expect(layout.spaces(['a', 'b']).map((space) => [space.keys.prefix, space.offices])).toEqual([
      ['{order-importer:a}', ['a']],
      ['{order-importer:b}', ['b']],
    ]);
  });
});
