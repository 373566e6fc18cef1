import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { SNIFF_BYTES } from './mime.js';

/** What was stored from one uploaded file. */
export interface BlobWrite {
  key: string;
  size: number;
  sha256: string;
  /** False when the file went over `maxBytes`: nothing of it is kept. */
  complete: boolean;
  /** Its first bytes, to tell its media type by. */
  head: Buffer;
}

/** Where the sandbox keeps uploaded file bytes: a folder, or memory for tests. */
export interface BlobStore {
  /**
   * Streams `source` in whole, even past `maxBytes`, because the rest of a multipart body can only
   * be read after it; a file over the limit is dropped, as PHP drops an over-sized upload.
   */
  write(source: Readable, maxBytes?: number, signal?: AbortSignal): Promise<BlobWrite>;
  read(key: string): Readable;
  remove(key: string): Promise<void>;
}

export async function openBlobStore(dir: string | undefined): Promise<BlobStore> {
  if (dir === undefined) return new MemoryBlobStore();
  await mkdir(dir, { recursive: true });
  return new FolderBlobStore(dir);
}

/** Counts and hashes what passes; past the limit it keeps reading but passes nothing on. */
class Meter extends Transform {
  size = 0;
  readonly hash = createHash('sha256');
  head = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {
    super();
  }

  get complete(): boolean {
    return this.size <= this.maxBytes;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    if (this.head.length < SNIFF_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, SNIFF_BYTES - this.head.length)]);
    }
    this.size += chunk.length;
    if (this.complete) {
      this.hash.update(chunk);
      this.push(chunk);
    }
    done();
  }
}

async function meteredWrite(
  source: Readable,
  sink: Writable,
  key: string,
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<BlobWrite> {
  const meter = new Meter(maxBytes);
  await pipeline(source, meter, sink, signal ? { signal } : {});
  return {
    key,
    size: meter.size,
    sha256: meter.hash.digest('hex'),
    complete: meter.complete,
    head: meter.head,
  };
}

class FolderBlobStore implements BlobStore {
  constructor(private readonly dir: string) {}

  async write(source: Readable, maxBytes = Infinity, signal?: AbortSignal): Promise<BlobWrite> {
    const key = randomUUID();
    const path = this.#path(key);
    try {
      const written = await meteredWrite(source, createWriteStream(path), key, maxBytes, signal);
      if (!written.complete) await this.remove(key);
      return written;
    } catch (error) {
      await this.remove(key);
      throw error;
    }
  }

  read(key: string): Readable {
    return createReadStream(this.#path(key));
  }

  async remove(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  #path(key: string): string {
    return join(this.dir, key);
  }
}

class MemoryBlobStore implements BlobStore {
  readonly #blobs = new Map<string, Buffer>();

  async write(source: Readable, maxBytes = Infinity, signal?: AbortSignal): Promise<BlobWrite> {
    const key = randomUUID();
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    });
    const written = await meteredWrite(source, sink, key, maxBytes, signal);
    if (written.complete) this.#blobs.set(key, Buffer.concat(chunks));
    return written;
  }

  read(key: string): Readable {
    const blob = this.#blobs.get(key);
    if (!blob) throw new Error(`blob ${key} is missing`);
    return Readable.from([blob]);
  }

  remove(key: string): Promise<void> {
    this.#blobs.delete(key);
    return Promise.resolve();
  }
}
