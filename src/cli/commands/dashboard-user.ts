/**
 * `order-importer dashboard-user NAME [--offices gent,antwerpen|*]`: adds a user to the
 * dashboard's users file (DASHBOARD_USERS_FILE), or changes their password or offices, and says
 * what it did. The password is asked twice without echo on a terminal, and read from standard
 * input when that is a pipe (a script, a test); only its scrypt hash is written.
 */
import { hashPassword } from '../../dashboard/password.js';
import { putUser, readUsersIfThere } from '../../dashboard/users.js';
import { UserError } from '../../errors.js';
import type { Words } from '../../language/words.js';
import type { SettingFlags } from '../../settings/load.js';
import type { CommandIo } from '../io.js';
import { readPassword } from '../password-input.js';
import { commandSettings, commandWords } from '../setup.js';
import { terminalText } from '../terminal-text.js';

export interface DashboardUserCommandOptions {
  config?: string;
  settings?: SettingFlags;
  offices?: string;
}

/** Shorter than this, a password is refused: it guards sheets full of names and addresses. */
export const MIN_PASSWORD = 8;

const NAME = /^[^:\p{Cc}]{1,100}$/u;

export async function dashboardUserCommand(
  args: readonly string[] | string,
  opts: DashboardUserCommandOptions,
  io: CommandIo,
): Promise<number> {
  const settings = await commandSettings(io, opts.config, opts.settings);
  const words = commandWords(settings);
  const file = settings.dashboardUsersFile;
  if (file === undefined)
    throw new UserError(
      'dashboard-user.no-file',
      'order-importer dashboard-user writes into DASHBOARD_USERS_FILE: set it (in the environment or the config file) to the file the dashboard reads its users from.',
      { values: {} },
    );
  const user = [args].flat()[0] ?? '';
  if (!NAME.test(user))
    throw new UserError(
      'dashboard-user.bad-name',
      `user name ${user}: 1 to 100 characters, no ":".`,
      {
        values: { user },
      },
    );
  const given = opts.offices === undefined ? undefined : officesOf(opts.offices);
  const known = (await readUsersIfThere(file)).find((u) => u.user === user);
  const offices = given ?? known?.offices;
  if (offices === undefined)
    throw new UserError(
      'dashboard-user.no-offices',
      `user ${user} is new: say which offices they see with --offices (names of connections separated by commas, or "*" for all).`,
      { values: { user } },
    );
  const password = await readPassword(io, {
    prompt: words.t('cli.dashboard-user.password', { user }),
    again: words.t('cli.dashboard-user.again'),
  });
  checkPassword(password);
  const done = await putUser(file, { user, password: await hashPassword(password), offices });
  io.stdout.write(`${terminalText(writtenLine(words, { done, user, file, offices }))}\n`);
  return 0;
}

/** `gent, antwerpen` as its office names; `*` as every office. */
function officesOf(text: string): readonly string[] | '*' {
  if (text.trim() === '*') return '*';
  const offices = text.split(',').map((office) => office.trim());
  if (offices.some((office) => office === '' || office === '*' || office.length > 200))
    throw new UserError(
      'dashboard-user.bad-offices',
      `--offices ${text}: give office names (the connections’ names) separated by commas, or "*" for all.`,
      { values: { offices: text } },
    );
  return [...new Set(offices)];
}

function checkPassword(password: string | undefined): asserts password is string {
  if (password === undefined || password === '')
    throw new UserError('dashboard-user.no-password', 'no password was given on standard input.', {
      values: {},
    });
  if (Array.from(password).length < MIN_PASSWORD)
    throw new UserError(
      'dashboard-user.short-password',
      `the password is too short: at least ${MIN_PASSWORD} characters.`,
      { values: { min: MIN_PASSWORD } },
    );
}

function writtenLine(
  words: Words,
  said: {
    done: 'added' | 'replaced';
    user: string;
    file: string;
    offices: readonly string[] | '*';
  },
): string {
  return words.t('cli.dashboard-user.written', {
    done: said.done,
    user: said.user,
    file: said.file,
    all: said.offices === '*' ? 'yes' : 'no',
    offices: said.offices === '*' ? '' : words.list(said.offices),
  });
}
