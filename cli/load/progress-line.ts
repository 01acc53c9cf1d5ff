import type { LoadProgress } from './run-load.js';

/** Wall ms between progress lines when stderr is not a terminal. */
export const PLAIN_PROGRESS_MS = 2000;

/** One progress line: how long, how many placed, up, answered, ended. */
export function progressText(p: LoadProgress, target: number | undefined): string {
  const rate = p.elapsedMs > 0 ? (p.placed * 1000) / p.elapsedMs : 0;
  return `${(p.elapsedMs / 1000).toFixed(1)}s placed ${p.placed}${target !== undefined ? `/${target}` : ''} (${rate.toFixed(1)}/s) up ${p.live} answered ${p.answered} ended ${p.ended}${p.refused ? ` refused ${p.refused}` : ''}`;
}

/**
 * The live progress on stderr: on a terminal one line rewritten in place (\r) at every tick;
 * otherwise a new line every PLAIN_PROGRESS_MS, so logs stay readable.
 */
export function progressWriter(stream: { write(s: string): unknown; isTTY?: boolean }, target: number | undefined): { update(p: LoadProgress): void; end(): void } {
  const tty = stream.isTTY === true;
  let last = -Infinity;
  let width = 0;
  let shown = false;
  return {
    update(p) {
      const text = progressText(p, target);
      if (tty) {
        stream.write(`\r${text.padEnd(width)}`);
        width = text.length;
        shown = true;
      } else if (p.elapsedMs - last >= PLAIN_PROGRESS_MS) {
        last = p.elapsedMs;
        stream.write(`${text}\n`);
      }
    },
    end() {
      if (tty && shown) stream.write('\n');
    },
  };
}
