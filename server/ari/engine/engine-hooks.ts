import type { Logger } from '../../log.js';
import type { Channel } from './channel.js';

/** Modules' reactions to a channel hanging up, receiving a digit, or being committed, run in registration order. */
export class EngineHooks {
  private readonly hangupHooks: Array<(ch: Channel) => void> = [];
  private readonly dtmfHooks: Array<(ch: Channel, digit: string) => void> = [];
  private readonly commitHooks: Array<(changed: readonly Channel[]) => void> = [];

  constructor(private readonly log: Logger) {}

  /** Runs when a channel is hanging up, after ChannelHangupRequest and before StasisEnd (media stops there). */
  onHangup(hook: (ch: Channel) => void): void {
    this.hangupHooks.push(hook);
  }

  /** Runs every hangup hook; one that throws is logged and the others still run. */
  runHangup(ch: Channel): void {
    for (const h of this.hangupHooks) {
      try {
        h(ch);
      } catch (err) {
        this.log.error({ err, channel: ch.id }, 'hangup hook failed');
      }
    }
  }

  /** Runs when a channel receives a digit, after ChannelDtmfReceived. */
  onDtmf(hook: (ch: Channel, digit: string) => void): void {
    this.dtmfHooks.push(hook);
  }

  /** Runs every DTMF hook. */
  runDtmf(ch: Channel, digit: string): void {
    for (const h of this.dtmfHooks) h(ch, digit);
  }

  /** Runs at each group commit with the channels it wrote, before the turn's events leave. */
  onCommitted(hook: (changed: readonly Channel[]) => void): void {
    this.commitHooks.push(hook);
  }

  /** Runs every commit hook; one that throws is logged, so the commit still delivers its events and answers. */
  runCommitted(changed: readonly Channel[]): void {
    for (const h of this.commitHooks) {
      try {
        h(changed);
      } catch (err) {
        this.log.error({ err }, 'commit hook failed');
      }
    }
  }
}
