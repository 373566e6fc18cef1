import type { BlobStore } from '../blobs.js';
import type { SandboxOptions } from '../options.js';
import type { ProductList } from '../products.js';
import type { RuleSet } from '../validator.js';
import type { RequestLog } from '../request-log.js';
import type { SandboxStore } from '../store.js';

/** What the route handlers share; built once per sandbox. */
export interface SandboxContext {
  options: SandboxOptions;
  store: SandboxStore;
  blobs: BlobStore;
  products: ProductList;
  rules: RuleSet;
  requests: RequestLog;
}

/** The body of a request whose media type the route does not take. */
export const UNSUPPORTED_BODY = Symbol('unsupported media type');

/** A route's `{id}`: only digits can name a record, anything else is simply not found. */
export function recordId(raw: string): number | null {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}
