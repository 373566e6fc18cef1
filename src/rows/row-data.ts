/**
 * What a row job carries: the row as the sheet job validated it, and the state its steps store
 * one by one (row-job.ts), so that any later attempt goes on from the last of them.
 */
import { z } from 'zod';

export const rowStateSchema = z.object({
  /** Set just before the create is sent; cleared when its answer is recorded. */
  intent: z
    .object({ sentAt: z.string(), attempt: z.number().int(), token: z.string().optional() })
    .optional(),
  orderId: z.number().int().optional(),
  inspectionIds: z.array(z.number().int()).optional(),
  /** By attachment position; null until that file's upload has an id. */
  fileIds: z.array(z.number().int().nullable()).default([]),
  /** Attachments sent again after an unclear answer: they may be on the order twice. */
  resent: z.array(z.number().int()).default([]),
  /** The attachment being sent now; still set on a resume, it was sent with no answer kept. */
  uploading: z.number().int().optional(),
  /** How often this row has waited for another row or attempt to finish. */
  waits: z.number().int().default(0),
});
export type RowState = z.infer<typeof rowStateSchema>;

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
  state: rowStateSchema.default({ fileIds: [], resent: [], waits: 0 }),
});
/** A row job's payload as it is queued (defaults not yet filled in). */
export type RowJobData = z.input<typeof rowJobSchema>;
/** A row job's payload once parsed. */
export type RowJob = z.output<typeof rowJobSchema>;
