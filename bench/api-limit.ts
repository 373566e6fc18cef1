/**
 * The API-bound limit: what a pool of `width` requests in flight gets from the API when it does
 * nothing but send each row's requests (its create, then its files), with no queue, no Redis and
 * no record between them. The importer at the same width cannot do better.
 */
import { basename } from 'node:path';

import type { ApiClient } from '../src/api/client.js';
import type { Catalogue } from '../src/orders/catalogue.js';
import { openInside } from '../src/orders/open-attachment.js';
import type { OrderPayload } from '../src/orders/row.js';
import { readSheet } from '../src/sheets/read-sheet.js';

export interface RowRequests {
  order: OrderPayload;
  files: string[];
}

/** The valid rows of a sheet, as the requests each one makes. */
export async function rowRequests(path: string, catalogue: Catalogue): Promise<RowRequests[]> {
  const opened = await readSheet(path, { catalogue, maxAttachmentBytes: 20 * 1024 * 1024 });
  const rows: RowRequests[] = [];
  for await (const batch of opened.batches) {
    for (const result of batch) {
      if (result.ok)
        rows.push({ order: result.order, files: result.attachments.map((a) => a.path) });
    }
  }
  return rows;
}

/** Sends every row's requests, `width` rows at a time; returns the milliseconds it took. */
export async function sendAll(
  api: ApiClient,
  rows: readonly RowRequests[],
  folder: string,
  width: number,
): Promise<number> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < rows.length; i = next++) {
      const row = rows[i] as RowRequests;
      const created = await api.createOrder(row.order);
      for (const path of row.files) {
        await api.uploadFile(created.id, {
          name: basename(path),
          open: () => openInside(folder, path, {}),
        });
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: width }, lane));
  return performance.now() - started;
}
