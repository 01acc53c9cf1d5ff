import type { ExpectationResult } from './expectation-result.js';
import { compileFields, compileMatcher } from './matchers.js';
import type { HeardExpectation, VariableExpectation } from './scenario-schema.js';

type HeardItem = Record<string, unknown>;

const itemText = (item: HeardItem) => JSON.stringify(item);

/** Index in `items` (from `start`) of the first that matches, or -1. */
function find(items: HeardItem[], test: (i: HeardItem) => string[], start: number): number {
  for (let k = start; k < items.length; k++) if (test(items[k]!).length === 0) return k;
  return -1;
}

/**
 * Judges what a call's far end heard (its heard list at the end of the run): `sequence` (the
 * default) wants the items in this order with anything between, `exact` exactly these items,
 * `contains` each somewhere.
 */
export function judgeHeard(x: HeardExpectation, i: number, heard: HeardItem[]): ExpectationResult {
  const order = x.order ?? 'sequence';
  const label = `heard[${i}]${x.id ? ` ${x.id}` : ''}: call ${x.call}, ${order}`;
  const tests = x.items.map((m) => compileFields(m));
  const result = (pass: boolean, reason: string, details: string[] = []): ExpectationResult => ({ kind: 'heard', label, pass, reason, details });
  if (order === 'exact' && heard.length !== tests.length) {
    return result(false, `heard ${heard.length} items, wanted exactly ${tests.length}`, heard.map((h, k) => `[${k}] ${itemText(h)}`));
  }
  let from = 0;
  for (const [k, t] of tests.entries()) {
    const at = order === 'exact' ? (t.test(heard[k]!).length ? -1 : k) : find(heard, t.test, order === 'sequence' ? from : 0);
    if (at < 0) {
      const where = order === 'sequence' && k > 0 ? ` after item ${k - 1} (heard[${from - 1}])` : order === 'exact' ? ` at heard[${k}]` : '';
      const nearest = order === 'exact' ? t.test(heard[k]!) : heard.slice(order === 'sequence' ? from : 0).map((h) => t.test(h)).sort((a, b) => a.length - b.length)[0] ?? [];
      return result(false, `item ${k} (${t.describe}) not heard${where}`, nearest.map((w) => `nearest: ${w}`));
    }
    from = at + 1;
  }
  return result(true, `${tests.length} item(s) heard`);
}

/**
 * Judges a channel variable at the end of the run: for a call that has ended, its value when the
 * channel was destroyed (the history record); for one still up, its value now. `undefined` when
 * the channel had no such variable.
 */
export function judgeVariable(x: VariableExpectation, i: number, value: unknown): ExpectationResult {
  const label = `variables[${i}]${x.id ? ` ${x.id}` : ''}: ${x.name} (call ${x.call})`;
  // Variables are strings: a number or boolean written unquoted in the file means its text.
  const t = compileMatcher(typeof x.value === 'number' || typeof x.value === 'boolean' ? String(x.value) : x.value);
  const pass = t.test(value);
  return { kind: 'variable', label, pass, reason: `${x.name} is ${value === undefined ? 'not set' : JSON.stringify(value)}${pass ? '' : `, wanted ${t.describe}`}`, details: [] };
}
