/**
 * One inbox for several offices (`connections` in the config file): a sheet dropped under
 * `inbox/<its inbox>/` is taken by that connection's intake, and by no other. A sheet anywhere
 * else in the inbox belongs to no office: it is not guessed at, but left where it is and told,
 * so that the user moves it (with its documents) into the right subfolder.
 */
import { isAbsolute, relative } from 'node:path';

import { wordsFor } from '../language/words.js';
import { type Said, said, say } from '../sheets/said.js';
import { isSheetCandidate } from './files.js';
import type { Intake, IntakeResult } from './intake.js';

/** A connection's subfolder of the inbox and the intake of its sheets. */
export interface InboxRoute {
  /** Its name, as the user wrote it in the config file. */
  name: string;
  /** Absolute. */
  dir: string;
  intake: Intake;
}

/** What the watcher takes sheets with: each one by the intake of the folder it lies in. */
export class RoutedIntake {
  readonly #first: Intake;

  constructor(
    private readonly routes: readonly InboxRoute[],
    /** The watched inbox, for naming paths. */
    private readonly inboxDir: string,
  ) {
    const first = routes[0];
    if (first === undefined) throw new Error('RoutedIntake needs at least one route');
    this.#first = first.intake;
  }

  /** The route of a path in the inbox, or undefined when it lies in none. */
  routeOf(path: string): InboxRoute | undefined {
    return this.routes.find((route) => {
      const rel = relative(route.dir, path);
      return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    });
  }

  async take(path: string, signal?: AbortSignal, root?: string): Promise<IntakeResult> {
    const route = this.routeOf(path);
    if (route !== undefined) return route.intake.take(path, signal, root);
    if (!isSheetCandidate(path)) return { kind: 'skipped', why: 'not a sheet' };
    const why = this.#outsideText(path);
    // Told once per version of the file, however often rescans find it.
    return (await this.#first.refuse(path, why))
      ? { kind: 'refused', why: say(wordsFor('en'), why), said: why }
      : { kind: 'skipped', why: 'refused before' };
  }

  refuse(path: string, why: Said): Promise<boolean> {
    return (this.routeOf(path)?.intake ?? this.#first).refuse(path, why);
  }

  #outsideText(path: string): Said {
    const folders = this.routes
      .map((route) => `${relative(this.inboxDir, route.dir)}/ (${route.name})`)
      .join(', ');
    return said('sheets.notTaken.outside', { path: relative(this.inboxDir, path), folders });
  }
}
