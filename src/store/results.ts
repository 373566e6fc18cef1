import { z } from 'zod';

/** docs/design.md §2 "Row statuses". */
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
