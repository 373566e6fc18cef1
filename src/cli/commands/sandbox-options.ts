/**
 * The `sandbox` command's settings (from the settings table) as the sandbox's own options, and
 * the lines that say which limits, planning and faults it runs with.
 */
import { resolve } from 'node:path';

import type { SandboxSettings } from '../../settings/load.js';
import type { SandboxOptions, SandboxOptionsInput } from '../../../sandbox/options.js';

/** PHP's stock php.ini values, for `--php-defaults`. */
const PHP_DEFAULTS = {
  postMaxBytes: 8 * 1024 * 1024,
  uploadMaxFileBytes: 2 * 1024 * 1024,
  maxFileUploads: 20,
} as const;

export function sandboxOptions(s: SandboxSettings, cwd: string): SandboxOptionsInput {
  const php = s.sandboxPhpDefaults ? PHP_DEFAULTS : undefined;
  return {
    host: s.sandboxHost,
    port: s.sandboxPort,
    ...(s.sandboxDataDir !== undefined && { dataDir: resolve(cwd, s.sandboxDataDir) }),
    ...(s.sandboxTokens !== undefined && s.sandboxTokens.length > 0 && { tokens: s.sandboxTokens }),
    ...(s.productsFile !== undefined && { productsFile: resolve(cwd, s.productsFile) }),
    rateLimit: s.sandboxRateLimit,
    rateWindowMs: s.sandboxRateWindow * 1000,
    postMaxBytes: s.sandboxPostMaxSize ?? php?.postMaxBytes,
    proxyMaxBytes: s.sandboxProxyBodyLimit,
    uploadMaxFileBytes: s.sandboxUploadMaxFilesize ?? php?.uploadMaxFileBytes,
    maxFileUploads: s.sandboxMaxFileUploads ?? php?.maxFileUploads,
    redirectTrailingSlash: s.sandboxRedirectTrailingSlash,
    quirks: s.sandboxQuirks,
    planning: s.sandboxPlanning,
    faults: {
      seed: s.sandboxSeed,
      latencyMs: s.sandboxLatency,
      jitterMs: s.sandboxJitter,
      p503: s.sandboxP503,
      retryAfterSeconds: s.sandboxRetryAfter,
      pResetBefore: s.sandboxPResetBefore,
      p500After: s.sandboxP500After,
      pResetAfter: s.sandboxPResetAfter,
    },
  };
}

/** The limits a running sandbox applies, as its start-up lines say them. */
export function describeLimits(o: SandboxOptions): string {
  const parts = [
    `post_max_size ${o.postMaxBytes} bytes`,
    o.rateLimit !== undefined && `${o.rateLimit} requests per ${o.rateWindowMs / 1000} s per token`,
    o.proxyMaxBytes !== undefined && `proxy body ${o.proxyMaxBytes} bytes (HTML 413)`,
    o.uploadMaxFileBytes !== undefined && `${o.uploadMaxFileBytes} bytes per file`,
    o.maxFileUploads !== undefined && `${o.maxFileUploads} files per request`,
    o.redirectTrailingSlash && '301 on a trailing slash',
  ].filter((p): p is string => typeof p === 'string');
  return parts.join(', ');
}

/** When a running sandbox plans its orders, or "never". */
export function describePlanning(o: SandboxOptions): string {
  if (o.planning <= 0) return 'never: orders stay "to schedule" (--planning SECONDS)';
  return `${o.planning} s after an order is created (seed ${o.faults.seed}); done after ${2 * o.planning} s`;
}

/** The faults a running sandbox injects, or "none". */
export function describeFaults(o: SandboxOptions): string {
  const parts = Object.entries(o.faults).filter(
    ([key, value]) => Boolean(value) && key !== 'seed' && key !== 'retryAfterSeconds',
  );
  if (parts.length === 0) return 'none';
  return `${parts.map(([k, v]) => `${k}=${String(v)}`).join(', ')} (seed ${o.faults.seed})`;
}
