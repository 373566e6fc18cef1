/**
 * A check at start bounded in time (probe.ts, cluster.ts): a server that takes the connection
 * and says nothing must not hold the start for ever.
 */

/** `work`, or an error once `ms` have passed; `onLate` lets go of what `work` holds. */
export async function within<T>(
  ms: number,
  work: () => Promise<T>,
  onLate?: () => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onLate?.();
      reject(new Error(`no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}
