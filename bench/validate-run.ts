/** Child process: the real `validate` command over a sheet, its output discarded. */
import { Writable } from 'node:stream';

import { validateCommand } from '../src/cli/commands/validate.js';
import { childInput, endWithParent, printResult } from './child-side.js';

endWithParent();
const path = (childInput() as { sheet: string }).sheet;
const sink = new Writable({
  write(_chunk, _encoding, done) {
    done();
  },
});
let summary = '';
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    summary += chunk.toString();
    done();
  },
});
const cpu = process.cpuUsage();
const started = performance.now();
const code = await validateCommand(
  [path],
  { json: true },
  {
    stdout: capture,
    stderr: sink,
    env: {},
    cwd: process.cwd(),
    stopSignal: () => new Promise(() => undefined),
  },
);
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
const [result] = JSON.parse(summary) as Array<{ total: number; valid: number; invalid: number }>;
printResult({
  code,
  rows: result?.total ?? 0,
  valid: result?.valid ?? 0,
  invalid: result?.invalid ?? 0,
  ms,
  cpuMs: (used.user + used.system) / 1000,
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
});
