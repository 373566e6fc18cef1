/**
 * The importer's peers as anyone would write them in an afternoon: Node's global `fetch`,
 * `FormData` and `Blob`, each row's create then its files, nothing kept anywhere (no queue, no
 * record of what was sent, no retry). One lane is the naive sequential loop; 32 lanes the pool the
 * importer's target is set against. They keep none of the importer's promises (a crash loses
 * track of every row in flight, a row sent twice makes two orders): they show what sending alone
 * costs on the same API.
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

import type { RowRequests } from './client-pool.js';

export interface PeerRun {
  /** Rows whose create and files all got their 201. */
  rows: number;
  ms: number;
}

interface Api {
  url: string;
  token: string;
}

/**
 * Sends rows in order, `width` at a time, until every row is sent or `budgetMs` has passed (a
 * sequential loop at 100 ms a request would take twenty minutes over 6,000 rows; its rate over
 * the first ones is the same).
 */
export async function fetchPeer(
  api: Api,
  rows: readonly RowRequests[],
  folder: string,
  width: number,
  budgetMs = Infinity,
): Promise<PeerRun> {
  const started = performance.now();
  const deadline = started + budgetMs;
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < rows.length && performance.now() < deadline) {
      const row = rows[next++] as RowRequests;
      const orderId = await createOrder(api, row);
      for (const path of row.files) await uploadFile(api, orderId, join(folder, path));
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return { rows: done, ms: performance.now() - started };
}

function headers(api: Api): Record<string, string> {
  return { authorization: `Bearer ${api.token}`, accept: 'application/json' };
}

async function createOrder(api: Api, row: RowRequests): Promise<number> {
  const response = await fetch(`${api.url}/api/orders/`, {
    method: 'POST',
    headers: { ...headers(api), 'content-type': 'application/json' },
    body: JSON.stringify(row.order),
  });
  const body = (await answer(response)) as { id: number };
  return body.id;
}

async function uploadFile(api: Api, orderId: number, path: string): Promise<void> {
  const form = new FormData();
  form.append('model_id', String(orderId));
  form.append('model_type', 'order');
  form.append('collection_name', 'clientFiles');
  form.append('files[]', new Blob([await readFile(path)]), basename(path));
  await answer(
    await fetch(`${api.url}/api/files/`, { method: 'POST', headers: headers(api), body: form }),
  );
}

/** The answer's JSON; anything but a 201 ends the run (a naive peer has no retry). */
async function answer(response: Response): Promise<unknown> {
  const text = await response.text();
  if (response.status !== 201) {
    throw new Error(`${response.url}: ${response.status} ${text.slice(0, 200)}`);
  }
  return JSON.parse(text) as unknown;
}
