import { ariTimestamp } from '../../util/timestamp.js';
import type { AriChannel } from './ari-models.js';
import type { Channel } from './channel.js';

/** The port through which snapshots read channelvars (variables and functions), implemented by Variables. */
export interface ChannelVariableReader {
  /** A variable or function's value on a channel; undefined when unset or failing. */
  readForSnapshot(ch: Channel, name: string): string | undefined;
}

/** ARI's view of a channel, cached on the channel until it next changes. */
export function channelSnapshot(ch: Channel, channelVars: string[], variables: ChannelVariableReader): AriChannel {
  if (ch.rt.snapshot) return ch.rt.snapshot;
  const d = ch.d;
  const s: AriChannel = {
    id: d.id,
    protocol_id: d.protocolId,
    name: d.name,
    state: d.state,
    caller: { name: d.caller.name, number: d.caller.number },
    connected: { name: d.connected.name, number: d.connected.number },
    accountcode: d.accountcode,
    dialplan: { context: d.dialplan.context, exten: d.dialplan.exten, priority: d.dialplan.priority, app_name: d.dialplan.appName, app_data: d.dialplan.appData },
    creationtime: ariTimestamp(d.created),
    language: d.language,
  };
  const names = channelVars.length ? [...new Set([...channelVars, ...d.reported])] : d.reported;
  if (names.length) {
    const vars: Record<string, string> = {};
    for (const n of names) vars[n] = variables.readForSnapshot(ch, n) ?? '';
    s.channelvars = vars;
  }
  // Both are left out while empty, as Asterisk leaves them out.
  if (d.redirecting?.from.number) s.caller_rdnis = d.redirecting.from.number;
  if (d.tenantid) s.tenantid = d.tenantid;
  ch.rt.snapshot = s;
  return s;
}
