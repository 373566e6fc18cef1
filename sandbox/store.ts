import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import Database from 'better-sqlite3';

import { SandboxClock } from './clock.js';
import type { StoredOrderFields } from './order-rules.js';

export interface StoredInspection {
  id: number;
  product_id: string;
  product_name: string;
  date: string | null;
  inspector_name: string | null;
}

export interface StoredOrder {
  id: number;
  org: string;
  fields: StoredOrderFields;
  status: string;
  cancelReason: string | null;
  createdAt: string;
  inspections: StoredInspection[];
}

export interface StoredFile {
  id: number;
  org: string;
  orderId: number;
  collection: string;
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
  blobKey: string;
  createdAt: string;
}

export type NewFile = Omit<StoredFile, 'id' | 'createdAt'>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org TEXT NOT NULL,
  fields TEXT NOT NULL,
  status TEXT NOT NULL,
  cancel_reason TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS inspections (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  product_id TEXT NOT NULL,
  product_name TEXT NOT NULL,
  date TEXT,
  inspector_name TEXT
);
CREATE TABLE IF NOT EXISTS files (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org TEXT NOT NULL,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  collection TEXT NOT NULL,
  file_name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  blob_key TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS clock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  offset_days INTEGER NOT NULL
);
INSERT OR IGNORE INTO clock (id, offset_days) VALUES (1, 0);
CREATE INDEX IF NOT EXISTS orders_org ON orders(org, id);
CREATE INDEX IF NOT EXISTS inspections_order ON inspections(order_id, id);
CREATE INDEX IF NOT EXISTS files_order ON files(order_id, id);
`;

/**
 * Each kind of id starts in its own range, so a client that mixes up an order id with a file or
 * inspection id gets a 404 in the sandbox instead of a lucky match.
 */
const FIRST_IDS = { orders: 100_001, inspections: 500_001, files: 900_001 } as const;

interface OrderRow {
  id: number;
  org: string;
  fields: string;
  status: string;
  cancel_reason: string | null;
  created_at: string;
}

interface FileRow {
  id: number;
  org: string;
  order_id: number;
  collection: string;
  file_name: string;
  mime_type: string;
  size: number;
  sha256: string;
  blob_key: string;
  created_at: string;
}

/**
 * The sandbox's orders, inspections and file records, in SQLite (a file, or `:memory:`), and the
 * offset of its clock, which dates what it records.
 */
export class SandboxStore {
  readonly #db: Database.Database;
  readonly #sql;
  readonly clock: SandboxClock;

  private constructor(db: Database.Database, realNow: () => number) {
    this.#db = db;
    this.#sql = {
      insertOrder: db.prepare<[string, string, string]>(
        `INSERT INTO orders (org, fields, status, cancel_reason, created_at)
         VALUES (?, ?, 'to schedule', NULL, ?)`,
      ),
      insertInspection: db.prepare<[number, string, string]>(
        'INSERT INTO inspections (order_id, product_id, product_name) VALUES (?, ?, ?)',
      ),
      order: db.prepare<[number, string], OrderRow>(
        'SELECT * FROM orders WHERE id = ? AND org = ?',
      ),
      orders: db.prepare<[string], OrderRow>('SELECT * FROM orders WHERE org = ? ORDER BY id'),
      inspections: db.prepare<[number], StoredInspection>(
        `SELECT id, product_id, product_name, date, inspector_name
         FROM inspections WHERE order_id = ? ORDER BY id`,
      ),
      insertFile: db.prepare<
        [string, number, string, string, string, number, string, string, string]
      >(
        `INSERT INTO files
           (org, order_id, collection, file_name, mime_type, size, sha256, blob_key, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      file: db.prepare<[number, string], FileRow>('SELECT * FROM files WHERE id = ? AND org = ?'),
      files: db.prepare<[number], FileRow>('SELECT * FROM files WHERE order_id = ? ORDER BY id'),
      deleteFiles: db.prepare<[number]>('DELETE FROM files WHERE order_id = ?'),
      deleteInspections: db.prepare<[number]>('DELETE FROM inspections WHERE order_id = ?'),
      deleteOrder: db.prepare<[number, string]>('DELETE FROM orders WHERE id = ? AND org = ?'),
      setStatus: db.prepare<[string, string | null, number, string]>(
        'UPDATE orders SET status = ?, cancel_reason = ? WHERE id = ? AND org = ?',
      ),
      setInspection: db.prepare<[string | null, string | null, number, number]>(
        'UPDATE inspections SET date = ?, inspector_name = ? WHERE id = ? AND order_id = ?',
      ),
      offsetDays: db.prepare<[], { offset_days: number }>('SELECT offset_days FROM clock'),
      addDays: db.prepare<[number], { offset_days: number }>(
        'UPDATE clock SET offset_days = offset_days + ? RETURNING offset_days',
      ),
    };
    const sql = this.#sql;
    this.clock = new SandboxClock(realNow, {
      offsetDays: () => sql.offsetDays.get()?.offset_days ?? 0,
      addDays: (days) => sql.addDays.get(days)?.offset_days ?? 0,
    });
  }

  /**
   * Opens `<dataDir>/sandbox.sqlite`, or an in-memory database without a folder; `realNow` (ms
   * since the epoch) is the real time its clock starts from.
   */
  static open(dataDir: string | undefined, realNow: () => number): SandboxStore {
    let file = ':memory:';
    if (dataDir !== undefined) {
      mkdirSync(dataDir, { recursive: true });
      file = join(dataDir, 'sandbox.sqlite');
    }
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.exec(SCHEMA);
    const seed = db.prepare(
      `INSERT INTO sqlite_sequence (name, seq)
       SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)`,
    );
    for (const [table, first] of Object.entries(FIRST_IDS)) seed.run(table, first - 1, table);
    return new SandboxStore(db, realNow);
  }

  createOrder(
    org: string,
    fields: StoredOrderFields,
    products: ReadonlyArray<{ id: string; name: string }>,
  ): StoredOrder {
    const createdAt = this.#timestamp();
    const id = this.#db.transaction(() => {
      const orderId = Number(
        this.#sql.insertOrder.run(org, JSON.stringify(fields), createdAt).lastInsertRowid,
      );
      for (const p of products) this.#sql.insertInspection.run(orderId, p.id, p.name);
      return orderId;
    })();
    const order = this.getOrder(org, id);
    if (!order) throw new Error(`order ${id} vanished after insert`);
    return order;
  }

  /** The order if it belongs to `org`: another organisation's order does not exist for it. */
  getOrder(org: string, id: number): StoredOrder | undefined {
    const row = this.#sql.order.get(id, org);
    return row && this.#toOrder(row);
  }

  listOrders(org: string): StoredOrder[] {
    return this.#sql.orders.all(org).map((row) => this.#toOrder(row));
  }

  /**
   * Deletes the order of `org` with its inspections and file records, in one transaction; the
   * keys of its files' blobs, for the caller to remove. undefined when `org` has no such order.
   */
  deleteOrder(org: string, id: number): { blobKeys: string[] } | undefined {
    return this.#db.transaction(() => {
      if (!this.#sql.order.get(id, org)) return undefined;
      const blobKeys = this.#sql.files.all(id).map((f) => f.blob_key);
      this.#sql.deleteFiles.run(id);
      this.#sql.deleteInspections.run(id);
      this.#sql.deleteOrder.run(id, org);
      return { blobKeys };
    })();
  }

  /**
   * Stores an order's plan as given (its status, cancel reason, and each inspection's date and
   * inspector), in one transaction: from then on the planners leave it as it is.
   */
  storePlan(order: StoredOrder): void {
    this.#db.transaction(() => {
      this.#sql.setStatus.run(order.status, order.cancelReason, order.id, order.org);
      for (const i of order.inspections)
        this.#sql.setInspection.run(i.date, i.inspector_name, i.id, order.id);
    })();
  }

  /** Records uploaded files in one transaction; their ids in the order given. */
  addFiles(files: readonly NewFile[]): number[] {
    const createdAt = this.#timestamp();
    return this.#db.transaction(() =>
      files.map((f) => {
        const result = this.#sql.insertFile.run(
          f.org,
          f.orderId,
          f.collection,
          f.fileName,
          f.mimeType,
          f.size,
          f.sha256,
          f.blobKey,
          createdAt,
        );
        return Number(result.lastInsertRowid);
      }),
    )();
  }

  getFile(org: string, id: number): StoredFile | undefined {
    const row = this.#sql.file.get(id, org);
    return row && toFile(row);
  }

  listFiles(orderId: number): StoredFile[] {
    return this.#sql.files.all(orderId).map(toFile);
  }

  close(): void {
    this.#db.close();
  }

  #toOrder(row: OrderRow): StoredOrder {
    return {
      id: row.id,
      org: row.org,
      fields: JSON.parse(row.fields) as StoredOrderFields,
      status: row.status,
      cancelReason: row.cancel_reason,
      createdAt: row.created_at,
      inspections: this.#sql.inspections.all(row.id),
    };
  }

  /** Laravel's timestamp shape. */
  #timestamp(): string {
    return new Date(this.clock.now()).toISOString().replace(/\.\d{3}Z$/, '.000000Z');
  }
}

function toFile(row: FileRow): StoredFile {
  return {
    id: row.id,
    org: row.org,
    orderId: row.order_id,
    collection: row.collection,
    fileName: row.file_name,
    mimeType: row.mime_type,
    size: row.size,
    sha256: row.sha256,
    blobKey: row.blob_key,
    createdAt: row.created_at,
  };
}
