import type { FastifyInstance } from 'fastify';

import { UNSUPPORTED_BODY } from './routes/context.js';

/**
 * JSON bodies are decoded as Laravel does: a body that is not a JSON object reads as no input at
 * all (and so fails validation), never as a 400. Any other media type is left for the route to
 * refuse with a 415.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  for (const type of ['application/json', /^application\/[\w.+-]+\+json/]) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
      done(null, decodeJsonObject(body.toString()));
    });
  }
  app.addContentTypeParser('*', (_request, _payload, done) => {
    done(null, UNSUPPORTED_BODY);
  });
}

function decodeJsonObject(text: string): Record<string, unknown> {
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // Laravel's json() bag of an undecodable body is simply empty.
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
