import type { Channel } from './channel.js';

/**
 * The port through which channel lifecycles hand a channel to the dialplan,
 * implemented by Pbx; it keeps calls.ts from importing pbx.ts.
 */
export interface DialplanStarter {
  /** Runs the dialplan from `context,exten,priority` now. */
  start(ch: Channel, context: string, exten: string, priority: number): void;
  /** Runs the dialplan from `context,exten,priority` after the current step (on a timer). */
  startSoon(ch: Channel, context: string, exten: string, priority: number): void;
}
