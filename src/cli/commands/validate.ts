import { resolve } from 'node:path';

import { wordsFor } from '../../language/words.js';
import { loadCatalogue } from '../../orders/catalogue.js';
import type { SettingFlags } from '../../settings/load.js';
import { chosenConnection } from '../../app/chosen-connection.js';
import type { CommandIo } from '../io.js';
import { paint } from '../paint.js';
import { commandSettings, mappingOfSheet, mappingSources, shortPath } from '../setup.js';
import { terminalText } from '../terminal-text.js';
import { StatusLine } from './status-line.js';
import { type SheetCheck, validateSheet, type ValidateSummary } from './validate-sheet.js';

export type { ValidateSummary } from './validate-sheet.js';

export interface ValidateCommandOptions {
  config?: string;
  settings?: SettingFlags;
  mapping?: string;
  /** Whose mapping to read with: one of the config file's connections. */
  connection?: string;
  json?: boolean;
}

/** Dry run: parse, map, validate and check attachments, without any API call. */
export async function validateCommand(
  sheets: readonly string[],
  opts: ValidateCommandOptions,
  io: CommandIo,
): Promise<number> {
  const settings = await commandSettings(io, opts.config, opts.settings);
  const catalogue = await loadCatalogue(settings.productsFile);
  // A connection's mapping is what its sheets are imported with: validated with it too. With
  // --mapping, or when no connection has a mapping, none is needed (one named is still checked).
  const needed =
    opts.mapping === undefined && settings.connections.some((c) => c.mapping !== undefined);
  const configured =
    needed || opts.connection !== undefined
      ? chosenConnection(settings, opts.connection)
      : undefined;
  const mappings = await mappingSources(opts.mapping, settings, io.cwd, configured?.mapping);
  const status = new StatusLine(io.stderr);
  const stream = opts.json ? io.stderr : io.stdout;
  let full = false;
  const check: SheetCheck = {
    reading: {
      catalogue,
      // A row's problems are told in the command's language, as its own lines are.
      words: wordsFor(settings.language),
      maxAttachmentBytes: Math.floor(settings.maxAttachmentMb * 1024 * 1024),
    },
    mappingOf: (path) => mappingOfSheet(mappings, path),
    write: (text: string) => {
      status.clear();
      full = !stream.write(text) || full;
    },
    written: async () => {
      if (full) await roomIn(stream);
      full = false;
    },
    status: (text) => {
      status.update(text);
    },
    paint: paint(stream, io.env),
    words: wordsFor(settings.language),
  };
  const summaries: ValidateSummary[] = [];
  let missing = false;
  for (const sheet of sheets) {
    const path = resolve(io.cwd, sheet);
    const checked = await validateSheet(path, terminalText(shortPath(path, io.cwd)), check);
    summaries.push(checked.summary);
    missing ||= checked.missing;
  }
  if (opts.json) io.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
  if (missing) return 1;
  return summaries.some((s) => s.invalid > 0 || s.error !== null) ? 2 : 0;
}

/**
 * Resolves once `stream` takes writes again, or is closed (nothing is waited for then: what is
 * written after is dropped, as before); rejects with the stream's error.
 */
function roomIn(stream: NodeJS.WritableStream): Promise<void> {
  if ((stream as { destroyed?: boolean }).destroyed === true) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stop = () => {
      stream.off('drain', room);
      stream.off('close', room);
      stream.off('error', failed);
    };
    const room = () => {
      stop();
      resolve();
    };
    const failed = (error: Error) => {
      stop();
      reject(error);
    };
    stream.on('drain', room).on('close', room).on('error', failed);
  });
}
