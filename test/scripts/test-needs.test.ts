import { describe, expect, it } from 'vitest';

import { type Machine, provideTestNeeds, UNIT_NEEDS } from '../../scripts/test-needs.js';

interface Setup {
  env?: NodeJS.ProcessEnv;
  isRoot?: boolean;
  files?: string[];
  commands?: string[];
  sudo?: boolean;
  /** Exit code of apt-get install; 0 puts the packages' files in place. */
  installExit?: number;
  /** Whether a successful install really brings the packages' files. */
  installWorks?: boolean;
  /** Whether Debian's python3 has openpyxl (default true). */
  openpyxl?: boolean;
  /** The deploy files' checkers missing from PATH (default none). */
  noTools?: string[];
}

/** The checkers of deploy/'s files, and the Debian package of each. */
const TOOLS = { caddy: 'caddy', promtool: 'prometheus', 'systemd-analyze': 'systemd' } as const;

const OPENPYXL = '/usr/lib/python3/dist-packages/openpyxl/__init__.py';

/** A made-up machine that records what it was asked to run and say. */
function machine(setup: Setup) {
  const files = new Set([...(setup.files ?? []), ...(setup.openpyxl === false ? [] : [OPENPYXL])]);
  const tools = Object.keys(TOOLS).filter((tool) => !setup.noTools?.includes(tool));
  const commands = new Set([...(setup.commands ?? ['apt-get', 'sudo']), 'openssl', ...tools]);
  const ran: string[] = [];
  const said: string[] = [];
  const m: Machine = {
    env: setup.env ?? {},
    isRoot: setup.isRoot ?? true,
    exists: (path) => files.has(path),
    onPath: (command) => commands.has(command),
    canSudo: () => setup.sudo ?? false,
    run: (command, args) => {
      ran.push([command, ...args].join(' '));
      if (!args.includes('install')) return 0;
      const exit = setup.installExit ?? 0;
      if (exit === 0 && (setup.installWorks ?? true)) {
        if (args.includes('chromium')) files.add('/usr/bin/chromium');
        if (args.includes('redis-server')) commands.add('redis-server');
        if (args.includes('python3-openpyxl')) files.add(OPENPYXL);
        for (const [tool, pkg] of Object.entries(TOOLS)) if (args.includes(pkg)) commands.add(tool);
      }
      return exit;
    },
    resolves: () => false,
    say: (line) => said.push(line),
  };
  return { m, ran, said };
}

const APT = 'env DEBIAN_FRONTEND=noninteractive apt-get';

describe('provideTestNeeds', () => {
  it('does nothing when Chromium and redis-server are there', () => {
    const { m, ran, said } = machine({
      files: ['/usr/bin/chromium'],
      commands: ['apt-get', 'redis-server'],
    });
    expect(provideTestNeeds(m)).toBe(0);
    expect([ran, said]).toEqual([[], []]);
  });

  it('takes CHROMIUM_PATH and REDIS_URL instead', () => {
    const { m, ran } = machine({
      env: { CHROMIUM_PATH: '/opt/chrome/chrome', REDIS_URL: 'redis://r:6379' },
      files: ['/opt/chrome/chrome'],
    });
    expect(provideTestNeeds(m)).toBe(0);
    expect(ran).toEqual([]);
  });

  it('installs Debian chromium as root, saying why in one line', () => {
    const { m, ran, said } = machine({ commands: ['apt-get', 'redis-server'] });
    expect(provideTestNeeds(m)).toBe(0);
    expect(ran).toEqual([`${APT} update`, `${APT} install -y --no-install-recommends chromium`]);
    expect(said).toEqual([
      "npm test: no Chromium at /usr/bin/chromium (the dashboard's browser test drives one): installing Debian's chromium with apt-get.",
    ]);
  });

  it('installs python3-openpyxl when Debian’s python3 has no openpyxl', () => {
    const { m, ran, said } = machine({
      files: ['/usr/bin/chromium'],
      commands: ['apt-get', 'redis-server'],
      openpyxl: false,
    });
    expect(provideTestNeeds(m)).toBe(0);
    expect(ran).toEqual([
      `${APT} update`,
      `${APT} install -y --no-install-recommends python3-openpyxl`,
    ]);
    expect(said).toEqual([
      "npm test: no openpyxl for Debian's /usr/bin/python3 (the workbook tests read workbooks it writes): installing Debian's python3-openpyxl with apt-get.",
    ]);
  });

  it('installs both in one go through sudo -n when not root', () => {
    const { m, ran, said } = machine({ isRoot: false, sudo: true });
    expect(provideTestNeeds(m)).toBe(0);
    expect(ran).toEqual([
      `sudo -n ${APT} update`,
      `sudo -n ${APT} install -y --no-install-recommends chromium redis-server`,
    ]);
    expect(said).toHaveLength(2);
  });

  it('fails saying how to install, when it may not install', () => {
    const { m, ran, said } = machine({
      isRoot: false,
      sudo: false,
      commands: ['apt-get', 'sudo', 'redis-server'],
    });
    expect(provideTestNeeds(m)).toBe(1);
    expect(ran).toEqual([]);
    expect(said).toEqual([
      "npm test cannot run every test: no Chromium at /usr/bin/chromium (the dashboard's browser test drives one), and this user is not root and cannot use sudo without a password: install Chromium (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary. Then run npm test again.",
    ]);
  });

  it('fails saying how to install, without apt-get', () => {
    const { m, ran, said } = machine({ commands: [] });
    expect(provideTestNeeds(m)).toBe(1);
    expect(ran).toEqual([]);
    expect(said[0]).toMatch(
      /and there is no apt-get on this machine: install Chromium .*; set REDIS_URL .*install redis-server/,
    );
  });

  it('does not install over a CHROMIUM_PATH that is wrong: it says so', () => {
    const { m, ran, said } = machine({
      env: { CHROMIUM_PATH: '/nope/chrome' },
      files: ['/usr/bin/chromium'],
      commands: ['apt-get', 'redis-server'],
    });
    expect(provideTestNeeds(m)).toBe(1);
    expect(ran).toEqual([]);
    expect(said[0]).toMatch(/CHROMIUM_PATH is \/nope\/chrome, which does not exist/);
  });

  it('fails when apt-get fails, or installs without bringing what was missing', () => {
    const failing = machine({ commands: ['apt-get', 'redis-server'], installExit: 100 });
    expect(provideTestNeeds(failing.m)).toBe(1);
    expect(failing.said.at(-1)).toMatch(
      /^npm test cannot run every test: apt-get could not install chromium: /,
    );

    const empty = machine({ commands: ['apt-get', 'redis-server'], installWorks: false });
    expect(provideTestNeeds(empty.m)).toBe(1);
    expect(empty.said.at(-1)).toMatch(
      /no Chromium at \/usr\/bin\/chromium .*, even after apt-get: /,
    );
  });
});

describe("the checkers of deploy/'s files", () => {
  it("installs Debian's caddy, prometheus (promtool) and systemd (systemd-analyze) when missing", () => {
    const { m, ran, said } = machine({
      files: ['/usr/bin/chromium'],
      commands: ['apt-get', 'redis-server'],
      noTools: ['caddy', 'promtool', 'systemd-analyze'],
    });
    expect(provideTestNeeds(m)).toBe(0);
    expect(ran).toEqual([
      `${APT} update`,
      `${APT} install -y --no-install-recommends caddy prometheus systemd`,
    ]);
    expect(said).toEqual([
      "npm test: no caddy on PATH (the reverse proxy's Caddyfile is checked with it): installing Debian's caddy with apt-get.",
      "npm test: no promtool on PATH (the Prometheus alert rules are checked with it): installing Debian's prometheus with apt-get.",
      "npm test: no systemd-analyze on PATH (the systemd unit is checked with it): installing Debian's systemd with apt-get.",
    ]);
  });

  it('are needed by the unit tests too (they check the files)', () => {
    const { m, ran } = machine({ commands: ['apt-get'], noTools: ['promtool'] });
    expect(provideTestNeeds(m, UNIT_NEEDS)).toBe(0);
    expect(ran).toEqual([`${APT} update`, `${APT} install -y --no-install-recommends prometheus`]);
  });
});

describe('the needs of some tests only', () => {
  it('gets only what those tests need: a unit run installs no browser and no Redis', () => {
    const { m, ran } = machine({ commands: ['apt-get'], openpyxl: false });
    expect(provideTestNeeds(m, ['python3-openpyxl'])).toBe(0);
    expect(ran).toEqual([
      `${APT} update`,
      `${APT} install -y --no-install-recommends python3-openpyxl`,
    ]);
  });
});
