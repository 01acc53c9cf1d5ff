import type { Party } from './callerid.js';
import type { Channel } from './channel.js';
import type { Engine } from './engine.js';

/** What connected-line updates use of the engine. */
export type ConnectedLineEngine = Pick<Engine, 'touch' | 'emitChannel'>;

/**
 * Two channels now talk to each other alone (a mixing bridge that came down
 * to, or up to, exactly two members): each learns who is at the other end,
 * its connected line becoming the other's caller ID. `first` is the member
 * that has been in the bridge longest. The newer member is told first, then
 * the older one, as Asterisk queues the two updates after a bridge changes;
 * each update that changes something raises ChannelConnectedLine to that
 * channel's subscribers, one that changes nothing raises nothing.
 */
export function exchangeConnectedLines(eng: ConnectedLineEngine, first: Channel, second: Channel): void {
  const firstCaller = { ...first.d.caller };
  const secondCaller = { ...second.d.caller };
  updateConnectedLine(eng, second, firstCaller);
  updateConnectedLine(eng, first, secondCaller);
}

/** Sets the channel's connected line; ChannelConnectedLine when its name or number changes. */
export function updateConnectedLine(eng: ConnectedLineEngine, ch: Channel, party: Party): void {
  const now = ch.d.connected;
  if (now.name === party.name && now.number === party.number) return;
  ch.d.connected = { name: party.name, number: party.number };
  eng.touch(ch);
  eng.emitChannel(ch, 'ChannelConnectedLine', {});
}
