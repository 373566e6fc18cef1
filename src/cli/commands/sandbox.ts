import { createLogger } from '../../logger.js';
import { loadSandboxSettings, type SettingFlags } from '../../settings/load.js';
import type { SandboxOptionsInput } from '../../../sandbox/options.js';
import { defaultProductsFile } from '../../../sandbox/products.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/server.js';
import { UserError } from '../../errors.js';
import type { CommandIo } from '../io.js';
import {
  describeFaults,
  describeLimits,
  describePlanning,
  sandboxOptions,
} from './sandbox-options.js';

export interface SandboxCommandOptions {
  /** Its settings by key (`sandboxPort`…), as the flags gave them; the rest from the environment. */
  settings?: SettingFlags;
}

/** Runs the sandbox in the foreground until a stop signal; resolves to the exit code. */
export async function sandboxCommand(opts: SandboxCommandOptions, io: CommandIo): Promise<number> {
  const settings = loadSandboxSettings({ flags: opts.settings ?? {}, env: io.env });
  const input = sandboxOptions(settings, io.cwd);
  const logger = createLogger({ level: settings.logLevel, destination: io.stderr });
  const sandbox = await listen(input, logger);
  const o = sandbox.options;
  const lines = [
    'Order and File Service sandbox is running.',
    `  base URL:  ${sandbox.url}   (POST ${sandbox.url}/api/orders/, POST ${sandbox.url}/api/files/)`,
    ...sandbox.tokens.map((t) => `  token:     ${t.token}   (organisation "${t.org}")`),
    `  data:      ${o.dataDir ?? 'in memory (gone when the sandbox stops; --data DIR keeps it)'}`,
    `  products:  ${o.productsFile ?? defaultProductsFile()}`,
    `  limits:    ${describeLimits(o)}`,
    `  planning:  ${describePlanning(o)}`,
    `  faults:    ${describeFaults(o)}`,
    `Try:  curl -H 'Authorization: Bearer ${sandbox.tokens[0]?.token ?? ''}' -H 'Accept: application/json' ${sandbox.url}/__sandbox/orders`,
    'Stop with Ctrl+C.',
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  const signal = await io.stopSignal();
  logger.info({ signal }, 'stopping the sandbox');
  await sandbox.close();
  return 0;
}

async function listen(
  input: SandboxOptionsInput,
  logger: ReturnType<typeof createLogger>,
): Promise<RunningSandbox> {
  try {
    return await startSandbox(input, { logger });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new UserError(
        'sandbox.port-unavailable',
        `Cannot listen on ${input.host}:${input.port} (${code}): choose another --port.`,
        { cause: error, values: { host: String(input.host), port: String(input.port), code } },
      );
    }
    throw error;
  }
}
