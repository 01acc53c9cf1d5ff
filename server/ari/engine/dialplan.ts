import { badRequest, notFound } from '../../errors.js';

/** Dialplan applications the interpreter runs, by canonical name (lookups are case-insensitive, as Asterisk's). */
export const DIALPLAN_APPS = [
  'Answer', 'Wait', 'Playback', 'Stasis', 'Hangup', 'Goto', 'GotoIf', 'Set', 'NoOp', 'Echo',
  'Ringing', 'Progress', 'Busy', 'Congestion', 'MusicOnHold', 'Verbose', 'Log', 'UserEvent', 'StasisBroadcast',
  'Transfer', 'BlindTransfer',
] as const;
export type DialplanApp = (typeof DIALPLAN_APPS)[number];
const APP_BY_LOWER = new Map<string, DialplanApp>(DIALPLAN_APPS.map((a) => [a.toLowerCase(), a]));

export interface Priority {
  priority: number;
  label?: string;
  app: DialplanApp;
  /** Raw argument text; variables are substituted when the priority runs. */
  data: string;
}

export interface Extension {
  name: string;
  /** Specificity key for patterns (lower sorts first); undefined for exact extensions. */
  rank?: number[];
  match?: RegExp;
  priorities: Map<number, Priority>;
  labels: Map<string, number>;
}

export interface Context {
  name: string;
  exact: Map<string, Extension>;
  patterns: Extension[];
}

export interface Dialplan {
  contexts: Map<string, Context>;
}

const LINE = /^\s*(\d+|n)(?:\(([A-Za-z0-9_-]+)\))?\s*,\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$/s;

/** Compiles an Asterisk extension pattern (`_NXX`, `_1[2-4]X.`, `_X!`) to a regex plus a specificity rank. */
function compilePattern(pattern: string): { match: RegExp; rank: number[] } {
  let re = '';
  const rank: number[] = [];
  for (let i = 1; i < pattern.length; i++) {
    const c = pattern[i]!;
    const u = c.toUpperCase();
    if (u === 'X') { re += '[0-9]'; rank.push(10); }
    else if (u === 'Z') { re += '[1-9]'; rank.push(9); }
    else if (u === 'N') { re += '[2-9]'; rank.push(8); }
    else if (c === '.') { re += '.+'; rank.push(1000); break; }
    else if (c === '!') { re += '.*'; rank.push(1001); break; }
    else if (c === '[') {
      const end = pattern.indexOf(']', i);
      if (end < 0) throw new Error(`pattern ${pattern}: unterminated [`);
      const body = pattern.slice(i + 1, end);
      let count = 0;
      for (let j = 0; j < body.length; j++) {
        if (body[j + 1] === '-' && body[j + 2] !== undefined) { count += body.charCodeAt(j + 2) - body.charCodeAt(j) + 1; j += 2; }
        else count++;
      }
      re += `[${body.replace(/[\\^\]]/g, '\\$&')}]`;
      rank.push(count);
      i = end;
    } else { re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); rank.push(1); }
  }
  return { match: new RegExp(`^${re}$`), rank };
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Parses `{context: {exten: ["1,Answer()", "n(label),App(args)"]}}`; throws with the offending line. */
export function parseDialplan(contexts: Record<string, Record<string, string[]>>): Dialplan {
  const out = new Map<string, Context>();
  for (const [cname, extens] of Object.entries(contexts)) {
    const ctx: Context = { name: cname, exact: new Map(), patterns: [] };
    for (const [ename, lines] of Object.entries(extens)) {
      const ext: Extension = { name: ename, priorities: new Map(), labels: new Map() };
      let prev = 0;
      for (const line of lines) {
        const m = LINE.exec(line);
        if (!m) throw new Error(`${cname}.${ename}: cannot parse "${line}" (expected "priority[(label)],App(args)")`);
        const prio = m[1] === 'n' ? prev + 1 : Number(m[1]);
        if (prev === 0 && prio !== 1) throw new Error(`${cname}.${ename}: the first priority must be 1, in "${line}"`);
        if (prio <= prev) throw new Error(`${cname}.${ename}: priority ${prio} in "${line}" must be above ${prev}`);
        const app = APP_BY_LOWER.get(m[3]!.toLowerCase());
        if (!app) throw new Error(`${cname}.${ename}: unknown application "${m[3]}" (known: ${DIALPLAN_APPS.join(', ')})`);
        const p: Priority = { priority: prio, app, data: m[4] ?? '', ...(m[2] ? { label: m[2] } : {}) };
        ext.priorities.set(prio, p);
        if (m[2]) ext.labels.set(m[2], prio);
        prev = prio;
      }
      if (ename.startsWith('_')) {
        Object.assign(ext, compilePattern(ename));
        ctx.patterns.push(ext);
      } else ctx.exact.set(ename, ext);
    }
    ctx.patterns.sort((a, b) => compareRank(a.rank!, b.rank!));
    out.set(cname, ctx);
  }
  return { contexts: out };
}

/** The extension that handles `exten` in `context`: an exact one first, else the most specific pattern. */
export function findExtension(dp: Dialplan, context: string, exten: string): Extension | undefined {
  const ctx = dp.contexts.get(context);
  if (!ctx) return undefined;
  return ctx.exact.get(exten) ?? ctx.patterns.find((p) => p.match!.test(exten));
}

/** Resolves a label (or a numeric string) to a priority; undefined when the label does not exist. */
export function findLabel(dp: Dialplan, context: string, exten: string, label: string): number | undefined {
  if (/^-?\d+$/.test(label.trim())) return Number(label.trim());
  return findExtension(dp, context, exten)?.labels.get(label);
}

/** The priority an ARI request names by label or number: Asterisk's 400 for priority 0, 404 for a label the extension lacks. */
export function resolveLabel(dp: Dialplan, context: string, exten: string, label: string): number {
  const p = findLabel(dp, context, exten, label);
  if (p === 0) throw badRequest('Requested priority is illegal');
  if (p === undefined) throw notFound('Requested label can not be found');
  return p;
}
