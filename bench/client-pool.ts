/**
 * A peer of the importer made of the product's own API client (`ApiClient`, over one keep-alive
 * undici Agent): `width` rows in flight, each its create then its files, with no queue, no Redis
 * and no record between them. Beside the `fetch` peers (fetch-peers.ts) it shows what the client
 * itself costs or saves.
 */
import { basename } from 'node:path';

import { Agent } from 'undici';

import { ApiClient } from '../src/api/client.js';
import { loadCatalogue } from '../src/orders/catalogue.js';
import { openInside } from '../src/orders/open-attachment.js';
import type { OrderPayload } from '../src/orders/row.js';
import { defaultProductsFile } from '../src/package-root.js';
import { readSheet } from '../src/sheets/read-sheet.js';

export interface RowRequests {
  order: OrderPayload;
  /** Attachment paths, relative to the sheet's folder. */
  files: string[];
}

/**
 * The valid rows of a sheet as the requests each one makes: the importer's own payloads, built
 * before a peer's clock starts, so that every peer sends byte for byte what the importer sends.
 */
export async function rowRequests(path: string): Promise<RowRequests[]> {
  const catalogue = await loadCatalogue(defaultProductsFile());
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

/** Sends every row's requests through an ApiClient, `width` rows at a time; returns the ms taken. */
export async function clientPool(
  api: { url: string; token: string },
  rows: readonly RowRequests[],
  folder: string,
  width: number,
): Promise<number> {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: width * 2 });
  const client = new ApiClient({
    baseUrl: api.url,
    token: api.token,
    timeoutMs: 30_000,
    dispatcher,
  });
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < rows.length; i = next++) {
      const row = rows[i] as RowRequests;
      const created = await client.createOrder(row.order);
      for (const path of row.files) {
        await client.uploadFile(created.id, {
          name: basename(path),
          open: () => openInside(folder, path, {}),
        });
      }
    }
  };
  try {
    const started = performance.now();
    await Promise.all(Array.from({ length: width }, lane));
    return performance.now() - started;
  } finally {
    await dispatcher.close();
  }
}
