import { z } from 'zod';

import { DEMO_TOKEN } from './tokens.js';

const probability = z.number().min(0).max(1);
const bytes = z.number().int().positive();

export const faultsSchema = z.object({
  /** Seed of the fault sequence, and of the planning (`planning`). @defaultValue 1 */
  seed: z.number().int().default(1),
  /** Delay added to every API request, in ms. @defaultValue 0 */
  latencyMs: z.number().int().min(0).default(0),
  /** Random extra delay of up to this many ms. @defaultValue 0 */
  jitterMs: z.number().int().min(0).default(0),
  /** Probability of a 503 before any work. @defaultValue 0 */
  p503: probability.default(0),
  /** Retry-After of injected 503s, in seconds. @defaultValue 1 */
  retryAfterSeconds: z.number().int().min(0).default(1),
  /** Probability of a connection reset before any work. @defaultValue 0 */
  pResetBefore: probability.default(0),
  /** Probability of a 500 after a create is stored. @defaultValue 0 */
  p500After: probability.default(0),
  /** Probability of a connection reset after a create is stored. @defaultValue 0 */
  pResetAfter: probability.default(0),
});

export const sandboxOptionsSchema = z.object({
  /** Address to listen on. @defaultValue `127.0.0.1` */
  host: z.string().min(1).default('127.0.0.1'),
  /** Port to listen on; 0 takes a free one. @defaultValue 0 */
  port: z.number().int().min(0).max(65_535).default(0),
  /** Folder for the SQLite database and uploaded files; in memory when absent. */
  dataDir: z.string().min(1).optional(),
  /** Accepted bearer tokens and their organisations. @defaultValue the demo token */
  tokens: z
    .array(z.object({ token: z.string().min(1), org: z.string().min(1) }))
    .min(1)
    .default([DEMO_TOKEN]),
  /** Product catalogue (JSON). @defaultValue `samples/products.json` */
  productsFile: z.string().min(1).optional(),
  /** Reproduce the documented quirks of retrieved orders. @defaultValue true */
  quirks: z.boolean().default(true),
  /** Requests per window per token; answered with 429 beyond it. @defaultValue no limit */
  rateLimit: z.number().int().positive().optional(),
  /** Length of the rate-limit window, in ms (Laravel: one minute). @defaultValue 60000 */
  rateWindowMs: z.number().int().positive().default(60_000),
  /** PHP's post_max_size: larger bodies get Laravel's JSON 413. @defaultValue 100 MiB */
  postMaxBytes: bytes.default(100 * 1024 * 1024),
  /** A front proxy's client_max_body_size: larger bodies get nginx's HTML 413. @defaultValue none */
  proxyMaxBytes: bytes.optional(),
  /** PHP's upload_max_filesize: larger files "failed to upload" (422). @defaultValue none */
  uploadMaxFileBytes: bytes.optional(),
  /** PHP's max_file_uploads: files past this count are silently dropped. @defaultValue none */
  maxFileUploads: z.number().int().positive().optional(),
  /** Apache's trailing-slash 301 of Laravel's stock .htaccess. @defaultValue false */
  redirectTrailingSlash: z.boolean().default(false),
  /**
   * Seconds after its creation at which an order is planned: a date and an inspector for each
   * inspection, and a new status (./planning.ts); 0: never, it stays `to schedule`.
   * @defaultValue 0
   */
  planning: z.number().min(0).default(0),
  /** Seeded fault injection; all off by default. */
  faults: faultsSchema.default(faultsSchema.parse({})),
});

export type SandboxOptionsInput = z.input<typeof sandboxOptionsSchema>;
export type SandboxOptions = z.output<typeof sandboxOptionsSchema>;

/** Sizes as PHP's ini files write them: `8M`, `2m`, `512K`, `1G` or plain bytes. */
export function parseSize(text: string): number {
  const match = /^\s*(\d+)\s*([kmg]?)b?\s*$/i.exec(text);
  if (!match) throw new Error(`"${text}" is not a size (examples: 2M, 512K, 1048576)`);
  const unit = (match[2] ?? '').toLowerCase();
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Number(match[1]) * factor;
}
