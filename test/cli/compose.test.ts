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
  profiles?: string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] };
  ports?: string[];
}

let services: Record<string, Service>;
let composeText: string;
let importerExample: Record<string, string | undefined>;
beforeAll(async () => {
  composeText = await readFile(join(ROOT, 'docker-compose.yml'), 'utf8');
  const compose = parse(composeText) as { services: Record<string, Service> };
  services = compose.services;
  importerExample = parseEnv(await readFile(join(ROOT, 'importer.env.example'), 'utf8'));
});

describe('docker-compose.yml', () => {
  it('has Redis with AOF and noeviction, the sandbox, the watcher and more workers', () => {
    expect(Object.keys(services).sort()).toEqual(['redis', 'sandbox', 'watcher', 'worker']);
    expect(services.worker?.command).toEqual(['worker']);
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

  // docs/operations.md "Reverse proxy with TLS": other machines reach it through the proxy.
  it("publishes the dashboard on the host's loopback only, not on every interface", () => {
    expect(services.watcher?.ports).toEqual(['127.0.0.1:3000:3000']);
  });

  it('points the watcher at the services by their names', () => {
    const env = services.watcher?.environment ?? {};
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(services.worker?.environment?.REDIS_URL).toBe('redis://redis:6379');
    // The API comes from importer.env; as copied from the example, the sandbox's.
    expect(importerExample.API_BASE_URL).toBe('http://sandbox:4010');
    expect(services.sandbox?.command).toEqual(
      expect.arrayContaining(['--port', '4010', '--host', '0.0.0.0']),
    );
    expect(env.DASHBOARD_HOST).toBe('0.0.0.0');
  });
});

describe('the profiles', () => {
  it('start Redis and the watcher by default, the sandbox and more workers only when asked', () => {
    expect(services.redis?.profiles).toBeUndefined();
    expect(services.watcher?.profiles).toBeUndefined();
    expect(services.sandbox?.profiles).toEqual(['sandbox']);
    expect(services.worker?.profiles).toEqual(['workers']);
  });

  it('let nothing started by default wait for a service of a profile', () => {
    const profiled = new Set(
      Object.entries(services)
        .filter(([, service]) => service.profiles !== undefined)
        .map(([name]) => name),
    );
    for (const [name, service] of Object.entries(services)) {
      if (service.profiles !== undefined) continue;
      const needs = Object.keys(service.depends_on ?? {});
      expect(
        needs.filter((n) => profiled.has(n)),
        name,
      ).toEqual([]);
    }
  });
});

describe('the healthchecks', () => {
  it('ping Redis, and start the watcher and the workers once Redis answers', () => {
    expect(services.redis?.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    for (const name of ['watcher', 'worker']) {
      expect(services[name]?.depends_on, name).toEqual({
        redis: { condition: 'service_healthy' },
      });
    }
  });

  it("ask each worker's /healthz on its METRICS_PORT", () => {
    const port = services.worker?.environment?.METRICS_PORT;
    expect(port).toMatch(/^\d+$/);
    expect(services.worker?.healthcheck?.test).toEqual([
      'CMD',
      'node',
      '/app/docker/healthcheck.js',
      `http://127.0.0.1:${port}/healthz`,
    ]);
  });

  it("ask the watcher's dashboard for /healthz on its port, with node (the image has no curl)", () => {
    const port = services.watcher?.environment?.DASHBOARD_PORT;
    expect(services.watcher?.healthcheck?.test).toEqual([
      'CMD',
      'node',
      '/app/docker/healthcheck.js',
      `http://127.0.0.1:${port}/healthz`,
    ]);
  });

  it('ask the sandbox on the port it listens on', () => {
    const command = services.sandbox?.command ?? [];
    const port = command[command.indexOf('--port') + 1];
    const test = services.sandbox?.healthcheck?.test ?? [];
    expect(test.slice(0, 3)).toEqual(['CMD', 'node', '/app/docker/healthcheck.js']);
    expect(test[3]).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/`));
    // Its routes all want a token, which stays out of this file: any answer will do.
    expect(test[4]).toBe('--listening');
  });
});

describe('the API, its token and the time zone', () => {
  it('come from importer.env, which git ignores, never from docker-compose.yml', async () => {
    for (const name of ['watcher', 'worker']) {
      expect([services[name]?.env_file].flat(), name).toContain('importer.env');
    }
    for (const [name, service] of Object.entries(services)) {
      const env = Object.keys(service.environment ?? {});
      expect(
        env.filter((v) => /^API_|TOKEN|^TZ$/.test(v)),
        name,
      ).toEqual([]);
    }
    expect(composeText).not.toContain('sandbox-demo-token');
    const ignored = (await readFile(join(ROOT, '.gitignore'), 'utf8')).split('\n');
    expect(ignored).toContain('importer.env');
  });

  it('are shown by importer.env.example: settings the product reads, and a real time zone', () => {
    expect(Object.keys(importerExample).sort()).toEqual(['API_BASE_URL', 'API_TOKEN', 'TZ']);
    expect(SETTING_ENV).toContain('API_BASE_URL');
    expect(SETTING_ENV).toContain('API_TOKEN');
    const zone = importerExample.TZ ?? '';
    expect(new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone).toBe(zone);
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
    expect([services.watcher?.env_file].flat()).toEqual(['dashboard.env', 'importer.env']);
    expect([services.worker?.env_file].flat()).toEqual(['importer.env']);
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
    const env = {
      ...services.watcher?.environment,
      ...importerExample,
      ...example,
      DATA_DIR: dataDir,
    };
    const watch = await runInProcess(services.watcher?.command ?? [], env);
    expect(watch.code).toBe(1);
    expect(watch.stderr).toMatch(
      /the dashboard would listen on 0\.0\.0\.0, beyond this machine, without a password: set DASHBOARD_USER and DASHBOARD_PASSWORD/,
    );
  });
});
