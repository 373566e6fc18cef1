import { resolve } from 'node:path';

import type { LevelWithSilent } from 'pino';

import { createLogger } from '../logger.js';
import { defaultProductsFile } from '../package-root.js';
import { parseSize, type SandboxOptionsInput } from '../../sandbox/options.js';
import { ProductsFileError } from '../../sandbox/products.js';
import { startSandbox } from '../../sandbox/server.js';
import { parseTokens } from '../../sandbox/tokens.js';
import { CliError } from './errors.js';
import type { CommandIo } from './io.js';

/** The flags of `order-importer sandbox`, as commander hands them over (strings, unparsed). */
export interface SandboxCommandOptions {
  host?: string;
  port?: string;
  data?: string;
  token?: string[];
  products?: string;
  rateLimit?: string;
  rateWindow?: string;
  postMaxSize?: string;
  proxyBodyLimit?: string;
  uploadMaxFilesize?: string;
  maxFileUploads?: string;
  phpDefaults?: boolean;
  redirectTrailingSlash?: boolean;
  quirks?: boolean;
  seed?: string;
  latency?: string;
  jitter?: string;
  p503?: string;
  retryAfter?: string;
  pResetBefore?: string;
  p500After?: string;
  pResetAfter?: string;
  logLevel?: string;
}

/** PHP's stock php.ini values, for `--php-defaults`. */
const PHP_DEFAULTS = {
  postMaxBytes: 8 * 1024 * 1024,
  uploadMaxFileBytes: 2 * 1024 * 1024,
  maxFileUploads: 20,
} as const;

/** Every environment variable `order-importer sandbox` reads. */
export const SANDBOX_ENV = [
  'SANDBOX_HOST',
  'SANDBOX_PORT',
  'SANDBOX_DATA_DIR',
  'SANDBOX_TOKENS',
  'PRODUCTS_FILE',
  'SANDBOX_RATE_LIMIT',
  'SANDBOX_RATE_WINDOW',
  'SANDBOX_POST_MAX_SIZE',
  'SANDBOX_PROXY_BODY_LIMIT',
  'SANDBOX_UPLOAD_MAX_FILESIZE',
  'SANDBOX_MAX_FILE_UPLOADS',
  'SANDBOX_SEED',
  'SANDBOX_LATENCY_MS',
  'SANDBOX_JITTER_MS',
  'SANDBOX_P503',
  'SANDBOX_RETRY_AFTER',
  'SANDBOX_P_RESET_BEFORE',
  'SANDBOX_P500_AFTER',
  'SANDBOX_P_RESET_AFTER',
  'LOG_LEVEL',
] as const;
type SandboxEnv = (typeof SANDBOX_ENV)[number];

/** The port `order-importer sandbox` listens on unless told otherwise. */
export const DEFAULT_SANDBOX_PORT = 4010;

/** Runs the sandbox in the foreground until a stop signal; resolves to the exit code. */
export async function sandboxCommand(opts: SandboxCommandOptions, io: CommandIo): Promise<number> {
  const settings = new Settings(io.env);
  const input = sandboxInput(opts, settings, io.cwd);
  const logLevel = settings.pick(opts.logLevel, 'LOG_LEVEL', '--log-level') ?? {
    value: 'info',
    name: 'LOG_LEVEL',
  };
  if (!LEVELS.includes(logLevel.value as LevelWithSilent)) {
    throw new CliError(
      `${logLevel.name} must be one of ${LEVELS.join(', ')} (got "${logLevel.value}").`,
    );
  }
  const logger = createLogger({ level: logLevel.value as LevelWithSilent });
  let sandbox;
  try {
    sandbox = await startSandbox(input, { logger });
  } catch (error) {
    if (error instanceof ProductsFileError) throw new CliError(error.message, 1, { cause: error });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new CliError(
        `Cannot listen on ${input.host}:${input.port} (${code}): choose another --port.`,
        1,
        { cause: error },
      );
    }
    throw error;
  }
  const o = sandbox.options;
  const lines = [
    'Order and File Service sandbox is running.',
    `  base URL:  ${sandbox.url}   (POST ${sandbox.url}/api/orders/, POST ${sandbox.url}/api/files/)`,
    ...sandbox.tokens.map((t) => `  token:     ${t.token}   (organisation "${t.org}")`),
    `  data:      ${o.dataDir ?? 'in memory (gone when the sandbox stops; --data DIR keeps it)'}`,
    `  products:  ${o.productsFile ?? defaultProductsFile()}`,
    `  limits:    ${describeLimits(input)}`,
    `  faults:    ${describeFaults(input)}`,
    `Try:  curl -H 'Authorization: Bearer ${sandbox.tokens[0]?.token ?? ''}' -H 'Accept: application/json' ${sandbox.url}/__sandbox/orders`,
    'Stop with Ctrl+C.',
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  const signal = await io.stopSignal();
  logger.info({ signal }, 'stopping the sandbox');
  await sandbox.close();
  return 0;
}

const LEVELS: readonly LevelWithSilent[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

/** A setting's value and the name the user gave it by, for error messages. */
interface Picked {
  value: string;
  name: string;
}

/** Flags win over the environment; every parse error names the flag or variable it came from. */
class Settings {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  pick(flag: string | undefined, envName: SandboxEnv, flagName = ''): Picked | undefined {
    if (flag !== undefined) return { value: flag, name: flagName || `the flag for ${envName}` };
    const fromEnv = this.env[envName];
    return fromEnv === undefined || fromEnv === '' ? undefined : { value: fromEnv, name: envName };
  }

  int(picked: Picked | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    if (!picked) return undefined;
    const n = Number(picked.value);
    if (!/^\s*\d+\s*$/.test(picked.value) || n < min || n > max) {
      throw new CliError(
        `${picked.name} must be a whole number from ${min} to ${max} (got "${picked.value}").`,
      );
    }
    return n;
  }

  probability(picked: Picked | undefined): number | undefined {
    if (!picked) return undefined;
    const n = Number(picked.value);
    if (picked.value.trim() === '' || !(n >= 0 && n <= 1)) {
      throw new CliError(
        `${picked.name} must be a probability from 0 to 1 (got "${picked.value}").`,
      );
    }
    return n;
  }

  size(picked: Picked | undefined): number | undefined {
    if (!picked) return undefined;
    try {
      const n = parseSize(picked.value);
      if (n <= 0) throw new Error('must be more than 0');
      return n;
    } catch (error) {
      throw new CliError(`${picked.name}: ${(error as Error).message}.`, 1, { cause: error });
    }
  }
}

function sandboxInput(opts: SandboxCommandOptions, s: Settings, cwd: string): SandboxOptionsInput {
  const data = s.pick(opts.data, 'SANDBOX_DATA_DIR', '--data');
  const products = s.pick(opts.products, 'PRODUCTS_FILE', '--products');
  const envTokens = s.pick(undefined, 'SANDBOX_TOKENS')?.value;
  const tokenItems = opts.token ?? (envTokens === undefined ? [] : [envTokens]);
  let tokens;
  try {
    tokens = parseTokens(tokenItems);
  } catch (error) {
    throw new CliError(`--token / SANDBOX_TOKENS: ${(error as Error).message}`, 1, {
      cause: error,
    });
  }
  const php = opts.phpDefaults ? PHP_DEFAULTS : undefined;
  const rateWindow = s.int(s.pick(opts.rateWindow, 'SANDBOX_RATE_WINDOW', '--rate-window'), 1);
  return {
    host: s.pick(opts.host, 'SANDBOX_HOST', '--host')?.value ?? '127.0.0.1',
    port: s.int(s.pick(opts.port, 'SANDBOX_PORT', '--port'), 0, 65_535) ?? DEFAULT_SANDBOX_PORT,
    ...(data && { dataDir: resolve(cwd, data.value) }),
    ...(tokens.length > 0 && { tokens }),
    ...(products && { productsFile: resolve(cwd, products.value) }),
    rateLimit: s.int(s.pick(opts.rateLimit, 'SANDBOX_RATE_LIMIT', '--rate-limit'), 1),
    ...(rateWindow !== undefined && { rateWindowMs: rateWindow * 1000 }),
    postMaxBytes:
      s.size(s.pick(opts.postMaxSize, 'SANDBOX_POST_MAX_SIZE', '--post-max-size')) ??
      php?.postMaxBytes,
    proxyMaxBytes: s.size(
      s.pick(opts.proxyBodyLimit, 'SANDBOX_PROXY_BODY_LIMIT', '--proxy-body-limit'),
    ),
    uploadMaxFileBytes:
      s.size(
        s.pick(opts.uploadMaxFilesize, 'SANDBOX_UPLOAD_MAX_FILESIZE', '--upload-max-filesize'),
      ) ?? php?.uploadMaxFileBytes,
    maxFileUploads:
      s.int(s.pick(opts.maxFileUploads, 'SANDBOX_MAX_FILE_UPLOADS', '--max-file-uploads'), 1) ??
      php?.maxFileUploads,
    redirectTrailingSlash: opts.redirectTrailingSlash ?? false,
    quirks: opts.quirks ?? true,
    faults: {
      seed: s.int(s.pick(opts.seed, 'SANDBOX_SEED', '--seed'), 0),
      latencyMs: s.int(s.pick(opts.latency, 'SANDBOX_LATENCY_MS', '--latency'), 0),
      jitterMs: s.int(s.pick(opts.jitter, 'SANDBOX_JITTER_MS', '--jitter'), 0),
      p503: s.probability(s.pick(opts.p503, 'SANDBOX_P503', '--p503')),
      retryAfterSeconds: s.int(s.pick(opts.retryAfter, 'SANDBOX_RETRY_AFTER', '--retry-after'), 0),
      pResetBefore: s.probability(
        s.pick(opts.pResetBefore, 'SANDBOX_P_RESET_BEFORE', '--p-reset-before'),
      ),
      p500After: s.probability(s.pick(opts.p500After, 'SANDBOX_P500_AFTER', '--p500-after')),
      pResetAfter: s.probability(
        s.pick(opts.pResetAfter, 'SANDBOX_P_RESET_AFTER', '--p-reset-after'),
      ),
    },
  };
}

function describeLimits(input: SandboxOptionsInput): string {
  const parts = [
    `post_max_size ${input.postMaxBytes ?? 100 * 1024 * 1024} bytes`,
    input.rateLimit !== undefined &&
      `${input.rateLimit} requests per ${(input.rateWindowMs ?? 60_000) / 1000} s per token`,
    input.proxyMaxBytes !== undefined && `proxy body ${input.proxyMaxBytes} bytes (HTML 413)`,
    input.uploadMaxFileBytes !== undefined && `${input.uploadMaxFileBytes} bytes per file`,
    input.maxFileUploads !== undefined && `${input.maxFileUploads} files per request`,
    input.redirectTrailingSlash === true && '301 on a trailing slash',
  ].filter((p): p is string => typeof p === 'string');
  return parts.join(', ');
}

function describeFaults(input: SandboxOptionsInput): string {
  const f = input.faults ?? {};
  const parts = Object.entries(f).filter(
    ([key, value]) => Boolean(value) && key !== 'seed' && key !== 'retryAfterSeconds',
  );
  if (parts.length === 0) return 'none';
  return `${parts.map(([k, v]) => `${k}=${String(v)}`).join(', ')} (seed ${f.seed ?? 1})`;
}
