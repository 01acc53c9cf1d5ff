import type { EventSocket } from '../../http/event-socket-hub.js';
import type { EventSink } from '../apps.js';

/**
 * An ARI event socket as its applications see it, able to hold events back
 * while a REST request sent over it runs: the answer is written first and
 * the events held meanwhile (those the request caused among them) right
 * after it, in the order they came.
 */
export class HoldingSink implements EventSink {
  private held: string[] | null = null;
  private heldBytes = 0;
  private afterRelease: Array<() => void> = [];

  constructor(
    readonly socket: EventSocket,
    /** Past this many bytes held, the events go out at once (the answer may then follow some of them). */
    private readonly maxHeldBytes: number,
  ) {}

  deliver(json: string): void {
    if (!this.held) {
      this.socket.deliver(json);
      return;
    }
    this.held.push(json);
    this.heldBytes += json.length;
    // A request that takes long while many events come must not make us keep them all.
    if (this.heldBytes > this.maxHeldBytes) this.flushHeld();
  }

  cork(): void {
    this.socket.cork();
  }

  uncork(): void {
    this.socket.uncork();
  }

  cut(): void {
    this.socket.ws.terminate();
  }

  /** From now on events wait, until `release`. */
  hold(): void {
    this.held ??= [];
  }

  /** Writes `first` (a request's answer), then every event held back, and stops holding. */
  release(first: string | undefined): void {
    const held = this.held ?? [];
    this.held = null;
    this.heldBytes = 0;
    this.write(first === undefined ? held : [first, ...held]);
    for (const fn of this.afterRelease.splice(0)) fn();
  }

  /** Runs `fn` once nothing is held back: at once, or right after the running request's answer and the events held with it are written. */
  whenReleased(fn: () => void): void {
    if (this.held) this.afterRelease.push(fn);
    else fn();
  }

  private flushHeld(): void {
    const held = this.held ?? [];
    this.held = [];
    this.heldBytes = 0;
    this.write(held);
  }

  private write(frames: string[]): void {
    this.socket.cork();
    for (const json of frames) this.socket.deliver(json);
    this.socket.uncork();
  }
}
