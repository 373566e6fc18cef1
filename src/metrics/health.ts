/**
 * What `/healthz` and `/readyz` answer, wherever they are served (the dashboard, METRICS_PORT):
 * 200 with `status: "ok"` / `"ready"`, or 503 with the reasons in plain words.
 */

/** `/healthz`: can this process do its work? (Liveness: a supervisor restarts it when not.) */
export interface Health {
  status: 'ok' | 'unavailable';
  /** Why not, one sentence each; empty when it can. */
  reasons: string[];
  /** Redis answers. */
  redis: boolean;
  /** The API answers and takes the token; null when this process cannot see it. */
  api: boolean | null;
}

/** `/readyz`: may work be sent its way? Not while starting, stopping, or without Redis. */
export interface Readiness {
  status: 'ready' | 'starting' | 'stopping' | 'unavailable';
  reasons: string[];
}

/** What a health check found; without reasons, they are said from the two answers. */
export type HealthFound = Pick<Health, 'redis' | 'api'> & { reasons?: string[] };

/** A health from what was found: unavailable as soon as there is a reason. */
export function healthOf(found: HealthFound): Health {
  const reasons = found.reasons ?? [
    ...(found.redis ? [] : ['Redis does not answer']),
    ...(found.api === false ? ['the API does not answer or refuses the token'] : []),
  ];
  return {
    status: reasons.length === 0 ? 'ok' : 'unavailable',
    reasons,
    redis: found.redis,
    api: found.api,
  };
}

/** The HTTP status of a health or a readiness. */
export function httpStatus(answer: Health | Readiness): 200 | 503 {
  return answer.status === 'ok' || answer.status === 'ready' ? 200 : 503;
}

/** What serves /healthz and /readyz asks for them. */
export interface HealthSources {
  health(): Promise<Health>;
  readiness(): Promise<Readiness>;
}

/** What serves /metrics asks for it (the process's Metrics). */
export interface MetricsSource {
  text(): Promise<string>;
  readonly contentType: string;
}
