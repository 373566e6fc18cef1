import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { SETTING_ENV } from '../../src/settings/table.js';
import { runInProcess, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string | string[];
}

let services: Record<string, Service>;
beforeAll(async () => {
  const compose = parse(await readFile(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, Service>;
  };
  services = compose.services;
});

describe('docker-compose.yml', () => {
  it('has Redis with AOF and noeviction, the sandbox, and the watcher', () => {
    expect(Object.keys(services).sort()).toEqual(['redis', 'sandbox', 'watcher']);
    expect(services.redis?.command).toEqual(
      expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']),
    );
    expect(services.watcher?.command).toEqual(['watch']);
  });

  it('runs only commands and flags the product has, and sets only settings it reads', async () => {
    const known = new Set<string>(SETTING_ENV);
    for (const [name, service] of Object.entries(services)) {
      if (service.build === undefined) continue; // an image of its own (redis)
      const [command = '', ...args] = service.command ?? [];
      const help = await runInProcess([command, '--help']);
      expect(help.code, `${name}: ${command} --help`).toBe(0);
      for (const flag of args.filter((a) => a.startsWith('--'))) {
        expect(help.stdout, `${name}: ${command} ${flag}`).toContain(flag);
      }
      for (const variable of Object.keys(service.environment ?? {})) {
        expect(known.has(variable), `${name}: ${variable}`).toBe(true);
      }
    }
  });

  it('points the watcher at the services by their names', () => {
    const env = services.watcher?.environment ?? {};
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(env.API_BASE_URL).toBe('http://sandbox:4010');
    expect(services.sandbox?.command).toEqual(
      expect.arrayContaining(['--port', '4010', '--host', '0.0.0.0']),
    );
    expect(env.DASHBOARD_HOST).toBe('0.0.0.0');
  });
});

describe("the dashboard's login", () => {
  it('is not in docker-compose.yml: the watcher reads it from dashboard.env, which git ignores', async () => {
    for (const [name, service] of Object.entries(services)) {
      const secrets = Object.keys(service.environment ?? {}).filter((v) =>
        /PASSWORD|USER|SECRET/.test(v),
      );
      expect(secrets, name).toEqual([]);
    }
    expect([services.watcher?.env_file].flat()).toEqual(['dashboard.env']);
    const ignored = (await readFile(join(ROOT, '.gitignore'), 'utf8')).split('\n');
    expect(ignored).toContain('dashboard.env');
  });

  it('is shown by dashboard.env.example, with settings the product reads and no password', async () => {
    const example = parseEnv(await readFile(join(ROOT, 'dashboard.env.example'), 'utf8'));
    expect(Object.keys(example).sort()).toEqual([
      'DASHBOARD_HOSTS',
      'DASHBOARD_PASSWORD',
      'DASHBOARD_USER',
    ]);
    for (const variable of Object.keys(example)) expect(SETTING_ENV).toContain(variable);
    expect(example.DASHBOARD_PASSWORD).toBe('');
  });

  it('copied as it is, without a password, keeps the watcher from starting an open dashboard', async () => {
    const example = parseEnv(await readFile(join(ROOT, 'dashboard.env.example'), 'utf8'));
    const dataDir = await tempDir('compose-');
    const env = { ...services.watcher?.environment, ...example, DATA_DIR: dataDir };
    const watch = await runInProcess(services.watcher?.command ?? [], env);
    expect(watch.code).toBe(1);
    expect(watch.stderr).toMatch(
      /the dashboard would listen on 0\.0\.0\.0, beyond this machine, without a password: set DASHBOARD_USER and DASHBOARD_PASSWORD/,
    );
  });
});
