/**
 * A password a person types: on a terminal asked twice without echo, and both must be the same;
 * from a pipe (a script, a test) its first line, read once.
 */
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';

import { UserError } from '../errors.js';
import type { CommandIo } from './io.js';

/** More than any password: what a pipe gives beyond it is not read. */
const MAX_PIPED = 64 * 1024;

export async function readPassword(
  io: Pick<CommandIo, 'stdin' | 'stderr'>,
  said: { prompt: string; again: string },
): Promise<string | undefined> {
  const { stdin } = io;
  if (stdin === undefined) return undefined;
  if (stdin.isTTY !== true) return firstLine(stdin);
  const first = await askHidden(stdin, io.stderr, said.prompt);
  const second = await askHidden(stdin, io.stderr, said.again);
  if (first !== second)
    throw new UserError(
      'dashboard-user.mismatch',
      'the two passwords are not the same: nothing was written.',
      { values: {} },
    );
  return first;
}

/** The first line of what is piped in, without its line end. */
async function firstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.includes('\n') || text.length > MAX_PIPED) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/**
 * One answer typed on the terminal, not shown: readline echoes what is typed to its output,
 * which here writes nothing; the prompt and the line end are written to stderr around it.
 */
async function askHidden(
  stdin: NodeJS.ReadableStream,
  stderr: NodeJS.WritableStream,
  prompt: string,
): Promise<string> {
  const silent = new Writable({
    write: (_chunk, _encoding, done) => {
      done();
    },
  });
  const reading = createInterface({ input: stdin, output: silent, terminal: true });
  stderr.write(`${prompt} `);
  try {
    return await reading.question('');
  } finally {
    reading.close();
    stderr.write('\n');
  }
}
