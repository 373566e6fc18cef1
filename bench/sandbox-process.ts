/** The sandbox in a child process of its own (sandbox-child.ts), as the benchmarks use it. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface SandboxProcess {
  url: string;
  token: string;
  stop(): Promise<void>;
}

/** The sandbox's rate limit: requests per window per token, then 429 (none when absent). */
export interface SandboxRateLimit {
  rateLimit?: number;
  rateWindowMs?: number;
  /** The tokens it accepts, each of an organisation of its own; none: the demo token. */
  tokens?: string[];
}

/** Starts the sandbox with `latencyMs` added to every request. */
export async function startSandboxProcess(
  latencyMs: number,
  limit: SandboxRateLimit = {},
): Promise<SandboxProcess> {
  const args = [join(here, 'sandbox-child.js'), String(latencyMs), JSON.stringify(limit)];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const [first] = (await once(lines, 'line')) as [string];
  const { url, token } = JSON.parse(first) as { url: string; token: string };
  return {
    url,
    token,
    stop: async () => {
      // A child ended by a signal (Ctrl-C reaches it too) has a signalCode and no exitCode.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
