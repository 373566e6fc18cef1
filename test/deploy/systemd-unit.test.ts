/**
 * The systemd unit shipped in deploy/systemd/ is one systemd takes: `systemd-analyze verify`
 * (Debian's systemd, got by scripts/test-needs.ts) says nothing about it, and it stops the
 * importer the way the importer stops well (one SIGTERM, time to finish the rows in flight).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { CLOSE_GRACE_MS, SERVICE_GRACE_MS } from '../../src/policy.js';
import { SETTING_ENV } from '../../src/settings/table.js';

const UNIT = 'deploy/systemd/order-importer.service';
const ENV_EXAMPLE = 'deploy/systemd/order-importer.env.example';
/** The node the unit runs: Debian's (or NodeSource's) package puts it there. */
const UNIT_NODE = '/usr/bin/node';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The unit's settings, key to values (a key may be given more than once). */
function settingsOf(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const found = /^([A-Za-z_]+)=(.*)$/.exec(line);
    if (!found) continue;
    const [, key = '', value = ''] = found;
    settings.set(key, [...(settings.get(key) ?? []), value]);
  }
  return settings;
}

function seconds(value: string): number {
  const found = /^(\d+)(s|min)?$/.exec(value);
  if (!found) throw new Error(`not a time span: ${value}`);
  return Number(found[1]) * (found[2] === 'min' ? 60 : 1);
}

describe('the systemd unit', () => {
  it('passes `systemd-analyze verify` without a word', async () => {
    let unit = UNIT;
    // verify wants ExecStart's program to exist: on a machine whose node is elsewhere, a copy
    // of the unit names this node instead (the unit itself is unchanged).
    if (!existsSync(UNIT_NODE)) {
      dir = await mkdtemp(join(tmpdir(), 'unit-'));
      unit = join(dir, 'order-importer.service');
      const text = await readFile(UNIT, 'utf8');
      await writeFile(
        unit,
        text.replace(`ExecStart=${UNIT_NODE} `, `ExecStart=${process.execPath} `),
      );
    }
    const run = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    if (run.error) throw run.error;
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
  });

  it('runs `watch` as its own user, stops it with one SIGTERM and waits out its grace', async () => {
    const unit = settingsOf(await readFile(UNIT, 'utf8'));
    expect(unit.get('ExecStart')?.[0]).toMatch(
      / \/opt\/order-importer\/bin\/order-importer\.js watch$/,
    );
    expect(unit.get('User')).toEqual(['order-importer']);
    expect(unit.get('Restart')).toEqual(['on-failure']);
    expect(unit.get('KillSignal')).toEqual(['SIGTERM']);
    // Only the importer gets the SIGTERM: its private redis-server must outlive the rows in flight.
    expect(unit.get('KillMode')).toEqual(['mixed']);
    const stop = seconds(unit.get('TimeoutStopSec')?.[0] ?? '');
    expect(stop * 1000).toBeGreaterThan(SERVICE_GRACE_MS + CLOSE_GRACE_MS);
    expect(unit.get('ProtectSystem')).toEqual(['strict']);
    expect(unit.get('NoNewPrivileges')).toEqual(['yes']);
    expect(unit.get('PrivateTmp')).toEqual(['yes']);
    // Node's JIT writes and runs code: this hardening would kill it at start.
    expect(unit.has('MemoryDenyWriteExecute')).toBe(false);
  });

  it('comes with an env file whose data folder is the one the unit lets it write', async () => {
    const unit = settingsOf(await readFile(UNIT, 'utf8'));
    const env = settingsOf(await readFile(ENV_EXAMPLE, 'utf8'));
    expect(env.get('DATA_DIR')).toEqual([`/var/lib/${unit.get('StateDirectory')?.[0] ?? ''}`]);
    expect(unit.get('EnvironmentFile')).toEqual(['/etc/order-importer/order-importer.env']);
    expect(env.get('DASHBOARD_HOST')).toEqual(['127.0.0.1']);
    const text = await readFile(ENV_EXAMPLE, 'utf8');
    const named = [...text.matchAll(/^#?([A-Z][A-Z_]+)=/gm)].map(([, name = '']) => name);
    for (const name of named)
      expect([...SETTING_ENV, 'TZ', 'LANGUAGE'], `${name} is a setting`).toContain(name);
  });
});
