import type { Readable } from 'node:stream';

/**
 * The objects of an object-mode stream, a batch at a time: whatever the stream holds is taken in
 * one go, so a consumer pays one promise per batch rather than one per record (on a sheet of a
 * million rows that is most of the difference between reading and validating it). Listeners are
 * attached at once, so an error the stream meets before the first batch is asked for is kept.
 */
export function readBatches<T>(stream: Readable, maxBatch = 1000): AsyncGenerator<T[]> {
  let failure: Error | null = null;
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const resume = wake;
    wake = null;
    resume?.();
  };
  const onError = (error: Error) => {
    failure ??= error;
    notify();
  };
  const onEnd = () => {
    ended = true;
    notify();
  };
  stream.on('error', onError);
  stream.on('end', onEnd);
  stream.on('readable', notify);

  async function* batches(): AsyncGenerator<T[]> {
    try {
      for (;;) {
        if (failure !== null) throw failure;
        const batch: T[] = [];
        let item: T | null;
        while (batch.length < maxBatch && (item = stream.read() as T | null) !== null) {
          batch.push(item);
        }
        if (batch.length > 0) {
          yield batch;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      stream.off('error', onError);
      stream.off('end', onEnd);
      stream.off('readable', notify);
    }
  }
  return batches();
}
