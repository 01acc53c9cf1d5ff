// What must happen even when a test process ends without calling close(): the
// servers it started are killed and their temporary directories removed. One
// 'exit' listener serves every instance, so starting many adds no listeners.

const pending = new Set<() => void>();
let listening = false;

/** Runs `fn` (synchronously) if the process exits before the returned function is called. */
export function onProcessExit(fn: () => void): () => void {
  if (!listening) {
    listening = true;
    process.on('exit', () => {
      for (const f of pending) {
        try {
          f();
        } catch {
          // the process is going away: the other cleanups still run
        }
      }
    });
  }
  pending.add(fn);
  return () => pending.delete(fn);
}
