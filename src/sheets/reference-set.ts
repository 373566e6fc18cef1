/**
 * The references a sheet has used so far, and the row that used each first: how a second use is
 * refused. A sheet of a million rows holds a million of them, so they are kept as bytes in typed
 * arrays (outside the JavaScript heap, which the garbage collector then does not size itself
 * after) rather than as a million strings in a Map: about 4 bytes per reference plus its own
 * bytes, and 16 to 32 bytes of table, where a Map took about 100 and made the heap grow by twice
 * that. The bytes fill chunks of 4 MiB, never copied once full, so growing costs no second copy.
 *
 * Exact, not probabilistic: a false "duplicate" would drop a real order. Each reference's bytes
 * are kept, so two references are the same only when their bytes are equal; the hash only
 * chooses where to look, and a hash shared by two different references costs one more comparison,
 * never a wrong answer. The bytes are each UTF-16 code unit in UTF-8's shapes (a lone surrogate,
 * possible in JSON, written as itself rather than replaced as TextEncoder would), so that
 * different strings never have the same bytes.
 *
 * A slot holds an entry's position and its hash: a lookup reads an entry's bytes only when the
 * hashes are equal, and the table doubles without reading any (the entries lie all over memory:
 * reading one is a cache miss, which cost most of the time of a lookup). An entry, where its
 * slot points: the length of the reference's bytes, the bytes, and its first row (the length and
 * the row as base-128 varints).
 */

/** A 32-bit hash of `bytes[0, length)`; only its spread matters, not its strength. */
export type HashBytes = (bytes: Uint8Array, length: number) => number;

const CHUNK_BITS = 22;
const CHUNK = 1 << CHUNK_BITS;
/** Positions are 32-bit: chunk index × CHUNK + offset. */
const MAX_CHUNKS = 2 ** (32 - CHUNK_BITS);
/** No entry starts there: the last byte of the last chunk cannot hold one (2 bytes at least). */
const NO_ENTRY = 0xffff_ffff;
/** Entries per slot at most before the table of slots doubles: short probes. */
const MAX_LOAD = 0.5;
const FIRST_SLOTS = 1 << 10;

export class ReferenceSet {
  /** The entries, one after another; only the last chunk has room left (or grows, while small). */
  #chunks: Uint8Array[] = [new Uint8Array(1 << 12)];
  /** Bytes used in the last chunk. */
  #used = 0;
  #count = 0;
  /**
   * Open addressing with linear probing, two numbers a slot: an entry's position (or NO_ENTRY)
   * and its hash.
   */
  #slots = emptySlots(FIRST_SLOTS);
  #slotCount = FIRST_SLOTS;
  /** The reference being looked up, as bytes. */
  #scratch = new Uint8Array(256);
  readonly #hash: HashBytes;

  /** `hash`: for tests that force collisions; a seeded FNV-1a by default. */
  constructor(hash: HashBytes = seededFnv1a((Math.random() * 0x1_0000_0000) >>> 0)) {
    this.#hash = hash;
  }

  /** How many distinct references were seen. */
  get size(): number {
    return this.#count;
  }

  /** The row that used `reference` before; undefined, and `row` kept as its first, when none did. */
  earlierRow(reference: string, row: number): number | undefined {
    const length = this.#encode(reference);
    const hash = this.#hash(this.#scratch, length) >>> 0;
    const slots = this.#slots;
    const mask = this.#slotCount - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const position = slots[2 * slot] ?? NO_ENTRY;
      if (position === NO_ENTRY) {
        slots[2 * slot] = this.#add(length, row);
        slots[2 * slot + 1] = hash;
        if (++this.#count > this.#slotCount * MAX_LOAD) this.#doubleSlots();
        return undefined;
      }
      if (slots[2 * slot + 1] !== hash) continue;
      const first = this.#rowIfSame(position, length);
      if (first !== undefined) return first;
    }
  }

  /** Writes `text` into the scratch bytes; returns how many. */
  #encode(text: string): number {
    if (this.#scratch.length < text.length * 3) this.#scratch = new Uint8Array(text.length * 3);
    const out = this.#scratch;
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) out[n++] = unit;
      else if (unit < 0x800) {
        out[n++] = 0xc0 | (unit >> 6);
        out[n++] = 0x80 | (unit & 0x3f);
      } else {
        out[n++] = 0xe0 | (unit >> 12);
        out[n++] = 0x80 | ((unit >> 6) & 0x3f);
        out[n++] = 0x80 | (unit & 0x3f);
      }
    }
    return n;
  }

  /** The entry's first row when it holds the scratch bytes. */
  #rowIfSame(position: number, length: number): number | undefined {
    const chunk = this.#chunks[position >>> CHUNK_BITS] ?? new Uint8Array();
    let at = position & (CHUNK - 1);
    const stored = readVarint(chunk, at);
    if (stored.value !== length) return undefined;
    at = stored.next;
    const scratch = this.#scratch;
    for (let i = 0; i < length; i++) if (chunk[at + i] !== scratch[i]) return undefined;
    return readVarint(chunk, at + length).value;
  }

  /** Appends an entry for the scratch bytes; returns its position. */
  #add(length: number, row: number): number {
    const size = varintSize(length) + length + varintSize(row);
    const chunk = this.#room(size);
    const position = (this.#chunks.length - 1) * CHUNK + this.#used;
    const at = writeVarint(chunk, this.#used, length);
    // Copied byte by byte: a reference is short, and a subarray per row costs more than its bytes.
    const scratch = this.#scratch;
    for (let i = 0; i < length; i++) chunk[at + i] = scratch[i] as number;
    this.#used = writeVarint(chunk, at + length, row);
    return position;
  }

  /** The last chunk, with `size` bytes free after `#used`: grown while small, else a new one. */
  #room(size: number): Uint8Array {
    let chunk = this.#chunks.at(-1) ?? new Uint8Array();
    if (this.#used + size <= chunk.length) return chunk;
    if (this.#used + size <= CHUNK) {
      // A small sheet keeps a small chunk: it doubles (a copy of at most 2 MiB) up to CHUNK.
      let length = chunk.length * 2;
      while (length < this.#used + size) length *= 2;
      const grown = new Uint8Array(Math.min(length, CHUNK));
      grown.set(chunk.subarray(0, this.#used));
      this.#chunks[this.#chunks.length - 1] = grown;
      return grown;
    }
    if (this.#chunks.length === MAX_CHUNKS) {
      throw new RangeError('more than 4 GB of references in one sheet: too many to check.');
    }
    // A reference longer than a chunk gets one of its own, at offset 0, the next one another.
    chunk = new Uint8Array(Math.max(CHUNK, size));
    this.#chunks.push(chunk);
    this.#used = 0;
    return chunk;
  }

  #doubleSlots(): void {
    const old = this.#slots;
    const count = this.#slotCount * 2;
    const slots = emptySlots(count);
    const mask = count - 1;
    for (let i = 0; i < old.length; i += 2) {
      const position = old[i] ?? NO_ENTRY;
      if (position === NO_ENTRY) continue;
      const hash = old[i + 1] ?? 0;
      let slot = hash & mask;
      while (slots[2 * slot] !== NO_ENTRY) slot = (slot + 1) & mask;
      slots[2 * slot] = position;
      slots[2 * slot + 1] = hash;
    }
    this.#slots = slots;
    this.#slotCount = count;
  }
}

function emptySlots(count: number): Uint32Array {
  const slots = new Uint32Array(2 * count);
  for (let i = 0; i < slots.length; i += 2) slots[i] = NO_ENTRY;
  return slots;
}

/** Base-128, low bits first; written by division so that rows past 2^32 stay whole. */
function writeVarint(chunk: Uint8Array, at: number, value: number): number {
  let rest = value;
  while (rest >= 0x80) {
    chunk[at++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  chunk[at++] = rest;
  return at;
}

function readVarint(chunk: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  let next = at;
  for (;;) {
    const byte = chunk[next++] ?? 0;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next };
    scale *= 0x80;
  }
}

function varintSize(value: number): number {
  let size = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) size += 1;
  return size;
}

/**
 * FNV-1a over the bytes, from a per-set random seed so that references that happen to share
 * slots in one run do not in the next, then mixed (MurmurHash3's finaliser) so that the low bits,
 * which pick the slot, depend on every byte.
 */
export function seededFnv1a(seed: number): HashBytes {
  const basis = (0x811c9dc5 ^ seed) >>> 0;
  return (bytes, length) => {
    let h = basis;
    for (let i = 0; i < length; i++) h = Math.imul(h ^ (bytes[i] ?? 0), 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  };
}
