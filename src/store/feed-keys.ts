/**
 * The keys of the offices' calendar feeds (docs/design.md "The agenda"): an office's
 * `calendarKey` from its connection entry, else one generated once (128 random bits, base64url)
 * into `$DATA_DIR/calendar-keys/<office>.key`, readable by its owner only. Written whole under a
 * temporary name then linked into place, so two processes making it at once keep the same one.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** An office's name as a file's (connections' names are safe folder names already). */
const OFFICE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const KEY = /^[A-Za-z0-9_-]{22,200}$/;

export class FeedKeys {
  readonly #dir: string;

  constructor(
    dataDir: string,
    /** Keys the config file gives, by office name. */
    private readonly configured: ReadonlyMap<string, string> = new Map(),
  ) {
    this.#dir = join(dataDir, 'calendar-keys');
  }

  /** The office's key, made the first time it is asked for; undefined for a name no file may have. */
  async keyOf(office: string): Promise<string | undefined> {
    const given = this.configured.get(office);
    if (given !== undefined) return given;
    if (!OFFICE.test(office)) return undefined;
    const file = join(this.#dir, `${office}.key`);
    const kept = await readKey(file);
    if (kept !== undefined) return kept;
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const tmp = join(this.#dir, `.${office}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(tmp, `${randomBytes(16).toString('base64url')}\n`, {
        flag: 'wx',
        mode: 0o600,
      });
      await link(tmp, file).catch((error: unknown) => {
        // Another process made it first: its key is the one.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      });
    } finally {
      await rm(tmp, { force: true });
    }
    return readKey(file);
  }
}

async function readKey(file: string): Promise<string | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return KEY.test(text) ? text : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
