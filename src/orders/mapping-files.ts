/**
 * Where a sheet's mapping comes from (docs/design.md §2 "Mapping"), first found wins:
 * `--mapping FILE`; a `mapping.json` beside the sheet (a dropped folder carries its own); the
 * connection's `mapping`; `mapping` in the config file. `resolveMapping` is the one place that
 * order is kept; `import`, `validate` and the hot folder all ask it.
 */
import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';

import iconv from 'iconv-lite';

import { type Mapping, type MappingKind, parseMappingFile } from './mapping.js';
import { AttachmentRefused, openInside } from './open-attachment.js';
import { MAX_NESTING, nestsDeeperThan } from './json-depth.js';
import { jsonMistake } from './json-mistake.js';
import { isKnown, UserError } from '../errors.js';

/** The name a mapping beside a sheet has (case ignored): never itself a sheet. */
export const MAPPING_FILE = 'mapping.json';

/**
 * A mapping is a few hundred bytes; a bigger file than this is no mapping. Kept small because
 * every sheet carries a copy of its mapping in its record, which each look at the imports reads.
 */
export const MAX_MAPPING_BYTES = 64 * 1024;

/** The mapping files a sheet may use besides its own folder's, each an absolute path. */
export interface MappingSources {
  /** `--mapping FILE` (import, validate, watch). */
  flag?: string;
  /** The `mapping` of the connection the sheet is for (`connections` in the config file). */
  connection?: string;
  /** `mapping` in the config file. */
  config?: string;
}

/** Whether a file is a mapping beside its sheets (`mapping.json`, case ignored), not a sheet. */
export function isMappingFile(path: string): boolean {
  return basename(path).toLowerCase() === MAPPING_FILE;
}

/**
 * The mapping of a sheet in `folder` (undefined: none anywhere). A file that cannot be used is a
 * 'mapping.invalid' naming it: it is never skipped for the next source, which would map the sheet
 * otherwise than its user meant.
 */
export async function resolveMapping(
  sources: MappingSources,
  folder: string | undefined,
): Promise<Mapping | undefined> {
  if (sources.flag !== undefined) return loadMappingFile(sources.flag, 'flag');
  const beside = folder === undefined ? undefined : await mappingBeside(folder);
  if (beside !== undefined) return beside;
  if (sources.connection !== undefined) return loadMappingFile(sources.connection, 'connection');
  if (sources.config !== undefined) return loadMappingFile(sources.config, 'config');
  return undefined;
}

/** Checks the mapping files every sheet may use, so that a mistake in one stops a command at start. */
export async function checkMappingSources(sources: MappingSources): Promise<void> {
  if (sources.flag !== undefined) await loadMappingFile(sources.flag, 'flag');
  if (sources.connection !== undefined) await loadMappingFile(sources.connection, 'connection');
  if (sources.config !== undefined) await loadMappingFile(sources.config, 'config');
}

/** A file the user named (flag, connection, config): read as they gave it, links and all. */
export async function loadMappingFile(file: string, kind: MappingKind): Promise<Mapping> {
  let bytes: Buffer;
  try {
    // Non-blocking: a FIFO given by mistake is refused as no file rather than waited on.
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stats = await handle.stat();
      if (!stats.isFile())
        throw new UserError('mapping.invalid', `Mapping ${file} is not a file.`, {
          variant: 'not-file',
          values: { file },
        });
      if (stats.size > MAX_MAPPING_BYTES) throw tooBig(file);
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (isKnown(error, 'mapping.invalid')) throw error;
    const reason = (error as Error).message;
    throw new UserError('mapping.invalid', `Mapping ${file} cannot be read: ${reason}`, {
      cause: error,
      variant: 'unreadable',
      values: { file, reason },
    });
  }
  return parseMappingBytes(bytes, { kind, file });
}

/**
 * The `mapping.json` in a sheet's folder, or undefined when there is none. It is opened as an
 * attachment is, never through a link: the inbox is anyone's to drop things in.
 */
export async function mappingBeside(folder: string): Promise<Mapping | undefined> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter(isMappingFile);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UserError(
      'mapping.invalid',
      `${folder} cannot be looked into for a ${MAPPING_FILE}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const [name, other] = names;
  if (name === undefined) return undefined;
  const file = join(folder, name);
  if (other !== undefined) {
    throw new UserError(
      'mapping.invalid',
      `Mapping ${file}: the folder has ${names.map((n) => `"${n}"`).join(' and ')}; keep one of them.`,
    );
  }
  let bytes: Buffer;
  try {
    const opened = await openInside(folder, name, { maxBytes: MAX_MAPPING_BYTES });
    try {
      bytes = await opened.bytes();
    } finally {
      await opened.close();
    }
  } catch (error) {
    throw besideUnread(file, error);
  }
  return parseMappingBytes(bytes, { kind: 'beside', file });
}

function besideUnread(file: string, error: unknown): UserError {
  if (!(error instanceof AttachmentRefused)) {
    const reason = (error as Error).message;
    return new UserError('mapping.invalid', `Mapping ${file} cannot be read: ${reason}`, {
      cause: error,
      variant: 'unreadable',
      values: { file, reason },
    });
  }
  if (error.kind === 'too-large') return tooBig(file);
  const why =
    error.kind === 'link'
      ? 'it is a symbolic link, and a mapping beside a sheet is never read through one: put the file itself there'
      : error.kind === 'hard-link'
        ? 'it is a hard link, whose other name may be outside the folder: copy the file there instead of linking it'
        : 'it is not a regular file';
  const variant =
    error.kind === 'link' ? 'link' : error.kind === 'hard-link' ? 'hard-link' : 'not-regular';
  return new UserError('mapping.invalid', `Mapping ${file} cannot be read: ${why}.`, {
    cause: error,
    variant,
    values: { file },
  });
}

function tooBig(file: string): UserError {
  return new UserError(
    'mapping.invalid',
    `Mapping ${file} is over ${MAX_MAPPING_BYTES / 1024} KB, which no mapping needs: is it the right file?`,
    { variant: 'too-big', values: { file, kb: MAX_MAPPING_BYTES / 1024 } },
  );
}

/**
 * A mapping file's bytes: UTF-8 (a byte-order mark allowed, as Notepad writes one), else
 * Windows-1252 (Notepad's "ANSI" on Belgian and French Windows), then JSON.
 */
export function parseMappingBytes(
  bytes: Buffer,
  source: { kind: MappingKind; file: string },
): Mapping {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    text = iconv.decode(bytes, 'win1252');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const mistake = jsonMistake(text, error);
    throw new UserError(
      'mapping.invalid',
      `Mapping ${source.file} is not valid JSON: ${mistake}. A mapping looks like { "columns": { "Straat": "address1" } }.`,
      { cause: error, variant: 'json', values: { file: source.file, mistake } },
    );
  }
  // Before anything recursive reads it (zod, the messages quoting its values).
  if (typeof json === 'object' && json !== null && nestsDeeperThan(json, MAX_NESTING)) {
    throw new UserError(
      'mapping.invalid',
      `Mapping ${source.file} nests objects or lists more than ${MAX_NESTING} levels deep; a mapping needs three at most, like { "columns": { "Straat": "address1" } }: is it the right file?`,
      { variant: 'nesting', values: { file: source.file, levels: MAX_NESTING } },
    );
  }
  return parseMappingFile(json, source);
}
