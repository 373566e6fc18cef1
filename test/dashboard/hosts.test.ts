import { describe, expect, it } from 'vitest';

import { allowedHosts, exposureProblem, hostOfHeader } from '../../src/dashboard/hosts.js';
import { expectSaid } from '../helpers/error-said.js';

describe('hostOfHeader', () => {
  it.each([
    ['localhost', 'localhost'],
    ['localhost:3000', 'localhost'],
    ['LocalHost:3000', 'localhost'],
    ['localhost.:3000', 'localhost'],
    ['127.0.0.1:3000', '127.0.0.1'],
    ['[::1]:3000', '::1'],
    ['[::1]', '::1'],
    ['[0:0:0:0:0:0:0:1]:80', '0:0:0:0:0:0:0:1'],
    ['::1', '::1'],
    ['dash.example.com', 'dash.example.com'],
    [' dash.example.com ', 'dash.example.com'],
  ])('reads %j as %j', (header, name) => {
    expect(hostOfHeader(header)).toBe(name);
  });

  it.each([
    [undefined],
    [''],
    [':3000'],
    ['localhost:abc'],
    ['[::1'],
    ['[::1]x'],
    ['[::1]:'],
    ['a b'],
    ['evil.example/x'],
    ['user@localhost'],
  ])('finds no host name in %j', (header) => {
    expect(hostOfHeader(header)).toBeUndefined();
  });
});

describe('allowedHosts', () => {
  it('holds the loopback names by default', () => {
    expect([...allowedHosts('127.0.0.1', [])].sort()).toEqual(['127.0.0.1', '::1', 'localhost']);
  });

  it('adds the listening address when it is one host, not when it is every address', () => {
    expect(allowedHosts('192.168.1.20', []).has('192.168.1.20')).toBe(true);
    expect(allowedHosts('Dash.Example.com', []).has('dash.example.com')).toBe(true);
    expect(allowedHosts('fe80::1', []).has('fe80::1')).toBe(true);
    for (const wildcard of ['0.0.0.0', '::', '[::]'])
      expect([...allowedHosts(wildcard, [])].sort()).toEqual(['127.0.0.1', '::1', 'localhost']);
  });

  it('adds the names of DASHBOARD_HOSTS, written as a Host header would be', () => {
    const hosts = allowedHosts('0.0.0.0', ['Dash.Example.com', '[fd00::5]', '10.0.0.5:3000']);
    expect(hosts.has('dash.example.com')).toBe(true);
    expect(hosts.has('fd00::5')).toBe(true);
    expect(hosts.has('10.0.0.5')).toBe(true);
    expect(hosts.has('localhost')).toBe(true);
    expect(hosts.has('evil.example')).toBe(false);
  });
});

describe('exposureProblem', () => {
  it('lets the dashboard listen beyond loopback with a users file, as with DASHBOARD_USER', () => {
    expect(exposureProblem({ host: '0.0.0.0' })).toBeDefined();
    expect(
      exposureProblem({ host: '0.0.0.0', users: '/etc/order-importer/users.json' }),
    ).toBeUndefined();
    expect(exposureProblem({ host: '0.0.0.0', user: 'u', password: 'p' })).toBeUndefined();
  });
});

describe('exposureProblem, said', () => {
  it('says an open dashboard in Dutch and French, naming where it would listen', () => {
    const open = exposureProblem({ host: '0.0.0.0' });
    if (open === undefined) throw new Error('no problem');
    const said = expectSaid(open);
    expect(said.nl).toContain('0.0.0.0');
    expect(said.fr).toContain('0.0.0.0');
  });

  it('refuses a dashboard that a proxy serves to other machines (DASHBOARD_HOSTS) without a password', () => {
    const proxied = exposureProblem({ host: '127.0.0.1', hosts: ['dash.example.com'] });
    if (proxied === undefined) throw new Error('no problem');
    expect(proxied.message).toContain('dash.example.com');
    expect(expectSaid(proxied).nl).toContain('dash.example.com');
    // Loopback names alone are this machine; a login makes any name safe.
    expect(
      exposureProblem({ host: '127.0.0.1', hosts: ['localhost', '127.0.0.1'] }),
    ).toBeUndefined();
    expect(
      exposureProblem({ host: '127.0.0.1', hosts: ['dash.example.com'], user: 'u', password: 'p' }),
    ).toBeUndefined();
    expect(
      exposureProblem({ host: '127.0.0.1', hosts: ['dash.example.com'], users: '/etc/users.json' }),
    ).toBeUndefined();
  });
});
