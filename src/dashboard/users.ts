/**
 * The dashboard's users file (DASHBOARD_USERS_FILE, docs/design.md "The dashboard's users"): a
 * JSON list `[{ "user": "gent", "password": "<scrypt hash>", "offices": ["gent"] }, …]`, `"*"`
 * for every office. It is read as hostile input: a bad file is one line naming the file and the
 * entry, and a hash is checked as it is read (password.ts). `order-importer dashboard-user`
 * writes an entry through `putUser`, atomically and readable by its owner only.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

import { z } from 'zod';

import { UserError } from '../errors.js';
import { hashProblem } from './password.js';

export interface DashboardUser {
  user: string;
  /** Its scrypt hash (password.ts). */
  password: string;
  /** The offices (connection names) whose sheets the user sees, or every one. */
  offices: readonly string[] | '*';
}

/** A users file is a few hundred lines; more is no users file. */
const MAX_BYTES = 1024 * 1024;

const userSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[^:\p{Cc}]+$/u);
const officeSchema = z.string().min(1).max(200);
const entrySchema = z.strictObject({
  user: userSchema,
  password: z.string().max(1000),
  offices: z.union([z.literal('*'), z.array(officeSchema).min(1).max(1000)]),
});

/** The users of `file`; a UserError naming it (and the entry) when it cannot be used. */
export async function readUsersFile(file: string): Promise<DashboardUser[]> {
  const refuse = (variant: string, message: string, values: Record<string, string | number>) =>
    new UserError('dashboard.users-invalid', `DASHBOARD_USERS_FILE ${file}${message}.`, {
      variant,
      values: { file, ...values },
    });
  let text: string;
  try {
    if ((await stat(file)).size > MAX_BYTES)
      throw refuse('too-large', ' is larger than 1 MB: it is no users file', {});
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof UserError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw refuse('unreadable', ` cannot be read (${reason})`, { reason });
  }
  return parseUsers(text, refuse);
}

type Refuse = (variant: string, message: string, values: Record<string, string | number>) => Error;

function parseUsers(text: string, refuse: Refuse): DashboardUser[] {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw refuse('json', ` is not valid JSON (${error.message})`, { mistake: error.message });
  }
  if (!Array.isArray(json))
    throw refuse(
      'not-list',
      ' must hold a JSON list of users, each with "user", "password" and "offices" (a list of offices, or "*")',
      {},
    );
  const seen = new Map<string, number>();
  return json.map((raw: unknown, index) => {
    const entry = index + 1;
    const user = entryOf(raw, entry, refuse);
    const earlier = seen.get(user.user);
    if (earlier !== undefined)
      throw refuse(
        'duplicate',
        `, entry ${entry} (${user.user}): this user is already entry ${earlier}`,
        { entry, user: user.user, earlier },
      );
    seen.set(user.user, entry);
    return user;
  });
}

function entryOf(raw: unknown, entry: number, refuse: Refuse): DashboardUser {
  const parsed = entrySchema.safeParse(raw);
  const named = (user: unknown) => (typeof user === 'string' ? user.slice(0, 100) : '?');
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    const user = named((raw as { user?: unknown } | null)?.user);
    if (field === 'user')
      throw refuse(
        'user',
        `, entry ${entry}: "user" must be a name of 1 to 100 characters, no ":"`,
        {
          entry,
        },
      );
    if (field === 'offices')
      throw refuse(
        'offices',
        `, entry ${entry} (${user}): "offices" must be a list of office names or "*"`,
        { entry, user },
      );
    throw refuse(
      'entry',
      `, entry ${entry}: must be an object with "user", "password" and "offices", nothing else`,
      { entry },
    );
  }
  const problem = hashProblem(parsed.data.password);
  if (problem !== undefined)
    throw refuse(
      'password',
      `, entry ${entry} (${parsed.data.user}): "password" is not a hash order-importer dashboard-user writes: ${problem}`,
      { entry, user: parsed.data.user, problem },
    );
  return parsed.data;
}

/**
 * Writes `entry` into `file`, in place of the user's entry if there is one (created with its
 * folder if needed): written beside it and renamed over it, readable by its owner only, so that
 * the dashboard reads the old file or the new one, never half of one. Says whether it replaced.
 */
export async function putUser(file: string, entry: DashboardUser): Promise<'added' | 'replaced'> {
  const users = await readUsersIfThere(file);
  const at = users.findIndex((u) => u.user === entry.user);
  const next = at < 0 ? [...users, entry] : users.map((u, i) => (i === at ? entry : u));
  await mkdir(dirname(file), { recursive: true });
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}`);
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(next, undefined, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  return at < 0 ? 'added' : 'replaced';
}

/** The file's users; none when there is no file yet (a bad file is refused, never overwritten). */
export async function readUsersIfThere(file: string): Promise<DashboardUser[]> {
  try {
    await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return readUsersFile(file);
}
