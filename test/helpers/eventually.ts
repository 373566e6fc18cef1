/**
 * Waits for a state rather than for a time: `what` is looked at again until it gives a value, and
 * the wait fails with `says()` once `timeoutMs` has passed without one.
 */
export async function eventually<T>(
  what: () => T | undefined | Promise<T | undefined>,
  says: () => string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${says()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
