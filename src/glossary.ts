/**
 * The words of this code base, and the shared types that carry them. Every folder may import
 * this file; it imports nothing of the project.
 *
 * Terminology (docs/design.md is the contract these words come from):
 * - **sheet**: a file of orders a user drops or names: an Excel workbook (.xlsx, .xlsm), CSV,
 *   JSON or NDJSON. Known by its **sheetId** (`20261126-101502-3fa9c1`) and by the sha256 of its
 *   bytes; read from a private **copy** taken when it is queued (store/sheet-copy.ts), so the
 *   sheet imported is the one hashed.
 * - **row**: one record of a sheet, numbered from 1 (`row`); **line** is where it starts in the
 *   file (null in a JSON array); its **reference** is the user's own id for it, if any.
 * - **mapping**: the user's column names → the API's field names, and their words → the API's
 *   values (orders/mapping.ts; where a sheet's is found: orders/mapping-files.ts).
 * - **order**: what the API creates from a valid row; it yields one **inspection** per product.
 * - **attachment**: a document a row lists in `files`, uploaded to its order as a `clientFiles`
 *   file; always read from inside the sheet's folder, never through a link.
 * - **catalogue**: the products that exist, whose category decides which extra fields an order needs.
 * - **connection**: an API base URL and a token; its id (a hash, never the token) scopes queues,
 *   the ledger and the sheet registry, so a row is never sent with another connection's token.
 * - **context**: what one process holds for one connection, built once and passed first to every
 *   stage (context.ts).
 * - **stages**: intake (a sheet taken in and submitted) → sheet job (split/: rows validated, row
 *   jobs queued) → row job (rows/: the order created, its files uploaded) → report (report/) →
 *   status (status/: the orders read back). Each job kind has a thin BullMQ processor in jobs/.
 * - **claim**: the one attempt anywhere allowed to send a row's create; written before it is
 *   sent, with when, it is also the **intent** (store/row-progress.ts, the row's **progress**).
 * - **ledger**: which row key (reference, or a fingerprint of what would be sent) already became
 *   which order, per connection: a row imported before is a `duplicate`, never a second order.
 * - **outcome**: a row's final result — one of the **row statuses** below — recorded once
 *   (rows/outcome.ts); a sheet whose rows all have one gets its **report** (report.csv,
 *   summary.json, failed/ for what a user can fix and drop back, needs-review.csv).
 * - **order status**: the API's own word for where an order stands (`to schedule`, …), read back
 *   with its inspections' dates and inspectors into the report's status.csv; `not found` is
 *   ours, for a 404. An order that cannot be read now is **unreadable**; a status listed in
 *   STATUS_FINAL is **final** (the order is not read again).
 * - **hot folder**: `inbox/` watched for sheets, `work/<sheetId>/` while imported, `archive/`
 *   after, `failed/` for sheets that cannot be read; what is refused is **not taken**, and said.
 */
import { z } from 'zod';

/** A row's final status (docs/design.md §2 "Row statuses"). */
export const ROW_STATUSES = ['created', 'invalid', 'failed', 'needs-review', 'duplicate'] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

/** What happened to one row, kept until its sheet's report is written. */
export const rowResultSchema = z.object({
  status: z.enum(ROW_STATUSES),
  /**
   * Where the row starts in the sheet (null in a JSON array) and its reference: report.csv is
   * written from these results alone, even when the sheet has changed since.
   */
  line: z.number().int().nullable().optional(),
  reference: z.string().optional(),
  orderId: z.number().int().optional(),
  inspectionIds: z.array(z.number().int()).optional(),
  /** One per attachment, in the row's order; null where the upload did not succeed. */
  fileIds: z.array(z.number().int().nullable()).optional(),
  /** How many times the row's job was started. */
  attempts: z.number().int().min(0),
  /** Why the row is not `created`, or a note about it. */
  error: z.string().optional(),
  /** needs-review: when the create was sent, and what came back. */
  review: z.object({ sentAt: z.string(), answer: z.string() }).optional(),
  /** failed with an order: the attachments still missing, as the sheet wrote them. */
  missingFiles: z.array(z.string()).optional(),
  /** A 422's field errors, by API field name (the report names the sheet's columns). */
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
});
export type RowOutcome = z.infer<typeof rowResultSchema>;

export function parseOutcome(text: string): RowOutcome {
  return rowResultSchema.parse(JSON.parse(text));
}
