/**
 * The references a sheet has used so far, and the row that used each first: how a second use is
 * refused. A sheet of a million rows holds a million of them, so they are kept in typed arrays
 * (outside the JavaScript heap, which the garbage collector then does not size itself after)
 * rather than as a million strings in a Map: 30 to 40 bytes per reference plus its own bytes,
 * where a Map took about 100 and made the heap grow twice that.
 *
 * Exact, not probabilistic: a false "duplicate" would drop a real order. Each reference's bytes
 * are kept, so two references are the same only when their bytes are equal; the hash only
 * chooses where to look, and a hash shared by two different references costs one more comparison,
 * never a wrong answer. The bytes are each UTF-16 code unit in UTF-8's shapes (a lone surrogate,
 * possible in JSON, written as itself rather than replaced as TextEncoder would), so that
 * different strings never have the same bytes.
 */

/** A 32-bit hash of `bytes[0, length)`; only its spread matters, not its strength. */
export type HashBytes = (bytes: Uint8Array, length: number) => number;

const NO_ENTRY = -1;
/** Entries per slot at most before the table of slots doubles: short probes, 8 bytes a reference. */
const MAX_LOAD = 0.5;

export class ReferenceSet {
  /** Every reference's bytes, one after another, in the order first seen. */
  #bytes = new Uint8Array(1 << 16);
  /** Entry i's bytes end at ends[i] and start where entry i - 1's end. */
  #ends = new Uint32Array(1 << 10);
  #hashes = new Uint32Array(1 << 10);
  /** The row that used the reference first (a Float64Array: rows are not capped at 2^32). */
  #rows = new Float64Array(1 << 10);
  #count = 0;
  /** Open addressing with linear probing: an entry's index, or NO_ENTRY. */
  #slots = new Int32Array(1 << 11).fill(NO_ENTRY);
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
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot] ?? NO_ENTRY;
      if (entry === NO_ENTRY) {
        this.#add(slot, hash, length, row);
        return undefined;
      }
      if (this.#hashes[entry] === hash && this.#sameBytes(entry, length)) return this.#rows[entry];
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

  #sameBytes(entry: number, length: number): boolean {
    const start = entry === 0 ? 0 : (this.#ends[entry - 1] ?? 0);
    if ((this.#ends[entry] ?? 0) - start !== length) return false;
    const bytes = this.#bytes;
    const scratch = this.#scratch;
    for (let i = 0; i < length; i++) if (bytes[start + i] !== scratch[i]) return false;
    return true;
  }

  #add(slot: number, hash: number, length: number, row: number): void {
    const start = this.#count === 0 ? 0 : (this.#ends[this.#count - 1] ?? 0);
    if (start + length > 0xffff_ffff) {
      throw new RangeError('more than 4 GB of references in one sheet: too many to check.');
    }
    if (start + length > this.#bytes.length) this.#bytes = grown(this.#bytes, start + length);
    this.#bytes.set(this.#scratch.subarray(0, length), start);
    if (this.#count === this.#ends.length) {
      this.#ends = grown(this.#ends, this.#count + 1);
      this.#hashes = grown(this.#hashes, this.#count + 1);
      this.#rows = grown(this.#rows, this.#count + 1);
    }
    const entry = this.#count++;
    this.#ends[entry] = start + length;
    this.#hashes[entry] = hash;
    this.#rows[entry] = row;
    this.#slots[slot] = entry;
    if (this.#count > this.#slots.length * MAX_LOAD) this.#doubleSlots();
  }

  #doubleSlots(): void {
    const slots = new Int32Array(this.#slots.length * 2).fill(NO_ENTRY);
    const mask = slots.length - 1;
    for (let entry = 0; entry < this.#count; entry++) {
      let slot = (this.#hashes[entry] ?? 0) & mask;
      while (slots[slot] !== NO_ENTRY) slot = (slot + 1) & mask;
      slots[slot] = entry;
    }
    this.#slots = slots;
  }
}

type TypedArray = Uint8Array | Uint32Array | Float64Array;

/** A copy of `array` with room for `needed` items, half as large again at least (not twice: the old and new copies coexist while copying). */
function grown<T extends TypedArray>(array: T, needed: number): T {
  const length = Math.max(needed, Math.ceil(array.length * 1.5));
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
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
