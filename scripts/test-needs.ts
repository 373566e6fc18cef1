/**
 * What the tests need from the machine, got when it is missing: checked by `npm test` before any
 * test runs (test/helpers/machine-needs.ts, vitest's global setup), or by hand with
 * `node dist/scripts/test-needs.js`. The
 * dashboard's browser test drives a Chromium, the workbook tests read workbooks written by
 * Debian's python3-openpyxl, the Redis tests start a private redis-server when REDIS_URL is
 * not set (and make a TLS CA with openssl), and the operations kit in deploy/ is checked with its own tools (caddy, promtool,
 * systemd-analyze). A missing one is installed from Debian's packages with apt-get (as
 * root, or through `sudo -n`), with one line saying why; when that cannot be done, this fails
 * saying what to install. Never a skip: a test that cannot run must not pass.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The machine as this script sees it; the tests give a made-up one. */
export interface Machine {
  env: NodeJS.ProcessEnv;
  isRoot: boolean;
  exists(path: string): boolean;
  onPath(command: string): boolean;
  /** Whether `sudo -n` runs commands without asking for a password. */
  canSudo(): boolean;
  /** Runs a command with the output shown; its exit code. */
  run(command: string, args: readonly string[]): number;
  /** Whether a package of the project can be loaded (an optional one may not be there). */
  resolves(name: string): boolean;
  say(line: string): void;
}

interface Need {
  /** Debian's package that provides it. */
  package: string;
  ready(machine: Machine): boolean;
  /** Why it is needed and what is missing, as the reason for installing it. */
  missing(machine: Machine): string;
  /** What to do by hand, when it cannot be installed from here. */
  advice: string;
  /** A problem that installing the package would not solve. */
  unfixable?(machine: Machine): string | undefined;
}

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** Debian's python3, whose openpyxl writes workbooks for the workbook tests (test/helpers/openpyxl.ts). */
const DEBIAN_PYTHON = '/usr/bin/python3';

/** The tools that check the operations kit's files (test/deploy/), and their Debian packages. */
const DEPLOY_CHECKERS = [
  { command: 'caddy', pkg: 'caddy', checks: "the reverse proxy's Caddyfile is" },
  { command: 'promtool', pkg: 'prometheus', checks: 'the Prometheus alert rules are' },
  { command: 'systemd-analyze', pkg: 'systemd', checks: 'the systemd unit is' },
] as const;

const NEEDS: readonly Need[] = [
  {
    package: 'chromium',
    ready: (m) => m.exists(m.env.CHROMIUM_PATH || DEBIAN_CHROMIUM),
    missing: () => `no Chromium at ${DEBIAN_CHROMIUM} (the dashboard's browser test drives one)`,
    advice:
      'install Chromium (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary',
    unfixable: (m) =>
      m.env.CHROMIUM_PATH
        ? `CHROMIUM_PATH is ${m.env.CHROMIUM_PATH}, which does not exist: set it to a Chromium or Chrome binary, or unset it to use Debian's ${DEBIAN_CHROMIUM}`
        : undefined,
  },
  {
    package: 'python3-openpyxl',
    ready: (m) => m.exists('/usr/lib/python3/dist-packages/openpyxl/__init__.py'),
    missing: () =>
      `no openpyxl for Debian's ${DEBIAN_PYTHON} (the workbook tests read workbooks it writes)`,
    advice: "install openpyxl for Debian's python3 (`sudo apt-get install python3-openpyxl`)",
  },
  {
    package: 'redis-server',
    ready: (m) =>
      Boolean(m.env.REDIS_URL) || m.onPath('redis-server') || m.resolves('@testcontainers/redis'),
    missing: () => 'no REDIS_URL and no redis-server on PATH (the Redis tests start one)',
    advice:
      'set REDIS_URL to a Redis the tests may use, or install redis-server (Debian/Ubuntu: `sudo apt-get install redis-server`)',
  },
  {
    package: 'openssl',
    ready: (m) => m.onPath('openssl'),
    missing: () => 'no openssl on PATH (the Redis TLS test makes its CA and certificate with it)',
    advice: 'install openssl (Debian/Ubuntu: `sudo apt-get install openssl`)',
  },
  ...DEPLOY_CHECKERS.map(({ command, pkg, checks }) => ({
    package: pkg,
    ready: (m: Machine) => m.onPath(command),
    missing: () => `no ${command} on PATH (${checks} checked with it)`,
    advice: `install ${command} (Debian/Ubuntu: \`sudo apt-get install ${pkg}\`)`,
  })),
];

/** What the unit tests need: workbooks written by openpyxl, and the checkers of deploy/'s files. */
export const UNIT_NEEDS: readonly string[] = [
  'python3-openpyxl',
  ...DEPLOY_CHECKERS.map((checker) => checker.pkg),
];

/**
 * Gets what is missing, or says why it cannot; the exit code for npm. `needed` narrows it to
 * what the tests about to run need (the unit tests need no browser and no Redis).
 */
export function provideTestNeeds(
  machine: Machine,
  needed: readonly string[] = NEEDS.map((need) => need.package),
): number {
  const missing = NEEDS.filter((need) => needed.includes(need.package) && !need.ready(machine));
  if (missing.length === 0) return 0;
  const unfixable = missing.flatMap((need) => need.unfixable?.(machine) ?? []);
  if (unfixable.length > 0) return fail(machine, `${unfixable.join('; ')}.`);
  const what = missing.map((need) => need.missing(machine)).join('; ');
  const advice = missing.map((need) => need.advice).join('; ');
  const apt = aptGet(machine);
  if (typeof apt === 'string') return fail(machine, `${what}, and ${apt}: ${advice}.`);

  const packages = missing.map((need) => need.package);
  for (const need of missing) {
    machine.say(
      `npm test: ${need.missing(machine)}: installing Debian's ${need.package} with apt-get.`,
    );
  }
  const run = (...args: string[]) => machine.run(apt[0] ?? 'apt-get', [...apt.slice(1), ...args]);
  if (run('update') !== 0 || run('install', '-y', '--no-install-recommends', ...packages) !== 0) {
    return fail(machine, `apt-get could not install ${packages.join(' ')}: ${advice}.`);
  }
  const still = missing.filter((need) => !need.ready(machine));
  if (still.length > 0) {
    const left = still.map((need) => need.missing(machine)).join('; ');
    return fail(machine, `${left}, even after apt-get: ${advice}.`);
  }
  return 0;
}

/** The apt-get command line this user may run (as root or through `sudo -n`), or why none. */
function aptGet(machine: Machine): string[] | string {
  if (!machine.onPath('apt-get')) return 'there is no apt-get on this machine';
  const apt = ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'];
  if (machine.isRoot) return apt;
  if (machine.onPath('sudo') && machine.canSudo()) return ['sudo', '-n', ...apt];
  return 'this user is not root and cannot use sudo without a password';
}

function fail(machine: Machine, message: string): number {
  machine.say(`npm test cannot run every test: ${message} Then run npm test again.`);
  return 1;
}

/** This machine. */
export function thisMachine(): Machine {
  const require = createRequire(import.meta.url);
  return {
    env: process.env,
    isRoot: process.getuid?.() === 0,
    exists: existsSync,
    onPath: (command) =>
      (process.env.PATH ?? '').split(delimiter).some((dir) => isExecutable(join(dir, command))),
    canSudo: () => spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
    run: (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1,
    resolves: (name) => {
      try {
        require.resolve(name);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return false;
        throw error;
      }
    },
    say: (line) => process.stderr.write(`${line}\n`),
  };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch (error) {
    if (['ENOENT', 'EACCES', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? ''))
      return false;
    throw error;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = provideTestNeeds(thisMachine());
}
