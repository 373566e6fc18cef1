/**
 * The sandbox's routes as Laravel's router sees them, to answer an unknown path with a 404 and a
 * known path with the wrong method with a 405 and its Allow header, in Laravel's words.
 */
const ROUTES: ReadonlyArray<{ pattern: RegExp; methods: readonly string[] }> = [
  { pattern: /^\/api\/orders$/, methods: ['POST'] },
  { pattern: /^\/api\/orders\/[^/]+$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/api\/files$/, methods: ['POST'] },
  { pattern: /^\/api\/files\/[^/]+$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/__sandbox\/orders$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/__sandbox\/orders\/[^/]+$/, methods: ['DELETE'] },
  { pattern: /^\/__sandbox\/orders\/[^/]+\/planning$/, methods: ['POST'] },
  { pattern: /^\/__sandbox\/products$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/__sandbox\/requests$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/__sandbox\/clock$/, methods: ['GET', 'HEAD', 'POST'] },
];

/** Laravel's Router::$verbs, the order in which a 405 lists the supported methods. */
const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods the path supports other than `method`; empty when the path is unknown. */
export function otherMethods(urlPath: string, method: string): string[] {
  const path = `/${urlPath.replace(/^\/+|\/+$/g, '')}`;
  const route = ROUTES.find((r) => r.pattern.test(path));
  if (!route) return [];
  return VERBS.filter((verb) => verb !== method && route.methods.includes(verb));
}
