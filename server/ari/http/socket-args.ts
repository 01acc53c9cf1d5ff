import type { Operation, OperationArgs } from '../../../protocol/operation.js';
import { parseBoolean } from '../../http/parse-boolean.js';
import { ARI_BOOLEAN } from './bind.js';

/** An upgrade's parameters read by its declaration, or the first required one that is missing. */
export type SocketArgs<O extends Operation> = { args: OperationArgs<O>; missing?: undefined } | { args?: undefined; missing: string };

/**
 * Reads the query parameters of a WebSocket operation (`/ari/events`) from
 * its declaration. The event socket is more forgiving than the REST binder,
 * as Asterisk's is: repeated and comma-separated values add up, blanks around
 * each one and duplicates are dropped, a single value is the first one given,
 * and a boolean that is not one of Asterisk's true words is simply false.
 */
export function socketArgs<O extends Operation>(op: O, query: URLSearchParams): SocketArgs<O> {
  const args: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(op.params)) {
    if (p.in !== 'query') continue;
    if (p.allowMultiple) {
      const list = [...new Set(query.getAll(name).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean))];
      if (!list.length && p.required) return { missing: name };
      args[name] = list;
    } else if (p.dataType === 'boolean') args[name] = parseBoolean(query.get(name) ?? '', ARI_BOOLEAN) === true;
    else {
      const raw = query.get(name);
      if (raw === null && p.required) return { missing: name };
      if (raw !== null) args[name] = raw;
    }
  }
  return { args: args as OperationArgs<O> };
}
