import { openBlobStore, type BlobStore } from '../blobs.js';
import type { SandboxClock } from '../clock.js';
import type { FaultDecision } from '../faults.js';
import type { SandboxOptions } from '../options.js';
import { orderRules } from '../order-rules.js';
import { plannedOrder } from '../planning.js';
import { ProductList, type ProductSource } from '../products.js';
import { type LoggedRequest, RequestLog } from '../request-log.js';
import { SandboxStore, type StoredOrder } from '../store.js';
import type { RuleSet } from '../validator.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organisation of the bearer token, once authenticated. */
    org: string;
    /** The injected faults drawn for this API request. */
    fault: FaultDecision | null;
    /** Its entry in the request log (API requests only). */
    logged: LoggedRequest | null;
  }
}

/** What the route handlers share; built once per sandbox. */
export interface SandboxContext {
  options: SandboxOptions;
  store: SandboxStore;
  blobs: BlobStore;
  products: ProductList;
  rules: RuleSet;
  requests: RequestLog;
  /** The sandbox's own time, which `/__sandbox/clock` moves on. */
  clock: SandboxClock;
  /** The order as it reads now: planned once its time has come (`options.planning`). */
  planned(order: StoredOrder): StoredOrder;
}

/** Opens the sandbox's records (in `options.dataDir`, else in memory); close `store` when done. */
export async function openSandboxContext(
  options: SandboxOptions,
  productSource: ProductSource,
  now: () => number,
): Promise<SandboxContext> {
  const store = SandboxStore.open(options.dataDir, now);
  const blobs = await openBlobStore(
    options.dataDir === undefined ? undefined : `${options.dataDir}/blobs`,
  );
  const products = new ProductList(productSource.products);
  return {
    options,
    store,
    blobs,
    products,
    rules: orderRules(products),
    requests: new RequestLog(),
    clock: store.clock,
    planned: (order) =>
      plannedOrder(
        order,
        { seconds: options.planning, seed: options.faults.seed },
        store.clock.now(),
      ),
  };
}

/** The body of a request whose media type the route does not take. */
export const UNSUPPORTED_BODY = Symbol('unsupported media type');

/** A route's `{id}`: only digits can name a record, anything else is simply not found. */
export function recordId(raw: string): number | null {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}
