import { badRequest, notFound } from '../../errors.js';
import type { Calls } from './calls.js';
import type { Channel, Direction2 } from './channel.js';
import type { Engine } from './engine.js';

export interface SnoopRequest {
  spy: string;
  whisper: string;
  app: string;
  appArgs?: string | undefined;
  snoopId?: string | undefined;
}

const DIRECTIONS = ['none', 'in', 'out', 'both'];

/**
 * Snoop channels: `Snoop/<target id>-<n>`, answered, placed in an app. Their
 * inbound audio is what they spy on (the target's in, out or both); what the
 * app plays to them is whispered into the target.
 */
export class Snoops {
  private readonly byTarget = new Map<string, Set<Channel>>();

  constructor(private readonly eng: Engine, private readonly calls: Calls) {
    for (const ch of eng.all()) if (ch.d.snoop) this.index(ch);
    eng.onHangup((ch) => {
      if (ch.d.snoop) this.byTarget.get(ch.d.snoop.target)?.delete(ch);
      // A snoop ends with the channel it snoops on.
      for (const s of [...(this.byTarget.get(ch.id) ?? [])]) this.calls.hangup(s, { by: 'far', cause: 16 });
      this.byTarget.delete(ch.id);
    });
  }

  private index(ch: Channel): void {
    const t = ch.d.snoop!.target;
    const set = this.byTarget.get(t) ?? new Set<Channel>();
    set.add(ch);
    this.byTarget.set(t, set);
  }

  /** Validates in Asterisk's order (directions, app, then the target) and creates the snoop channel. */
  snoop(targetId: string, req: SnoopRequest): Channel {
    if (req.spy && !DIRECTIONS.includes(req.spy)) throw badRequest('Invalid direction specified for spy');
    if (req.whisper && !DIRECTIONS.includes(req.whisper)) throw badRequest('Invalid direction specified for whisper');
    const spy = (req.spy || 'none') as Direction2;
    const whisper = (req.whisper || 'none') as Direction2;
    if (spy === 'none' && whisper === 'none') throw badRequest('Direction must be specified for at least spy or whisper');
    if (!req.app) throw badRequest('Application name is required');
    const target = this.eng.find(targetId);
    if (!target) throw notFound('Provided channel was not found');
    const ch = this.calls.createInternal({
      id: req.snoopId,
      tech: 'Snoop',
      nameBase: `Snoop/${target.id}`,
      endpoint: `Snoop/${target.id}`,
      app: req.app,
      args: req.appArgs ? req.appArgs.split(',') : [],
      setup: (c) => {
        c.d.snoop = { target: target.id, spy, whisper };
      },
    });
    // The spec subscribes the app named at snoop time to the snoop channel for its whole life (as an
    // originate does), so the app still hears ChannelDestroyed after StasisEnd; Asterisk only runs Stasis() on it.
    this.eng.subscribe(ch, req.app);
    this.index(ch);
    return ch;
  }

  /** Snoops that whisper into a channel. */
  whisperers(ch: Channel): Channel[] {
    const set = this.byTarget.get(ch.id);
    if (!set?.size) return [];
    return [...set].filter((s) => s.d.snoop!.whisper !== 'none' && s.d.ended === null);
  }
}
