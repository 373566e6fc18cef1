/**
 * The shipped Caddyfile, run by Caddy in front of a real dashboard: over TLS (a certificate made
 * by openssl for the test, named as the Caddyfile's comment says), every path reaches the
 * dashboard with the browser's Host (which the dashboard checks against DASHBOARD_HOSTS), and the
 * login is the dashboard's own. Only the ports differ from the file as shipped (a test may not
 * take 443): the site's port, the dashboard's, and no admin endpoint or HTTP redirect port.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import { freePort } from '../../src/redis/local-server.js';
import { eventually } from '../helpers/eventually.js';
import { tempDir } from '../helpers/files.js';

const SITE = 'orders.example.be';
const auth = { authorization: `Basic ${btoa('ops:s3cret')}` };

let dir: string;
let cert: string;
let certFile: string;
let caddy: ChildProcess | undefined;
let caddyLog = '';
let port: number;
let named: RunningDashboard;
let unnamed: RunningDashboard;
const opened: RunningDashboard[] = [];

async function dashboard(hosts: string[]): Promise<RunningDashboard> {
  const running = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    hosts,
    user: 'ops',
    password: 's3cret',
    overview: () => Promise.resolve([]),
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
  opened.push(running);
  return running;
}

/** The shipped Caddyfile with the test's ports, certificate and dashboards. */
async function testCaddyfile(key: string, sitePort: number, httpPort: number): Promise<string> {
  const shipped = await readFile('deploy/caddy/Caddyfile', 'utf8');
  const own = /^\t#(tls \S+ \S+)$/m.exec(shipped)?.[0];
  const site = /^orders\.example\.be \{$/m.exec(shipped)?.[0];
  if (own === undefined || site === undefined) throw new Error('the Caddyfile changed shape');
  const upstream = (url: string) => new URL(url).host;
  return shipped
    .replace(/^\{$/m, `{\n\tadmin off\n\thttp_port ${httpPort}\n\thttps_port ${sitePort}`)
    .replace(own, `\ttls ${certFile} ${key}`)
    .replace(site, `${SITE}:${sitePort} {`)
    .replace('reverse_proxy 127.0.0.1:3000', `reverse_proxy ${upstream(named.url)}`)
    .concat(
      `\nunnamed.example.be:${sitePort} {\n\ttls ${certFile} ${key}\n\treverse_proxy ${upstream(unnamed.url)}\n}\n`,
    );
}

/** A GET through Caddy, as a browser asking for `name` would send it. */
function get(
  path: string,
  name = SITE,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        servername: name,
        ca: cert,
        headers: { host: `${name}:${port}`, ...headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = await tempDir('caddy-proxy-');
  const key = join(dir, 'site.key');
  certFile = join(dir, 'site.crt');
  const made = spawnSync('openssl', [
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${SITE}`],
    ...['-addext', `subjectAltName=DNS:${SITE},DNS:unnamed.example.be`],
    ...['-keyout', key, '-out', certFile],
  ]);
  if (made.status !== 0) throw new Error(`openssl: ${String(made.stderr)}`);
  cert = await readFile(certFile, 'utf8');
  named = await dashboard([SITE]);
  unnamed = await dashboard([]);
  port = await freePort();
  const caddyfile = join(dir, 'Caddyfile');
  await writeFile(caddyfile, await testCaddyfile(key, port, await freePort()));
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  const child = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], { env });
  caddy = child;
  child.stderr.on('data', (chunk: Buffer) => (caddyLog += chunk.toString()));
  await eventually(
    () =>
      child.exitCode !== null
        ? Promise.reject(new Error(`Caddy stopped: ${caddyLog}`))
        : get('/healthz').then(
            (answer) => answer,
            () => undefined,
          ),
    () => `Caddy did not answer on ${port}: ${caddyLog}`,
    20_000,
  );
});

afterAll(async () => {
  const child = caddy;
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  for (const running of opened) await running.close();
});

describe('Caddy with the shipped Caddyfile in front of the dashboard', () => {
  it('serves /healthz over TLS, answered by the dashboard', async () => {
    const answer = await get('/healthz');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' });
  });

  it("keeps the dashboard's login: none from the proxy, the browser's passed on", async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/', SITE, { authorization: `Basic ${btoa('ops:wrong')}` })).status).toBe(
      401,
    );
    expect((await get('/', SITE, auth)).status).toBe(200);
  });

  it('passes every path on as the dashboard answers it, the calendar feed too', async () => {
    for (const path of ['/', '/healthz', '/metrics', '/agenda/gent.ics', '/no-such-page']) {
      const direct = await fetch(new URL(path, named.url), { headers: auth });
      expect((await get(path, SITE, auth)).status, path).toBe(direct.status);
    }
  });

  it('is refused by a dashboard not told the name (DASHBOARD_HOSTS unset)', async () => {
    const answer = await get('/', 'unnamed.example.be', auth);
    expect(answer.status).not.toBe(200);
    expect(answer.body).toMatch(/DASHBOARD_HOSTS/);
  });
});
