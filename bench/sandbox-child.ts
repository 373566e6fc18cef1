/**
 * Child process: the sandbox with latency added to every request, in a process of its own so
 * that the API's work does not share the importer's event loop (a real API is elsewhere). Prints
 * its URL and token as one JSON line; stops on SIGTERM. A second argument, JSON, may give its
 * rate limit (`{"rateLimit":100,"rateWindowMs":10000}`).
 */
import { startSandbox } from '../sandbox/server.js';

const latencyMs = Number(process.argv[2] ?? 0);
const { rateLimit, rateWindowMs } = JSON.parse(process.argv[3] ?? '{}') as {
  rateLimit?: number;
  rateWindowMs?: number;
};
const sandbox = await startSandbox({ port: 0, faults: { latencyMs }, rateLimit, rateWindowMs });
process.stdout.write(`${JSON.stringify({ url: sandbox.url, token: sandbox.tokens[0]?.token })}\n`);
process.once('SIGTERM', () => {
  void sandbox.close().then(() => process.exit(0));
});
