/**
 * The reverse proxy shipped in deploy/caddy/ is one Caddy takes (`caddy validate`, Debian's caddy
 * got by scripts/test-needs.ts): as shipped (a certificate from ACME), and with a certificate of
 * one's own (the line its comment gives), here one made by openssl for the test. It proxies the
 * site the systemd env file names in DASHBOARD_HOSTS to the dashboard on loopback.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CADDYFILE = 'deploy/caddy/Caddyfile';
const ENV_EXAMPLE = 'deploy/systemd/order-importer.env.example';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'caddy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(command: string, args: readonly string[]) {
  // Caddy keeps its state under HOME/XDG folders: the test's own, not the user's.
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  const done = spawnSync(command, args, { encoding: 'utf8', env });
  if (done.error) throw done.error;
  return { status: done.status, stdout: done.stdout, output: `${done.stdout}${done.stderr}` };
}

/** `caddy validate` of a Caddyfile: its exit code, and the warnings it gave. */
function validate(path: string) {
  const { status, output } = run('caddy', ['validate', '--config', path, '--adapter', 'caddyfile']);
  const warnings = output.split('\n').filter((line) => /"level":"(warn|error)"/.test(line));
  return { status, output, warnings };
}

function envValue(text: string, name: string): string | undefined {
  return new RegExp(`^${name}=(.*)$`, 'm').exec(text)?.[1];
}

describe('the Caddyfile', () => {
  it('passes `caddy validate` as shipped, without a warning (formatted as `caddy fmt` does)', () => {
    const { status, output, warnings } = validate(CADDYFILE);
    expect(warnings, output).toEqual([]);
    expect(status, output).toBe(0);
    expect(output).toMatch(/Valid configuration/);
  });

  it('passes with a certificate of its own, as its comment says to name one', async () => {
    const [cert, key] = [join(dir, 'site.crt'), join(dir, 'site.key')];
    const made = run('openssl', [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2'],
      ...['-subj', '/CN=orders.example.be', '-keyout', key, '-out', cert],
    ]);
    expect(made.status, made.output).toBe(0);
    const shipped = await readFile(CADDYFILE, 'utf8');
    const own = /^\t#(tls \S+ \S+)$/m.exec(shipped);
    expect(own, 'the commented tls line').not.toBeNull();
    const path = join(dir, 'Caddyfile');
    await writeFile(path, shipped.replace(own?.[0] ?? '', `\ttls ${cert} ${key}`));
    const { status, output } = validate(path);
    expect(status, output).toBe(0);

    // A certificate that is not there is refused: the check does read the files.
    await writeFile(path, shipped.replace(own?.[0] ?? '', `\ttls ${cert}.gone ${key}`));
    expect(validate(path).status).not.toBe(0);
  });

  it('sends the site named in DASHBOARD_HOSTS to the dashboard on 127.0.0.1', async () => {
    const adapt = ['adapt', '--config', CADDYFILE, '--adapter', 'caddyfile'];
    const { status, stdout, output } = run('caddy', adapt);
    expect(status, output).toBe(0);
    const env = await readFile(ENV_EXAMPLE, 'utf8');
    const site = envValue(env, 'DASHBOARD_HOSTS');
    const upstream = `${envValue(env, 'DASHBOARD_HOST')}:${envValue(env, 'DASHBOARD_PORT')}`;
    expect(upstream).toBe('127.0.0.1:3000');
    const config = JSON.parse(stdout) as { apps: { http: { servers: object } } };
    const text = JSON.stringify(config.apps.http.servers);
    expect(text).toContain(`"host":["${site}"]`);
    expect(text).toContain(`"handler":"reverse_proxy","upstreams":[{"dial":"${upstream}"}]`);
    expect(text).toContain('"listen":[":443"]');
  });
});
