/** What a child process of the benchmark (children.ts) does to take its input and end well. */

/** The child's input: the one JSON argument the benchmark (children.ts) started it with. */
export function childInput(): unknown {
  return JSON.parse(process.argv[2] ?? 'null');
}

/**
 * Ends the process when the benchmark's own is gone (its end of our stdin closes): a benchmark
 * killed outright must not leave an importer or a pool of requests running on the machine.
 */
export function endWithParent(): void {
  const stdin = process.stdin as NodeJS.ReadStream & { unref?: () => void };
  // Started by hand, stdin is a terminal or a file: there is no benchmark to watch.
  if (typeof stdin.unref !== 'function' || stdin.isTTY) return;
  stdin.on('end', () => process.exit(1)).resume();
  // Only a watch: it must not keep a child that has finished its work alive.
  stdin.unref();
}

/** Prints the result as the last line of output, for the benchmark to read. */
export function printResult(result: unknown): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
