import { ASTERISK_22_OPERATIONS, type AsteriskOperation } from './asterisk-catalogue.js';
import type { AriResource } from './resources.js';

/** Where the table sits in the README (the lines between these are generated). */
export const TABLE_BEGIN = '<!-- ari-operations:begin (generated from protocol/ari/asterisk-catalogue.ts and the declarations: UPDATE_SNAPSHOTS=1 npm test -- protocol) -->';
export const TABLE_END = '<!-- ari-operations:end -->';

const key = (method: string, path: string) => `${method} ${path}`;

/**
 * The README's table of Asterisk 22's ARI, in Asterisk's order: each
 * operation, and whether we serve it (declared in `resources`) or why not.
 */
export function operationTable(resources: readonly AriResource[], catalogue: readonly AsteriskOperation[] = ASTERISK_22_OPERATIONS): string {
  const served = new Set(resources.flatMap((r) => r.operations.map((o) => key(o.method, o.path))));
  const isServed = (op: AsteriskOperation) => served.has(key(op.method, op.path));
  const count = catalogue.filter(isServed).length;
  const lines = [
    `${count} of the ${catalogue.length} operations of Asterisk 22's ARI are served.`,
    '',
    '| Resource | Operation | Request | Served |',
    '|---|---|---|---|',
    ...catalogue.map((op) => `| \`${op.resource}\` | ${op.nickname} | \`${op.method} ${op.path}\` | ${isServed(op) ? 'yes' : `no: ${op.notServed ?? 'no reason given'}`} |`),
  ];
  return lines.join('\n');
}
