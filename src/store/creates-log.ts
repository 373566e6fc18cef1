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
import { type FileHandle, mkdir, open, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { z } from 'zod';

import { openInsideIfThere, AttachmentRefused } from '../orders/open-attachment.js';

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
 * come (an open, a write and a close per line cost an import more CPU than its Redis did), lines
 * that come while a write is in flight leave together in the next write, and a file no line came
 * to for `idleMs` is closed. A line's promise resolves once the line is written.
 */
export class CreatesLog {
  readonly #files = new Map<string, SheetLog>();

  constructor(
    readonly dir: string,
    private readonly idleMs = 2000,
  ) {}

  /** Written before the create leaves: if this fails, nothing was sent. */
  sent(sent: CreateSent): Promise<void> {
    return this.#append(sent.sheetId, {
      c: sent.connectionId,
      r: sent.row,
      k: sent.key,
      s: sent.sentAt,
    });
  }

  /** Written the moment the answer comes, before Redis is told. */
  answered(sheetId: string, row: number, orderId: number): Promise<void> {
    return this.#append(sheetId, { r: row, o: orderId });
  }

  /** The create surely did nothing (refused, or never reached the API): the row is free again. */
  released(sheetId: string, row: number): Promise<void> {
    return this.#append(sheetId, { r: row, x: 1 });
  }

  /** Writes what is queued and closes every file (the process is stopping). */
  async close(): Promise<void> {
    const files = [...this.#files.values()];
    this.#files.clear();
    await Promise.all(files.map((f) => f.close()));
  }

  #append(sheetId: string, line: object): Promise<void> {
    if (!SHEET_ID.test(sheetId)) return Promise.reject(new Error(`not a sheet id: "${sheetId}"`));
    let file = this.#files.get(sheetId);
    if (file === undefined) {
      file = new SheetLog(this.dir, join(this.dir, `${sheetId}.ndjson`), this.idleMs, (idle) => {
        if (this.#files.get(sheetId) === idle) this.#files.delete(sheetId);
      });
      this.#files.set(sheetId, file);
    }
    return file.write(`${JSON.stringify(line)}\n`);
  }
}

/** One sheet's file, open while lines come; one write in flight at a time. */
class SheetLog {
  #handle: FileHandle | undefined;
  #queued: Array<{ text: string; done: () => void; failed: (error: unknown) => void }> = [];
  #writing: Promise<void> | undefined;
  #idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    private readonly path: string,
    private readonly idleMs: number,
    private readonly closed: (file: SheetLog) => void,
  ) {}

  write(text: string): Promise<void> {
    clearTimeout(this.#idle);
    return new Promise((done, failed) => {
      this.#queued.push({ text, done, failed });
      this.#writing ??= this.#writeQueued();
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.#idle);
    await this.#writing;
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }

  async #writeQueued(): Promise<void> {
    while (this.#queued.length > 0) {
      const lines = this.#queued.splice(0);
      try {
        this.#handle ??= await this.#open();
        await this.#handle.write(lines.map((l) => l.text).join(''));
        for (const line of lines) line.done();
      } catch (error) {
        // Opened again for the next line: a folder removed meanwhile is made again.
        const handle = this.#handle;
        this.#handle = undefined;
        // The write's error is the one the lines are refused with; the close's adds nothing.
        await handle?.close().catch(() => undefined);
        for (const line of lines) line.failed(error);
      }
    }
    this.#writing = undefined;
    this.#idle = setTimeout(() => {
      this.closed(this);
      // Every line is written: a close that fails leaves nothing undone but a descriptor.
      this.close().catch(() => undefined);
    }, this.idleMs).unref();
  }

  async #open(): Promise<FileHandle> {
    try {
      return await open(this.path, 'a');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(this.dir, { recursive: true });
      return open(this.path, 'a');
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
