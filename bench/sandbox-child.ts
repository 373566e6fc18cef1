/**
 * Child process: the sandbox with latency added to every request, in a process of its own so
 * that the API's work does not share the importer's event loop (a real API is elsewhere). Prints
 * its URL and token as one JSON line; stops on SIGTERM. A second argument, JSON, may give its
 * rate limit (`{"rateLimit":100,"rateWindowMs":10000}`) and the tokens it accepts, each of an
 * organisation of its own (`{"tokens":["a","b"]}`; the demo token when none).
 */
import { startSandbox } from '../sandbox/server.js';

const latencyMs = Number(process.argv[2] ?? 0);
const { rateLimit, rateWindowMs, tokens } = JSON.parse(process.argv[3] ?? '{}') as {
  rateLimit?: number;
  rateWindowMs?: number;
  tokens?: string[];
};
const sandbox = await startSandbox({
  port: 0,
  faults: { latencyMs },
  rateLimit,
  rateWindowMs,
  ...(tokens && { tokens: tokens.map((token) => ({ token, org: `org-${token}` })) }),
});
process.stdout.write(`${JSON.stringify({ url: sandbox.url, token: sandbox.tokens[0]?.token })}\n`);
process.once('SIGTERM', () => {
  void sandbox.close().then(() => process.exit(0));
});
