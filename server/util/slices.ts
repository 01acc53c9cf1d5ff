/** How long a loop over user-sized input may hold the event loop before letting others run. */
const SLICE_MS = 8;

const later = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Index of the first item `pred` accepts, or -1; other requests run every few milliseconds meanwhile. */
async function indexInSlices<T>(items: readonly T[], pred: (item: T) => boolean): Promise<number> {
  let since = performance.now();
  for (let i = 0; i < items.length; i++) {
    if (pred(items[i]!)) return i;
    if (performance.now() - since > SLICE_MS) {
      await later();
      since = performance.now();
    }
  }
  return -1;
}

/**
 * Array.find for lists whose length a user decides (the paths of a push):
 * every few milliseconds it lets other requests run, so a long check delays
 * only the request that asked for it.
 */
export async function findInSlices<T>(items: readonly T[], pred: (item: T) => boolean): Promise<T | undefined> {
  const i = await indexInSlices(items, pred);
  return i < 0 ? undefined : items[i];
}

/** Array.every, in slices as findInSlices. */
export async function everyInSlices<T>(items: readonly T[], pred: (item: T) => boolean): Promise<boolean> {
  return (await indexInSlices(items, (item) => !pred(item))) < 0;
}
