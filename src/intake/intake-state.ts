/**
 * What the intake is given (its options) and what one process of it remembers between sheets:
 * every function of the intake takes this first.
 */
import type { Said } from '../sheets/said.js';
import type { Logger } from 'pino';

import type { Context } from '../context.js';
import type { MappingSources } from '../orders/mapping-files.js';

export interface IntakeOptions {
  /** Sheets taken are queued for this context's connection. */
  ctx: Context;
  workDir: string;
  failedDir: string;
  /** How long a sheet (and each attachment) must stay unchanged before it is taken. */
  stableMs: number;
  logger: Logger;
  /**
   * The mapping files a sheet may use besides a `mapping.json` beside it (sheet-mapping.ts):
   * `--mapping`, the config file's, and the connection's — the one place a connection's own
   * mapping plugs in (`mappings.connection`). None by default.
   */
  mappings?: MappingSources;
  now?: () => number;
}

/** The options, and what this process is doing now and has told already. */
export interface IntakeState extends Required<IntakeOptions> {
  /** Sheets being taken now: watch events repeat. */
  inFlight: Set<string>;
  /** Work folders this process is finishing now: a recovery pass leaves them be. */
  finishing: Set<string>;
  /** Per source folder, the intake now moving files out of it (see take.ts, `inTurn`). */
  folderTurns: Map<string, Promise<unknown>>;
  /** What each sibling sheet names, by its path and version (see siblings.ts). */
  siblingFiles: Map<string, { version: string; files: readonly string[] }>;
  /** What was told of a path not taken, by path, so that a rescan does not tell it again. */
  told: Map<string, string>;
  /** Whether the intake said it holds off (Redis forgot: see take.ts), so that it says it once. */
  heldOff: boolean;
}

export type IntakeResult =
  /** `from`: the folders it moved files out of, which may now be empty. */
  | { kind: 'queued'; sheetId: string; resumed: boolean; from: string[] }
  | { kind: 'unreadable'; folder: string; from: string[] }
  /** A link (the sheet, or a folder on its way from the inbox): left where it is, and said why. */
  | { kind: 'refused'; why: string; said: Said }
  /** Not a sheet, gone, or taken by another watcher first. */
  | { kind: 'skipped'; why: string };

/** What a recovery pass found in `work/`. */
export interface Recovery {
  /** The sheets of intakes a crash interrupted, now queued. */
  finished: string[];
  /** Work folders queued once but unknown to Redis now: nothing will happen to them by itself. */
  stranded: string[];
}

export function intakeState(options: IntakeOptions): IntakeState {
  return {
    ...options,
    mappings: options.mappings ?? {},
    now: options.now ?? Date.now,
    inFlight: new Set(),
    finishing: new Set(),
    folderTurns: new Map(),
    siblingFiles: new Map(),
    told: new Map(),
    heldOff: false,
  };
}
