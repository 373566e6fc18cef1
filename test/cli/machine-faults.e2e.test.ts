/**
 * The machine's faults said as one line by the binary (docs/design.md "Outages, said once"): a
 * data folder it may not write (run as the user `nobody`, since root writes anywhere) and a full
 * disk (a 1 MiB tmpfs, mounted by the test: root only), the data folder's or only the embedded
 * sandbox's database folder in it. Each: exit 1, the folder named, no stack.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { orderImporter, runCli, BIN } from '../helpers/cli.js';
import { endsWithin } from '../helpers/cli-waits.js';
import { tempDir } from '../helpers/files.js';
import { useTestRedis } from '../helpers/redis.js';

const root = process.getuid?.() === 0;
const setpriv = spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;
/** Whether the user nobody can run this Node and read the binary (not in a private 0700 tree). */
const nobodyRuns =
  root &&
  setpriv &&
  spawnSync(
    'setpriv',
    [
      '--reuid=nobody',
      '--regid=nogroup',
      '--clear-groups',
      process.execPath,
      '-e',
      `require('node:fs').accessSync(${JSON.stringify(BIN)})`,
    ],
    { stdio: 'ignore' },
  ).status === 0;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function noStack(stderr: string): void {
  expect(stderr.split('\n').filter((l) => /^\s+at |unexpected error/.test(l))).toEqual([]);
}

describe('a fault of the machine, said by the binary', () => {
  it.runIf(nobodyRuns)(
    'a data folder it may not write: one line naming it',
    async () => {
      const base = await tempDir('eacces-');
      await chmod(base, 0o755);
      const dataDir = join(base, 'data');
      await mkdir(dataDir, { mode: 0o555 });
      await chmod(dataDir, 0o555);
      const redis = await useTestRedis();
      cleanups.push(() => void redis.cleanup());
      const cli = runCli(
        'setpriv',
        ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, BIN, 'watch'],
        { DATA_DIR: dataDir, REDIS_URL: redis.url, QUEUE_PREFIX: `{${redis.prefix}}`, HOME: base },
      );
      const ended = await endsWithin(cli, 30_000);
      expect(ended.code, ended.stderr).toBe(1);
      const lines = ended.stderr.trim().split('\n');
      expect(lines, ended.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^order-importer: .*may not write/);
      expect(lines[0]).toContain(join(dataDir, 'inbox'));
      noStack(ended.stderr);
    },
    40_000,
  );

  it.runIf(root)(
    'a full disk: one line naming the folder',
    async () => {
      const mountPoint = await tempDir('enospc-');
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
      expect(mounted.status, String(mounted.stderr)).toBe(0);
      cleanups.push(() => spawnSync('umount', ['-l', mountPoint]));
      // Full but for a few blocks: the data folder is made, what it writes there is not.
      await writeFile(join(mountPoint, 'fill'), Buffer.alloc(1024 * 1024 - 4096)).catch(
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        },
      );
      const sheets = await tempDir('enospc-sheet-');
      const rows = Array.from({ length: 2000 }, (_, i) => `R-${i};Andere;Kerkstraat;${i};Gent`);
      const sheet = join(sheets, 'orders.csv');
      await writeFile(
        sheet,
        ['reference;property_type;address1;address2;city', ...rows].join('\n'),
      );
      const redis = await useTestRedis();
      cleanups.push(() => void redis.cleanup());
      const dataDir = join(mountPoint, 'data');
      const ended = await endsWithin(
        orderImporter(['import', sheet], {
          DATA_DIR: dataDir,
          REDIS_URL: redis.url,
          QUEUE_PREFIX: `{${redis.prefix}}`,
        }),
        30_000,
      );
      expect(ended.code, ended.stderr).toBe(1);
      // Where the disk fills up depends on what fitted (the installation's marker, or the
      // sheet's copy after the start's lines): either way, one line ends it.
      const lines = ended.stderr.trim().split('\n');
      const said = lines.filter((line) => line.startsWith('order-importer:'));
      expect(said, ended.stderr).toHaveLength(1);
      expect(said[0]).toMatch(/^order-importer: the disk of .* is full \((ENOSPC|SQLITE_FULL)\)/);
      // The data folder, or the embedded sandbox's database folder in it: named either way.
      expect(said[0]).toContain(dataDir);
      expect(lines.at(-1)).toBe(said[0]);
      noStack(ended.stderr);
    },
    40_000,
  );

  it.runIf(root)(
    "the embedded sandbox's database on a full disk: one line naming its folder and DATA_DIR",
    async () => {
      const dataDir = await tempDir('sqlite-full-');
      const sandboxDir = join(dataDir, 'sandbox');
      await mkdir(sandboxDir);
      // Only the sandbox's folder is full: the data folder's other files are written, its
      // database (SQLite, which names no file when the disk is full) is not.
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', sandboxDir]);
      expect(mounted.status, String(mounted.stderr)).toBe(0);
      cleanups.push(() => spawnSync('umount', ['-l', sandboxDir]));
      await writeFile(join(sandboxDir, 'fill'), Buffer.alloc(2 * 1024 * 1024)).catch(
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        },
      );
      const sheet = join(await tempDir('sqlite-full-sheet-'), 'orders.csv');
      await writeFile(
        sheet,
        'reference;property_type;address1;address2;city\nR-1;Andere;Kerkstraat;1;Gent\n',
      );
      const redis = await useTestRedis();
      cleanups.push(() => void redis.cleanup());
      const ended = await endsWithin(
        orderImporter(['import', sheet], {
          DATA_DIR: dataDir,
          REDIS_URL: redis.url,
          QUEUE_PREFIX: `{${redis.prefix}}`,
        }),
        30_000,
      );
      expect(ended.code, ended.stderr).toBe(1);
      const said = ended.stderr.split('\n').filter((line) => line.startsWith('order-importer:'));
      expect(said, ended.stderr).toHaveLength(1);
      expect(said[0]).toMatch(/\(SQLITE_FULL\)/);
      expect(said[0]).toContain(sandboxDir);
      expect(said[0]).toMatch(/DATA_DIR/);
      expect(said[0]).not.toContain('a folder of the importer');
      noStack(ended.stderr);
    },
    40_000,
  );
});
