/**
 * Who is looking at the dashboard (docs/design.md "The dashboard's users"): the offices a request's
 * user may see. Every page, link, zip, search and feed asks `viewerOf(request)` before it shows a
 * sheet, by the sheet's office (its connection's name). The guard (guard.ts) sets it on every
 * request it lets in; a request no guard saw sees every office, as the one DASHBOARD_USER does.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard as the request comes in; null before it is. */
    viewer: Viewer | null;
  }
}

export interface Viewer {
  /** Every office: a `*` user, the one DASHBOARD_USER, or no login at all. */
  readonly all: boolean;
  /** Whether this viewer may see what belongs to an office, by its connection's name. */
  sees(office: string | undefined): boolean;
}

/** The viewer of a dashboard without a users file, and of a `*` user. */
export const SEES_ALL: Viewer = { all: true, sees: () => true };

/** The viewer of a path open without a login (/healthz, a calendar feed): no office. */
export const SEES_NONE: Viewer = { all: false, sees: () => false };

/**
 * The viewer of a user of these offices. A sheet with no office (no connection name) is seen
 * only by those who see all.
 */
export function viewerOfOffices(offices: readonly string[] | '*'): Viewer {
  if (offices === '*') return SEES_ALL;
  const seen = new Set(offices);
  return { all: false, sees: (office) => office !== undefined && seen.has(office) };
}

/** Makes room for the viewer on every request (Fastify's decorator: the same shape for all). */
export function decorateViewer(app: FastifyInstance): void {
  app.decorateRequest('viewer', null);
}

/** The viewer a request was let in as (the guard decides it); everyone until it does. */
export function viewerOf(request: FastifyRequest): Viewer {
  return request.viewer ?? SEES_ALL;
}
