/**
 * What a row job carries: the row as the sheet job validated it, nothing more. Its progress is
 * kept in Redis by row (store/row-progress.ts), read through rows/row-record.ts. (The progress an
 * older version kept on the job, `state`, was moved there at start-up: store/migrations/, number 2.)
 */
import { z } from 'zod';

export const rowJobSchema = z.object({
  /** The connection whose URL and token alone may send this row. */
  connectionId: z.string().min(1),
  sheetId: z.string(),
  row: z.number().int().positive(),
  line: z.number().int().nullable().default(null),
  reference: z.string().optional(),
  /** Ledger key; null when duplicates are allowed (or the order already exists). */
  key: z.string().nullable(),
  /** The order to create, as validated. */
  order: z.record(z.string(), z.unknown()),
  /** `absolute` (older jobs) is ignored: a file is found again from its sheet's folder. */
  attachments: z.array(
    z.object({ path: z.string(), absolute: z.string().optional(), bytes: z.number() }),
  ),
  /** The order exists already (a row dropped back from failed/): only its files are sent. */
  existingOrderId: z.number().int().optional(),
});
/** A row job's payload as it is queued (defaults not yet filled in). */
export type RowJobData = z.input<typeof rowJobSchema>;
/** A row job's payload once parsed. */
export type RowJob = z.output<typeof rowJobSchema>;
