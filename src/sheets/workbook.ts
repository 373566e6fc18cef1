/**
 * Opens an Excel workbook (.xlsx) as a stream of records, as csv.ts opens a CSV. The file is
 * hashed here while its rows are read in a worker thread (workbook-worker.ts → workbook-rows.ts):
 * the worksheet is parsed on a second core beside validation on this one, and in a heap of its
 * own, bounded, which is collected as it goes. A workbook that needs more than that bound (a huge
 * shared-strings table) is refused, not read at the cost of the whole process. Batches are asked
 * for one at a time: backpressure.
 */
import { Worker } from 'node:worker_threads';

import type { CsvSheet } from './csv.js';
import { SheetError } from './errors.js';
import { said } from './said.js';
import { hashAndSize } from './scan.js';
import type { SourceRecord } from './types.js';
import type { FromWorker, WorkerInput } from './workbook-worker.js';

/**
 * The worker's old generation, at most: the shared strings of 100,000 rows of distinct texts (one
 * flat text, workbook-tables.ts) take about 10 MB of it; a smaller bound keeps the peak RSS down.
 */
const WORKER_HEAP_MB = 48;
/** Its young generation: a small one is swept often, and little of the parser's garbage lives on. */
const YOUNG_MB = 8;

export interface Workbook {
  sheet: CsvSheet;
  /** The worksheet read, by its name. */
  worksheet: string;
  sha256: string;
  bytes: number;
  /** Stops the reader when the records will not be read (a header refused). */
  close(): Promise<void>;
}

/**
 * A workbook's rows: its worksheet `worksheet` (a mapping's), else its first. `known`: its hash
 * and size, taken when its private copy was (store/sheet-copy.ts): then it is not hashed again;
 * and whether those bytes were read whole once and passed the zip's checks (its record's scan,
 * keyed by that hash): then they are not checked again.
 */
export async function openWorkbook(
  path: string,
  worksheet?: string,
  known?: { sha256: string; bytes: number; checked?: boolean },
): Promise<Workbook> {
  const input: WorkerInput = {
    path,
    ...(worksheet !== undefined && { worksheet }),
    ...(known?.checked === true && { checked: true }),
  };
  const worker = new Worker(workerFile(), {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: YOUNG_MB },
  });
  const inbox = new WorkerInbox(worker);
  try {
    // Both settled before either's failure is told: no rejection is left unhandled.
    const [hashed, read] = await Promise.allSettled([
      known === undefined ? hashAndSize(path) : { sha256: known.sha256, bytes: known.bytes },
      inbox.next(),
    ]);
    if (read.status === 'rejected') throw read.reason;
    if (hashed.status === 'rejected') throw hashed.reason;
    const { sha256, bytes } = hashed.value;
    const first = read.value;
    if (first.kind !== 'header') throw new SheetError(said('sheets.workbook.stoppedEarly'));
    return {
      sheet: {
        delimiter: ';',
        header: first.header,
        headerLine: first.headerLine,
        batches: batches(worker, inbox),
      },
      worksheet: first.worksheet,
      sha256,
      bytes,
      close: async () => {
        await worker.terminate();
      },
    };
  } catch (error) {
    await worker.terminate();
    throw error;
  }
}

async function* batches(worker: Worker, inbox: WorkerInbox): AsyncGenerator<SourceRecord[]> {
  try {
    for (;;) {
      worker.postMessage('more');
      const message = await inbox.next();
      if (message.kind === 'end') return;
      if (message.kind === 'batch') yield message.records as SourceRecord[];
    }
  } finally {
    await worker.terminate();
  }
}

/**
 * The worker's error as the SheetError it threw; anything else it met (a bug, the file gone) said
 * as a workbook that cannot be read.
 */
function workerError(message: Extract<FromWorker, { kind: 'error' }>): SheetError {
  if (message.said !== undefined) return new SheetError(message.said, message.line);
  return new SheetError(said('sheets.workbook.unreadable', { detail: message.message }));
}

/** The worker's messages in order; its error or early exit as a SheetError. */
class WorkerInbox {
  readonly #queue: Array<FromWorker | SheetError> = [];
  #wake: (() => void) | undefined;

  constructor(private readonly worker: Worker) {
    const push = (item: FromWorker | SheetError) => {
      this.#queue.push(item);
      this.#wake?.();
    };
    worker.on('message', (message: FromWorker) => {
      push(message.kind === 'error' ? workerError(message) : message);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      push(
        new SheetError(
          memory
            ? said('sheets.workbook.memory', { megabytes: WORKER_HEAP_MB })
            : said('sheets.workbook.unreadable', { detail: error.message }),
          undefined,
          { cause: error },
        ),
      );
    });
    worker.on('exit', () => {
      push(new SheetError(said('sheets.workbook.stoppedEarly')));
    });
  }

  async next(): Promise<FromWorker> {
    // The worker keeps the process alive only while its next message is awaited: a reader left
    // behind (its records never read) never keeps the process from ending.
    this.worker.ref();
    try {
      while (this.#queue.length === 0) {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    } finally {
      this.worker.unref();
    }
    const item = this.#queue.shift() as FromWorker | SheetError;
    if (item instanceof SheetError) throw item;
    return item;
  }
}

/**
 * The worker's script. A worker thread runs plain JavaScript: run from the TypeScript sources
 * (the tests, after `npm run build`), it is the built one.
 */
function workerFile(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('../../dist/src/sheets/workbook-worker.js', here)
    : new URL('./workbook-worker.js', here);
}
