/**
 * Who is looking at the dashboard (docs/design.md "The dashboard's users"): the offices a request's
 * user may see. Every page, link, zip, search and feed asks `viewerOf(request)` before it shows a
 * sheet, by the sheet's office (its connection's name). Until the users file is read, every
 * request sees every office, as the one DASHBOARD_USER does.
 */
import type { FastifyRequest } from 'fastify';

export interface Viewer {
  /** Every office: a `*` user, the one DASHBOARD_USER, or no login at all. */
  readonly all: boolean;
  /** Whether this viewer may see what belongs to an office, by its connection's name. */
  sees(office: string | undefined): boolean;
}

/** The viewer of a dashboard without a users file. */
export const SEES_ALL: Viewer = { all: true, sees: () => true };

/** The viewer a request was let in as (the guard decides it); everyone until it does. */
export function viewerOf(request: FastifyRequest): Viewer {
  return (request as FastifyRequest & { viewer?: Viewer }).viewer ?? SEES_ALL;
}
