import type { Channel } from './channel.js';
import type { Engine } from './engine.js';

/** How the channel enters the app once its connection is up (Calls.enterStasis). */
export type EnterStasis = (ch: Channel, app: string, args: string[], perCall: string) => boolean;

/**
 * Stasis for an application served by per-call outbound connections (and by
 * no socket of its own): a connection is opened for this channel, and the
 * channel enters `<app>:<channel name>`, the name Asterisk gives such an
 * application, once it is up. Returns false when no per-call connection
 * serves `app`. `stillWaiting` says whether the channel still waits where
 * it asked (it may have moved on or hung up meanwhile); `onFail` runs when
 * it does and every attempt failed.
 */
export function enterPerCallStasis(eng: Engine, enter: EnterStasis, ch: Channel, app: string, args: string[], stillWaiting: () => boolean, onFail: () => void): boolean {
  const perCall = eng.apps.perCallFor(app);
  if (!perCall) return false;
  const instance = `${app}:${ch.d.name}`;
  // The wait is stored before the attempt goes out, so a server killed meanwhile finds the channel waiting.
  ch.d.perCallWait = { app, args };
  eng.touch(ch);
  void eng.commit().then(() => perCall.open(app, instance)).then((ok) => {
    delete ch.d.perCallWait;
    eng.touch(ch);
    const waiting = ch.d.ended === null && !ch.inStasis && stillWaiting();
    if (ok && waiting && enter(ch, instance, args, app)) return;
    // Opened for a channel that no longer waits for it: closed again.
    if (ok) eng.apps.perCallDone(instance);
    if (waiting) onFail();
  });
  return true;
}
