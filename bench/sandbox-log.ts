/**
 * When the importer's requests reached the sandbox, from the sandbox's own request log
 * (`GET /__sandbox/requests`, sandbox/request-log.ts): the importer runs in a process the
 * benchmark does not look into, so its first create is timed where it lands. Both processes read
 * the same wall clock.
 */
export interface RequestTimes {
  /** ms from `since` until the first create arrived. */
  firstCreateMs: number;
  /** ms from `since` until the last API request arrived. */
  lastRequestMs: number;
  /** API requests (creates and uploads) that arrived since `since`. */
  requests: number;
}

interface LoggedRequest {
  at: number;
  method: string;
  path: string;
}

export async function requestTimes(
  api: { url: string; token: string },
  since: number,
): Promise<RequestTimes> {
  const response = await fetch(`${api.url}/__sandbox/requests`, {
    headers: { authorization: `Bearer ${api.token}`, accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`the sandbox's request log: ${response.status}`);
  const { data } = (await response.json()) as { data: LoggedRequest[] };
  const sent = data.filter((r) => r.at >= since && r.method === 'POST');
  const creates = sent.filter((r) => r.path.startsWith('/api/orders'));
  const first = creates[0]?.at ?? Number.NaN;
  const last = sent.at(-1)?.at ?? Number.NaN;
  return { firstCreateMs: first - since, lastRequestMs: last - since, requests: sent.length };
}
