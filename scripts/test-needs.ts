/**
 * What the tests need from the machine, checked before they run (test/helpers/shared-redis.ts,
 * and `node dist/scripts/test-needs.js` by hand). The dashboard's browser test drives a Chromium,
 * the workbook tests read workbooks written by Debian's python3-openpyxl, and the Redis tests use
 * REDIS_URL or start a redis-server. This only says what is missing and how to install it:
 * running the tests never installs packages (`.ci/run` does, on a CI machine). Never a skip: a
 * test that cannot run must not pass.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The machine as this script sees it; the tests give a made-up one. */
export interface Machine {
  env: NodeJS.ProcessEnv;
  exists(path: string): boolean;
  onPath(command: string): boolean;
  /** Whether a package of the project can be loaded (an optional one may not be there). */
  resolves(name: string): boolean;
}

interface Need {
  /** Debian's package that provides it. */
  package: string;
  ready(machine: Machine): boolean;
  /** Why it is needed and what is missing. */
  missing(machine: Machine): string;
  /** Another way than Debian's package, if there is one. */
  otherwise?: string;
  /** A problem that installing the package would not solve. */
  unfixable?(machine: Machine): string | undefined;
}

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** Debian's python3, whose openpyxl writes workbooks for the workbook tests (test/helpers/openpyxl.ts). */
const DEBIAN_PYTHON = '/usr/bin/python3';

const NEEDS: readonly Need[] = [
  {
    package: 'chromium',
    ready: (m) => m.exists(m.env.CHROMIUM_PATH || DEBIAN_CHROMIUM),
    missing: () => `no Chromium at ${DEBIAN_CHROMIUM} (the dashboard's browser test drives one)`,
    otherwise: 'set CHROMIUM_PATH to a Chromium or Chrome binary',
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
  },
  {
    package: 'redis-server',
    ready: (m) =>
      Boolean(m.env.REDIS_URL) || m.onPath('redis-server') || m.resolves('@testcontainers/redis'),
    missing: () => 'no REDIS_URL and no redis-server on PATH (the Redis tests start one)',
    otherwise: 'set REDIS_URL to a Redis the tests may use',
  },
];

/**
 * What is missing for the tests and how to get it, in a few plain sentences; or undefined.
 * `packages` narrows the check to what the tests about to run need (the unit tests need no
 * browser and no Redis).
 */
export function testNeedsMissing(
  machine: Machine,
  packages: readonly string[] = NEEDS.map((need) => need.package),
): string | undefined {
  const missing = NEEDS.filter((need) => packages.includes(need.package) && !need.ready(machine));
  if (missing.length === 0) return undefined;
  const unfixable = missing.flatMap((need) => need.unfixable?.(machine) ?? []);
  if (unfixable.length > 0) return `The tests cannot all run: ${unfixable.join('; ')}.`;
  const what = missing.map((need) => need.missing(machine)).join('; ');
  const toInstall = missing.map((need) => need.package).join(' ');
  const install = `Install ${missing.length === 1 ? 'it' : 'them'} (Debian/Ubuntu: \`sudo apt-get install ${toInstall}\`)`;
  const otherwise = missing.flatMap((need) => need.otherwise ?? []);
  const alternatives = otherwise.length > 0 ? `, or ${otherwise.join(', or ')}` : '';
  return `The tests cannot all run: ${what}. ${install}${alternatives}; then run the tests again.`;
}

/** This machine. */
export function thisMachine(): Machine {
  const require = createRequire(import.meta.url);
  return {
    env: process.env,
    exists: existsSync,
    onPath: (command) =>
      (process.env.PATH ?? '').split(delimiter).some((dir) => isExecutable(join(dir, command))),
    resolves: (name) => {
      try {
        require.resolve(name);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return false;
        throw error;
      }
    },
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
  const missing = testNeedsMissing(thisMachine());
  if (missing !== undefined) process.stderr.write(`${missing}\n`);
  process.exitCode = missing === undefined ? 0 : 1;
}
