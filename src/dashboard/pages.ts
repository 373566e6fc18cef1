/** How every page of the dashboard is sent: whole, uncached, under a policy allowing no inline code. */
import type { FastifyReply } from 'fastify';

import { fillFrame, type PageAssets } from './assets.js';

/**
 * The pages' only sources are the dashboard itself, and they run no inline script or style: a
 * text that slipped past escaping still could not run. Forms (the search) go to the dashboard only.
 */
export const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** A page of frame.html: its title and main part, both HTML already escaped. */
export interface FramedPage {
  title: string;
  main: string;
}

export function sendHtml(reply: FastifyReply, code: number, html: string): FastifyReply {
  return reply
    .code(code)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', PAGE_POLICY)
    .header('cache-control', 'no-store')
    .send(html);
}

export function sendFramed(
  reply: FastifyReply,
  assets: PageAssets,
  code: number,
  page: FramedPage,
): FastifyReply {
  return sendHtml(reply, code, fillFrame(assets.frame, page.title, page.main));
}
