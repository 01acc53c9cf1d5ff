/**
 * The matching engine behind every glob we accept from users (branch rule
 * names, protected file patterns, .editorconfig sections, .gitattributes).
 * A pattern is parsed (by its dialect's parser) into nodes, compiled into a
 * small program, and run as a Thompson/Pike simulation: all the ways the
 * pattern could be matching are advanced together, one text character at a
 * time, and each program position is held at most once per character. The
 * work is therefore at most proportional to (program size) × (text length),
 * whatever the pattern: no backtracking, so `**a**a**a…b` costs no more than
 * its length says. Every step is counted against a budget.
 */

/** A parsed glob: what each dialect's parser produces. Characters are Unicode code points. */
export type GlobNode =
  | { kind: 'char'; cp: number }
  /** One character that is not a separator. */
  | { kind: 'one' }
  /** One character in (or, negated, not in) `ranges` (inclusive pairs); `noSep`: never a separator. */
  | { kind: 'class'; ranges: number[]; negated: boolean; noSep: boolean }
  /** Any run of non-separator characters, empty included. */
  | { kind: 'star' }
  /** Any run of characters. */
  | { kind: 'super' }
  /** Any one of the alternatives. */
  | { kind: 'alt'; alts: GlobNode[][] }
  /** A decimal integer from lo to hi, written as `format` writes it (brace ranges). */
  | { kind: 'num'; lo: number; hi: number; width: number };

const CHAR = 0, ONE = 1, CLASS = 2, STAR = 3, SUPER = 4, FORK = 5, JMP = 6, NUM = 7, MATCH = 8;

type Op =
  | { op: typeof CHAR; cp: number }
  | { op: typeof ONE }
  | { op: typeof CLASS; ranges: number[]; negated: boolean; noSep: boolean }
  | { op: typeof STAR }
  | { op: typeof SUPER }
  | { op: typeof FORK; to: number[] }
  | { op: typeof JMP; to: number }
  | { op: typeof NUM; lo: number; hi: number; width: number }
  | { op: typeof MATCH };

export interface Program {
  ops: Op[];
  separators: number[];
  /** The same program flattened for the matcher: opcode and argument (code point, target) per position. */
  code: Int32Array;
  arg: Int32Array;
}

export interface GlobBudget {
  steps: number;
}

/** Thrown when a match would spend more steps than its budget allows. */
export class GlobBudgetError extends Error {
  constructor() {
    super('glob matching work exceeded its budget');
  }
}

/** Steps spent by every match since start: tests read it to show the work stays bounded. */
export const globCounters = { steps: 0 };

/** The longest digit run a brace range looks at (15 digits stay exact in a double). */
const MAX_NUM_DIGITS = 16;

export function compileProgram(nodes: GlobNode[], separators: string): Program {
  const ops: Op[] = [];
  const emit = (seq: GlobNode[]) => {
    for (const n of seq) {
      switch (n.kind) {
        case 'char': ops.push({ op: CHAR, cp: n.cp }); break;
        case 'one': ops.push({ op: ONE }); break;
        case 'class': ops.push({ op: CLASS, ranges: n.ranges, negated: n.negated, noSep: n.noSep }); break;
        case 'star': ops.push({ op: STAR }); break;
        case 'super': ops.push({ op: SUPER }); break;
        case 'num': ops.push({ op: NUM, lo: n.lo, hi: n.hi, width: n.width }); break;
        case 'alt': {
          const fork: Op & { op: typeof FORK } = { op: FORK, to: [] };
          ops.push(fork);
          const jumps: (Op & { op: typeof JMP })[] = [];
          for (const alt of n.alts) {
            fork.to.push(ops.length);
            emit(alt);
            const j: Op & { op: typeof JMP } = { op: JMP, to: -1 };
            jumps.push(j);
            ops.push(j);
          }
          for (const j of jumps) j.to = ops.length;
          break;
        }
      }
    }
  };
  emit(nodes);
  ops.push({ op: MATCH });
  const code = new Int32Array(ops.length);
  const arg = new Int32Array(ops.length);
  ops.forEach((o, pc) => {
    code[pc] = o.op;
    if (o.op === CHAR) arg[pc] = o.cp;
    else if (o.op === JMP) arg[pc] = o.to;
  });
  return { ops, separators: [...separators].map((c) => c.codePointAt(0)!), code, arg };
}

function inClass(op: { ranges: number[]; negated: boolean; noSep: boolean }, c: number, isSep: boolean): boolean {
  if (op.noSep && isSep) return false;
  let found = false;
  for (let k = 0; k < op.ranges.length && !found; k += 2) found = c >= op.ranges[k]! && c <= op.ranges[k + 1]!;
  return found !== op.negated;
}

/** How brace ranges write a number: plainly, or zero-padded to `width` when an end was written padded. */
function formatNum(v: number, width: number): string {
  const s = String(Math.abs(v));
  return (v < 0 ? '-' : '') + (width ? s.padStart(v < 0 ? width - 1 : width, '0') : s);
}

/**
 * Runs the program over `text` (whole-text match). Spends at most
 * `budget.steps` steps (deducted), else throws GlobBudgetError. The steps of
 * one position are at most twice the program's size plus the ranges of the
 * classes tried and the digits brace ranges read, so a match costs
 * O(program × text).
 */
export function runProgram(prog: Program, text: string, budget: GlobBudget): boolean {
  const { ops, separators, code, arg } = prog;
  const size = code.length;
  const cps: number[] = [];
  for (const ch of text) cps.push(ch.codePointAt(0)!);
  const n = cps.length;
  const mark = new Int32Array(size).fill(-1);
  const stack = new Int32Array(size * 2 + 8);
  let list = new Int32Array(size);
  let next = new Int32Array(size);
  let count = 0;
  let nextCount = 0;
  let steps = 0;
  // Adds pc, and whatever it reaches without reading a character, to `next` for position `at`.
  const add = (start: number, at: number) => {
    let top = 0;
    stack[top++] = start;
    while (top) {
      const pc = stack[--top]!;
      if (mark[pc] === at) continue;
      mark[pc] = at;
      steps++;
      const op = code[pc]!;
      if (op === JMP) stack[top++] = arg[pc]!;
      else if (op === FORK) {
        const to = (ops[pc] as { to: number[] }).to;
        for (let k = to.length - 1; k >= 0; k--) if (mark[to[k]!] !== at) stack[top++] = to[k]!;
      } else {
        next[nextCount++] = pc;
        if (op === STAR || op === SUPER) stack[top++] = pc + 1;
      }
    }
  };
  // Positions reached later by a brace range that read several characters.
  const pending = new Map<number, number[]>();
  let lastPending = -1;
  const spend = () => {
    globCounters.steps += steps;
    budget.steps -= steps;
    steps = 0;
    if (budget.steps < 0) throw new GlobBudgetError();
  };
  const swap = () => {
    const t = list;
    list = next;
    next = t;
    count = nextCount;
    nextCount = 0;
  };

  add(0, 0);
  swap();
  for (let i = 0; i < n; i++) {
    if (!count && lastPending <= i) break;
    const c = cps[i]!;
    const isSep = separators.includes(c);
    const at = i + 1;
    for (let k = 0; k < count; k++) {
      const pc = list[k]!;
      steps++;
      switch (code[pc]) {
        case CHAR: if (c === arg[pc]) add(pc + 1, at); break;
        case ONE: if (!isSep) add(pc + 1, at); break;
        case CLASS: {
          const op = ops[pc] as Op & { op: typeof CLASS };
          steps += op.ranges.length >> 1; // one comparison per range
          if (inClass(op, c, isSep)) add(pc + 1, at);
          break;
        }
        case STAR: if (!isSep) add(pc, at); break;
        case SUPER: add(pc, at); break;
        case NUM: {
          const op = ops[pc] as Op & { op: typeof NUM };
          let j = i;
          let written = '';
          if (cps[j] === 0x2d) { written = '-'; j++; }
          const start = written.length;
          while (j < n && written.length - start < MAX_NUM_DIGITS && cps[j]! >= 0x30 && cps[j]! <= 0x39) {
            written += String.fromCharCode(cps[j]!);
            j++;
            steps++;
            const v = Number(written);
            if (v < op.lo || v > op.hi || formatNum(v, op.width) !== written) continue;
            if (j === at) add(pc + 1, at);
            else {
              const later = pending.get(j) ?? [];
              later.push(pc + 1);
              pending.set(j, later);
              lastPending = Math.max(lastPending, j);
            }
          }
          break;
        }
        default: break; // MATCH only counts at the end
      }
    }
    const later = pending.get(at);
    if (later) {
      pending.delete(at);
      for (const pc of later) add(pc, at);
    }
    swap();
    spend();
  }
  spend();
  for (let k = 0; k < count; k++) if (code[list[k]!] === MATCH) return true;
  return false;
}
