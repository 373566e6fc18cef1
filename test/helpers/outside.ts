/**
 * Files outside a sheet's folder, with content known to the test, and the means to tell whether
 * any of their bytes turned up where they must not: an upload, a report, a bundle, an archive.
 */
import { createHash, randomUUID } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { ApiClient } from './api.js';
import { put, tempDir } from './files.js';

export interface Outside {
  /** A folder no sheet's folder contains. */
  dir: string;
  /** Text found in every outside file and nowhere else. */
  marker: string;
  /** `dir/secret.pdf` */
  file: string;
  /** `dir/folder/`, holding `inner.pdf` */
  folder: string;
  /** `dir/secret.csv`: looks like /etc/passwd, its first line holding the marker */
  sheet: string;
  /** sha256 of each outside file's bytes */
  sha256s: Set<string>;
}

export async function outsideFiles(): Promise<Outside> {
  const dir = await tempDir('outside-');
  const marker = `OUTSIDE-${randomUUID()}`;
  const contents = new Map([
    ['secret.pdf', `%PDF ${marker} secret`],
    ['folder/inner.pdf', `%PDF ${marker} inner`],
    ['secret.csv', `${marker}:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/:/bin/false\n`],
    ['other.txt', `${marker} other`],
  ]);
  for (const [name, content] of contents) await put(dir, name, content);
  return {
    dir,
    marker,
    file: join(dir, 'secret.pdf'),
    folder: join(dir, 'folder'),
    sheet: join(dir, 'secret.csv'),
    sha256s: new Set(
      [...contents.values()].map((c) => createHash('sha256').update(c).digest('hex')),
    ),
  };
}

/** What a folder holds that it must not: files with the marker, and links (never followed). */
export async function leaksIn(
  dir: string,
  marker: string,
): Promise<{ files: string[]; links: string[] }> {
  const found = { files: [] as string[], links: [] as string[] };
  const walk = async (folder: string) => {
    for (const name of await readdir(folder)) {
      const path = join(folder, name);
      const stats = await lstat(path);
      if (stats.isSymbolicLink()) found.links.push(path);
      else if (stats.isDirectory()) await walk(path);
      else if ((await readFile(path)).includes(marker)) found.files.push(path);
    }
  };
  await walk(dir);
  return found;
}

/** The uploaded files (in the sandbox) whose bytes are an outside file's. */
export async function uploadedLeaks(api: ApiClient, outside: Outside): Promise<string[]> {
  const orders = await api.listOrders();
  return orders
    .flatMap((o) => o.files)
    .filter((f) => outside.sha256s.has(f.sha256))
    .map((f) => f.file_name);
}
