import type { ModelOf } from '../../protocol/model.js';
import type { CallRecord } from '../../protocol/sim/models.js';
import type { ChannelData } from '../ari/engine/channel.js';
import { causeText } from '../ari/engine/causes.js';
import type { ChannelRow } from '../db/repos/channel-repo.js';
import { ariTimestamp } from '../util/timestamp.js';

type Record = ModelOf<typeof CallRecord>;

/** Most bytes of variables one history record carries (half the answer's bound if less); the rest are left out (variables_truncated). */
export const RECORD_VARIABLES_BYTES = 64 * 1024;

/** Keeps a record's variables, in order, while they fit in `budget` bytes of JSON. */
function boundedVariables(vars: ChannelData['vars'], budget: number): { variables: Record['variables']; truncated: boolean } {
  const variables: { [name: string]: string } = {};
  let size = 2;
  let truncated = false;
  for (const [name, value] of Object.entries(vars)) {
    const add = Buffer.byteLength(JSON.stringify(name)) + Buffer.byteLength(JSON.stringify(value)) + 2;
    if (size + add > budget) {
      truncated = true;
      continue;
    }
    variables[name] = value;
    size += add;
  }
  return { variables, truncated };
}

function record(row: ChannelRow, budget: number): Record {
  const d = JSON.parse(row.data) as ChannelData;
  const cause = d.hangupCause ?? 0;
  const { variables, truncated } = boundedVariables(d.vars, budget);
  return {
    id: d.id,
    name: d.name,
    endpoint: d.endpoint,
    direction: d.direction,
    caller: d.caller,
    connected: d.connected,
    creationtime: ariTimestamp(d.created),
    ...(d.answered !== null ? { answertime: ariTimestamp(d.answered) } : {}),
    endtime: ariTimestamp(d.ended ?? d.created),
    cause,
    cause_txt: causeText(cause),
    ...(d.lastApp ? { app: d.lastApp } : {}),
    dialplan: { context: d.dialplan.context, exten: d.dialplan.exten, priority: d.dialplan.priority, app_name: d.dialplan.appName, app_data: d.dialplan.appData },
    variables,
    ...(truncated ? { variables_truncated: true } : {}),
  };
}

/**
 * A /sim/history answer within `maxBytes` of JSON: records are added newest
 * first until the next would not fit (the first always is), each carrying at
 * most RECORD_VARIABLES_BYTES (or half of maxBytes) of variables. Fewer records than `limit` means
 * "page on with before=<last id>". Rows past the bound are never read.
 */
export function boundedHistory(rows: Iterable<ChannelRow>, maxBytes: number): Record[] {
  const out: Record[] = [];
  const budget = Math.min(RECORD_VARIABLES_BYTES, Math.floor(maxBytes / 2));
  let size = 2;
  for (const row of rows) {
    const r = record(row, budget);
    const add = Buffer.byteLength(JSON.stringify(r)) + 1;
    if (out.length > 0 && size + add > maxBytes) break;
    out.push(r);
    size += add;
  }
  return out;
}
