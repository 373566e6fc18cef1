/**
 * What makes the embedded sandbox the same API from one start to the next. Its port is new at
 * every start, so its URL cannot say; its data folder can, but a folder removed and made anew (a
 * demo started over) holds none of the old orders, and rows imported into the old one must not
 * count as imported. So: the folder's path plus an id written into it when it was new.
 */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Refused } from '../errors.js';
import { SANDBOX_ID_WAIT } from '../policy.js';

const FILE = 'instance-id';

export async function sandboxIdentity(dataDir: string): Promise<string> {
  const file = join(dataDir, FILE);
  const fresh = randomBytes(8).toString('hex');
  try {
    await writeFile(file, `${fresh}\n`, { flag: 'wx' });
    return identity(dataDir, fresh);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Made by an earlier start, or by another process starting now (which may still be writing it).
  for (let tries = 0; ; tries++) {
    const kept = (await readFile(file, 'utf8')).trim();
    if (/^[0-9a-f]{16}$/.test(kept)) return identity(dataDir, kept);
    if (tries >= SANDBOX_ID_WAIT.tries) {
      throw new Refused(
        'sandbox.identity-unreadable',
        `${file} does not hold a sandbox id: remove it (the sandbox there is then taken for a new one).`,
        { values: { file } },
      );
    }
    await sleep(SANDBOX_ID_WAIT.everyMs);
  }
}

function identity(dataDir: string, id: string): string {
  return `sandbox:${resolve(dataDir)}:${id}`;
}
