/** One API request as the sandbox saw it. */
export interface LoggedRequest {
  /** When it arrived, ms since the epoch. */
  at: number;
  method: string;
  path: string;
  /** The status answered; null when the connection was dropped instead (an injected reset). */
  status: number | null;
}

/**
 * The sandbox's recent API requests, for tests and rehearsals that must see what a client did
 * (for instance that nothing was sent before a Retry-After had passed). Bounded: a ring.
 */
export class RequestLog {
  readonly #entries: LoggedRequest[] = [];

  constructor(private readonly capacity = 50_000) {}

  add(entry: LoggedRequest): LoggedRequest {
    this.#entries.push(entry);
    if (this.#entries.length > this.capacity) this.#entries.shift();
    return entry;
  }

  list(): readonly LoggedRequest[] {
    return this.#entries;
  }
}
