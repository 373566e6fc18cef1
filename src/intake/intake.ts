/**
 * **intake** → sheet → rows → report: one process's intake of the sheets dropped in the inbox
 * (or found by a schedule). Its parts: take.ts (a sheet into `work/<sheetId>/`, submitted),
 * sheet-pass.ts (the one read of it, in the inbox), siblings.ts (the attachments it carries
 * along), journal.ts (how far each intake got),
 * recover.ts (finishing what a crash interrupted), refuse.ts (links, told, never followed),
 * failed.ts (an unreadable sheet to `failed/`), held-off.ts (none while Redis has forgotten). Nothing is ever deleted.
 */
import {
  type IntakeOptions,
  type IntakeResult,
  type IntakeState,
  intakeState,
  type Recovery,
} from './intake-state.js';
import { heldOff } from './held-off.js';
import { recoverIntakes } from './recover.js';
import { tellNotTaken } from './refuse.js';
import type { Said } from '../sheets/said.js';
import { takeSheet } from './take.js';

export type { IntakeOptions, IntakeResult, Recovery } from './intake-state.js';
export { refusalText } from './refuse.js';

/** The intake with what this process remembers between sheets (see intake-state.ts). */
export class Intake {
  readonly #state: IntakeState;

  constructor(options: IntakeOptions) {
    this.#state = intakeState(options);
  }

  /** See take.ts, `takeSheet`; none while Redis has forgotten (held-off.ts). */
  async take(path: string, signal?: AbortSignal, root?: string): Promise<IntakeResult> {
    if (await heldOff(this.#state)) return { kind: 'skipped', why: 'held off: Redis forgot' };
    return takeSheet(this.#state, path, signal, root);
  }

  /** See refuse.ts, `tellNotTaken`. */
  refuse(path: string, why: Said): Promise<boolean> {
    return tellNotTaken(this.#state, path, why);
  }

  /** See recover.ts, `recoverIntakes`. */
  recover(options: { minAgeMs?: number } = {}): Promise<Recovery> {
    return recoverIntakes(this.#state, options);
  }
}
