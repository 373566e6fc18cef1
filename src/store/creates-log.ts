/**
 * Every create sent, on disk (docs/design.md §3, "A Redis that forgot"): one small file per sheet,
 * `$DATA_DIR/creates/<sheetId>.ndjson`, one line when a create leaves (its row, its ledger key)
 * and one when its answer comes (the order). A row's progress lives in Redis; a Redis that comes
 * back empty takes it along, and these lines are what `ledger rebuild` reads to make those rows
 * `duplicate` (answered) or `needs-review` (sent, no answer kept) rather than orders made twice.
 *
 * A plain append per line, no fsync: the threat is Redis losing its data, not this machine
 * crashing (a crash of the machine is what Redis's own AOF, and the reports, are for). Only rows
 * that have a ledger key are written: a row imported with --allow-duplicates is no one's
 * duplicate.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { z } from 'zod';

import { openInsideIfThere, AttachmentRefused } from '../orders/open-attachment.js';
import { CREATES_LOG_IDLE_MS } from '../policy.js';

/** The folder of the logs, beside the sheets' private copies (`$DATA_DIR/sheets`). */
export function createsDirOf(sheetsDir: string): string {
  return join(dirname(sheetsDir), 'creates');
}

const SHEET_ID = /^[\w-][\w.-]{0,199}$/;

export interface CreateSent {
  connectionId: string;
  sheetId: string;
  row: number;
  key: string;
  sentAt: string;
}

/**
 * The log of one process: a sheet's file is opened at its first line and kept open while lines
 * come, closed once no line came to it for `idleMs`. Each line is appended synchronously: a line
 * of a hundred bytes into the page cache costs microseconds, where an asynchronous open, write
 * and close (or even a write alone) took the thread pool and the event loop a hand-over each, two
 * lines a row; an import spent more CPU on them than on Redis. A line's promise resolves once the
 * line is in the file (no fsync: see above).
 */
export class CreatesLog {
  readonly #files = new Map<string, SheetLog>();

  constructor(
    readonly dir: string,
    private readonly idleMs = CREATES_LOG_IDLE_MS,
  ) {}

  /** Written before the create leaves: if this fails, nothing was sent. */
  async sent(sent: CreateSent): Promise<void> {
    const line = { c: sent.connectionId, r: sent.row, k: sent.key, s: sent.sentAt };
    this.#append(sent.sheetId, line);
  }

  /** Written the moment the answer comes, before Redis is told. */
  async answered(sheetId: string, row: number, orderId: number): Promise<void> {
    this.#append(sheetId, { r: row, o: orderId });
  }

  /** The create surely did nothing (refused, or never reached the API): the row is free again. */
  async released(sheetId: string, row: number): Promise<void> {
    this.#append(sheetId, { r: row, x: 1 });
  }

  /** Closes every file (the process is stopping); a line after this opens its file again. */
  async close(): Promise<void> {
    for (const file of this.#files.values()) file.close();
    this.#files.clear();
  }

  #append(sheetId: string, line: object): void {
    if (!SHEET_ID.test(sheetId)) throw new Error(`not a sheet id: "${sheetId}"`);
    let file = this.#files.get(sheetId);
    if (file === undefined) {
      const path = join(this.dir, `${sheetId}.ndjson`);
      const opened = new SheetLog(this.dir, path, this.idleMs, () => {
        if (this.#files.get(sheetId) === opened) this.#files.delete(sheetId);
      });
      file = opened;
      this.#files.set(sheetId, file);
    }
    file.write(`${JSON.stringify(line)}\n`);
  }
}

/** One sheet's file, open while lines come. */
class SheetLog {
  #fd: number | undefined;
  readonly #idle: NodeJS.Timeout;

  constructor(
    private readonly dir: string,
    private readonly path: string,
    idleMs: number,
    idle: () => void,
  ) {
    // One timer, pushed back by each line: a line costs no timer of its own.
    this.#idle = setTimeout(() => {
      idle();
      this.#closeFile();
    }, idleMs).unref();
  }

  write(text: string): void {
    this.#idle.refresh();
    const bytes = Buffer.from(text);
    try {
      this.#fd ??= this.#open();
      for (let at = 0; at < bytes.length;) at += writeSync(this.#fd, bytes, at);
    } catch (error) {
      // Opened again for the next line: a folder removed meanwhile is made again.
      this.#closeFile();
      throw error;
    }
  }

  close(): void {
    clearTimeout(this.#idle);
    this.#closeFile();
  }

  #closeFile(): void {
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    closeSync(fd);
  }

  #open(): number {
    try {
      return openSync(this.path, 'a');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(this.dir, { recursive: true });
      return openSync(this.path, 'a');
    }
  }
}

/** What the log says of one row: sent (its key), and the order if an answer came. */
export interface LoggedCreate {
  row: number;
  key: string;
  sentAt: string;
  orderId?: number;
  /** Refused, or never sent: no order. */
  released?: boolean;
}

export interface SheetCreates {
  sheetId: string;
  connectionId: string;
  rows: LoggedCreate[];
}

const SENT = z.object({
  c: z.string().min(1).max(200),
  r: z.number().int().positive(),
  k: z.string().min(1).max(10_000),
  s: z.string().max(64),
});
const ANSWERED = z.object({ r: z.number().int().positive(), o: z.number().int().positive() });
const RELEASED = z.object({ r: z.number().int().positive(), x: z.literal(1) });

/** The sheets whose logs are in `dir`, by sheet id (never read through a link). */
export async function loggedSheets(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.endsWith('.ndjson'))
      .map((e) => e.name.slice(0, -'.ndjson'.length))
      .filter((id) => SHEET_ID.test(id))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * One sheet's log, each line checked (a line cut short by a crash, or edited, is skipped and
 * counted); undefined when it is not there or is a link.
 */
export async function readCreates(
  dir: string,
  sheetId: string,
): Promise<{ creates: SheetCreates; skipped: number } | undefined> {
  const file = await openInsideIfThere(dir, `${sheetId}.ndjson`).catch((error: unknown) => {
    if (error instanceof AttachmentRefused) return undefined;
    throw error;
  });
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = (await file.bytes()).toString('utf8');
  } finally {
    await file.close();
  }
  const rows = new Map<number, LoggedCreate>();
  let connectionId = '';
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const parsed = parseLine(line);
    if (parsed === undefined) skipped += 1;
    else if ('c' in parsed) {
      connectionId ||= parsed.c;
      rows.set(parsed.r, { row: parsed.r, key: parsed.k, sentAt: parsed.s });
    } else {
      const sent = rows.get(parsed.r);
      if (sent === undefined) skipped += 1;
      else if ('o' in parsed) sent.orderId = parsed.o;
      else sent.released = true;
    }
  }
  return { creates: { sheetId, connectionId, rows: [...rows.values()] }, skipped };
}

type Line = z.infer<typeof SENT> | z.infer<typeof ANSWERED> | z.infer<typeof RELEASED>;

function parseLine(line: string): Line | undefined {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  const sent = SENT.safeParse(json);
  if (sent.success) return sent.data;
  const answered = ANSWERED.safeParse(json);
  if (answered.success) return answered.data;
  const released = RELEASED.safeParse(json);
  return released.success ? released.data : undefined;
}
