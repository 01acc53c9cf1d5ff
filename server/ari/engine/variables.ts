import { badRequest } from '../../errors.js';
import { formatCallerId, parseCallerId, type Party } from './callerid.js';
import type { Channel } from './channel.js';
import type { Engine } from './engine.js';
import { evaluate } from './expression.js';
import { emptyRedirecting, redirectingField } from './redirecting.js';
import { dialedCause } from './sip-cause-codes.js';
import { parseToneDetect, ToneDetectError } from './tone-detect.js';
import { transferHandlingOf, transferHandlingWritten } from './transfer-handling.js';

/** A dialplan function that does not exist or cannot be used as asked. */
export class FunctionError extends Error {}

/** Splits top-level comma-separated arguments (commas inside parentheses stay). */
export function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if (c === '(') depth++;
    else if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function parseCall(expr: string): { name: string; args: string } {
  const open = expr.indexOf('(');
  if (open <= 0 || !expr.endsWith(')')) throw new FunctionError(`Invalid function syntax: ${expr}`);
  return { name: expr.slice(0, open).trim().toUpperCase(), args: expr.slice(open + 1, -1) };
}

/** Variable names compare without the inheritance underscores (`_FOO` and `__FOO` are `FOO`). */
const bare = (name: string) => name.replace(/^_{1,2}/, '');
/** The channel, when it is a PJSIP one (the PJSIP_* functions refuse others). */
const pjsip = (ch: Channel): Channel => {
  if (ch.d.tech !== 'PJSIP') throw new FunctionError('This function requires a PJSIP channel');
  return ch;
};

const PRESENTATION_ALLOWED = { caller_presentation: 0, caller_presentation_txt: 'Presentation Allowed, Not Screened' };

/**
 * Channel variables, built-in variables and dialplan functions: reading,
 * writing (with the events Asterisk raises for each) and `${…}` substitution.
 */
export class Variables {
  constructor(
    private readonly eng: Engine,
    /** Most global variables a client may add (ARI_MAX_CHANNEL_VARIABLES); replacing or unsetting one always works. */
    private readonly maxGlobals: number,
    /** Told when TONE_DETECT changes a channel's detector, so it starts or stops listening. */
    private readonly toneDetectChanged: (ch: Channel) => void = () => {},
  ) {}

  /** Reads a variable or function for a snapshot's channelvars: a failing function reads as unset. */
  readForSnapshot(ch: Channel, name: string): string | undefined {
    try {
      return this.read(ch, name);
    } catch {
      return undefined;
    }
  }

  /** A plain variable: built-ins first, then the channel's variables, then globals (Asterisk's order). */
  private readPlain(ch: Channel | null, name: string): string | undefined {
    if (ch) {
      const d = ch.d;
      switch (name) {
        case 'CHANNEL': return d.name;
        case 'UNIQUEID': return d.id;
        case 'EXTEN': return d.dialplan.exten;
        case 'CONTEXT': return d.dialplan.context;
        case 'PRIORITY': return String(d.dialplan.priority);
        case 'LANGUAGE': return d.language;
        case 'ACCOUNTCODE': return d.accountcode;
        case 'HANGUPCAUSE': return d.hangupCause !== null ? String(d.hangupCause) : '';
        case 'CALLERIDNUM': return d.caller.number;
        case 'CALLERIDNAME': return d.caller.name;
      }
      const want = bare(name);
      for (const [k, val] of Object.entries(d.vars)) if (bare(k) === want) return val;
    }
    if (name === 'EPOCH') return String(Math.floor(this.eng.clock.now() / 1000));
    if (name === 'ENTITYID') return this.eng.entityId;
    if (name === 'SYSTEMNAME') return '';
    return this.eng.globals.get(name);
  }

  /** Reads a variable, or a function when the name ends in `)`; an unknown function throws FunctionError. */
  read(ch: Channel | null, name: string): string | undefined {
    return name.endsWith(')') ? this.readFunction(ch, name) : this.readPlain(ch, name);
  }

  private party(ch: Channel, fn: string): Party {
    return fn === 'CONNECTEDLINE' ? ch.d.connected : ch.d.caller;
  }

  readFunction(ch: Channel | null, expr: string): string {
    const { name, args } = parseCall(expr);
    const a = splitArgs(args).map((x) => x.trim());
    const need = () => {
      if (!ch) throw new FunctionError(`${name} requires a channel`);
      return ch;
    };
    switch (name) {
      case 'CALLERID':
      case 'CONNECTEDLINE': {
        const p = this.party(need(), name);
        switch ((a[0] ?? '').toLowerCase()) {
          case 'name': return p.name;
          case 'num': case 'number': return p.number;
          case 'all': return formatCallerId(p);
          case 'pres': return 'allowed_not_screened';
          default: throw new FunctionError(`Unknown ${name} data type '${a[0]}'`);
        }
      }
      case 'CHANNEL': {
        const c = need();
        switch ((a[0] ?? '').toLowerCase()) {
          case 'name': return c.d.name;
          case 'uniqueid': return c.d.id;
          case 'state': return c.d.state;
          case 'language': return c.d.language;
          case 'accountcode': return c.d.accountcode;
          case 'context': return c.d.dialplan.context;
          case 'exten': return c.d.dialplan.exten;
          case 'channeltype': return c.d.tech;
          case 'hangupsource': return '';
          case 'musicclass': return c.d.media.moh ?? '';
          case 'tenantid': return c.d.tenantid ?? '';
          default: throw new FunctionError(`Unknown or unavailable item requested: '${a[0]}'`);
        }
      }
      case 'REDIRECTING': {
        const field = redirectingField(need().d.redirecting ?? emptyRedirecting(), (a[0] ?? '').toLowerCase());
        if (!field) throw new FunctionError(`Unknown redirecting data type '${a[0]}'`);
        return field.get();
      }
      case 'TONE_DETECT': {
        const det = need().d.toneDetect;
        const dir = (a[0] ?? '').toLowerCase();
        if (dir !== 'rx' && dir !== 'tx') throw new FunctionError('TONE_DETECT reads rx or tx');
        if (!det) throw new FunctionError('No tone detector on this channel');
        return String(det.hits[dir]);
      }
      case 'LANGUAGE': return need().d.language;
      case 'HANGUPCAUSE': {
        if (a.length !== 2) throw new FunctionError('HANGUPCAUSE takes a channel name and a type');
        if (a[1] !== 'tech' && a[1] !== 'ast') throw new FunctionError(`Unknown cause type '${a[1]}'`);
        const found = dialedCause(need(), a[0]!, a[1]);
        if (found === undefined) throw new FunctionError(`No cause kept for channel ${a[0]}`);
        return found;
      }
      case 'HANGUPCAUSE_KEYS': return Object.keys(need().d.dialedCauses ?? {}).join(',');
      case 'LEN': return String(args.length);
      case 'ISNULL': return args === '' ? '1' : '0';
      case 'EXISTS': return args !== '' ? '1' : '0';
      case 'IF': {
        const q = args.indexOf('?');
        if (q < 0) throw new FunctionError('IF requires a ? separator');
        const [t = '', f = ''] = args.slice(q + 1).split(':');
        const cond = args.slice(0, q).trim();
        return cond !== '' && cond !== '0' ? t : f;
      }
      case 'INC':
      case 'DEC': {
        const c = need();
        const vname = a[0] ?? '';
        const cur = Number(this.readPlain(c, vname) ?? '0') || 0;
        const next = String(name === 'INC' ? cur + 1 : cur - 1);
        this.setPlain(c, vname, next, false);
        return next;
      }
      case 'GLOBAL': return this.eng.globals.get(a[0] ?? '') ?? '';
      case 'TOUPPER': return args.toUpperCase();
      case 'TOLOWER': return args.toLowerCase();
      case 'PJSIP_TRANSFER_HANDLING':
        return transferHandlingOf(pjsip(need()), this.eng.fixtures.endpoints);
      case 'HOLD_INTERCEPT':
      case 'TALK_DETECT':
        throw new FunctionError(`${name} is write-only`);
      default:
        throw new FunctionError(`Function ${name} not registered`);
    }
  }

  /**
   * Writes a variable or function. Plain variables raise ChannelVarset;
   * caller and connected-line functions raise ChannelCallerId /
   * ChannelConnectedLine instead. `undefined` unsets a plain variable.
   */
  write(ch: Channel, name: string, value: string | undefined, reportEvents = false): void {
    if (name.endsWith(')')) return this.writeFunction(ch, name, value ?? '');
    this.setPlain(ch, name, value, reportEvents);
  }

  private setPlain(ch: Channel, name: string, value: string | undefined, reportEvents: boolean): void {
    const want = bare(name);
    const existing = Object.keys(ch.d.vars).filter((k) => bare(k) === want);
    if (value === undefined && existing.length === 0) return;
    for (const k of existing) delete ch.d.vars[k];
    if (value !== undefined) ch.d.vars[name] = value;
    if (reportEvents && !ch.d.reported.includes(name)) {
      // Names unset since they were reported would pile up: at the bound, only set ones stay.
      if (ch.d.reported.length >= this.maxGlobals) ch.d.reported = ch.d.reported.filter((n) => Object.hasOwn(ch.d.vars, n));
      ch.d.reported.push(name);
    }
    this.eng.touch(ch);
    this.eng.emitChannel(ch, 'ChannelVarset', { variable: name, value: value ?? '' });
  }

  setGlobal(name: string, value: string | undefined): void {
    const globals = this.eng.globals;
    if (value !== undefined && !globals.has(name) && globals.size >= this.maxGlobals) throw badRequest(`There are already ${this.maxGlobals} global variables`);
    this.eng.setGlobal(name, value ?? null);
    this.eng.emit('ChannelVarset', { variable: name, value: value ?? '' }, this.eng.apps.subscribedToAll);
  }

  private writeFunction(ch: Channel, expr: string, value: string): void {
    const { name, args } = parseCall(expr);
    const a = splitArgs(args).map((x) => x.trim());
    const item = (a[0] ?? '').toLowerCase();
    switch (name) {
      case 'CALLERID':
      case 'CONNECTEDLINE': {
        const p = this.party(ch, name);
        const before = { ...p };
        if (item === 'name') p.name = value;
        else if (item === 'num' || item === 'number') p.number = value;
        else if (item === 'all') Object.assign(p, parseCallerId(value));
        else if (item === 'pres' || item === 'name-pres' || item === 'num-pres') return;
        else throw new FunctionError(`Unknown ${name} data type '${a[0]}'`);
        // As in Asterisk, the event comes from comparing snapshots: a write that changes nothing raises none.
        if (p.name === before.name && p.number === before.number) return;
        this.eng.touch(ch);
        if (name === 'CALLERID') this.eng.emitChannel(ch, 'ChannelCallerId', PRESENTATION_ALLOWED);
        else this.eng.emitChannel(ch, 'ChannelConnectedLine', {});
        return;
      }
      case 'CHANNEL':
        if (item === 'language') ch.d.language = value;
        else if (item === 'accountcode') ch.d.accountcode = value;
        else if (item === 'musicclass') return;
        else if (item === 'tenantid') ch.d.tenantid = value;
        else throw new FunctionError(`Unknown or unavailable item requested: '${a[0]}'`);
        this.eng.touch(ch);
        return;
      case 'LANGUAGE':
        ch.d.language = value;
        this.eng.touch(ch);
        return;
      case 'HOLD_INTERCEPT':
        if (item !== 'set' && item !== 'remove') throw new FunctionError(`HOLD_INTERCEPT: unknown action '${a[0]}'`);
        ch.d.flags.holdIntercept = item === 'set';
        this.eng.touch(ch);
        return;
      case 'PJSIP_TRANSFER_HANDLING': {
        const mode = transferHandlingWritten(a[0], value);
        if (!mode) throw new FunctionError(`PJSIP_TRANSFER_HANDLING: unknown mode '${value || a[0] || ''}' (core or ari-only)`);
        pjsip(ch).d.transferHandling = mode;
        this.eng.touch(ch);
        return;
      }
      case 'TALK_DETECT':
        if (item !== 'set' && item !== 'remove') throw new FunctionError(`TALK_DETECT: unknown action '${a[0]}'`);
        ch.d.flags.talkDetect = item === 'set';
        this.eng.touch(ch);
        return;
      case 'GLOBAL':
        this.setGlobal(a[0] ?? '', value);
        return;
      case 'REDIRECTING': {
        const r = ch.d.redirecting ?? emptyRedirecting();
        const field = redirectingField(r, item);
        if (!field) throw new FunctionError(`Unknown redirecting data type '${a[0]}'`);
        field.set(value);
        ch.d.redirecting = r;
        this.eng.touch(ch);
        return;
      }
      case 'TONE_DETECT':
        try {
          const next = parseToneDetect(a, ch.d.toneDetect);
          // Removing a detector the channel does not have fails, as in Asterisk.
          if (!next && !ch.d.toneDetect) throw new FunctionError('No tone detector to remove');
          ch.d.toneDetect = next;
        } catch (err) {
          if (err instanceof ToneDetectError) throw new FunctionError(err.message);
          throw err;
        }
        this.eng.touch(ch);
        this.toneDetectChanged(ch);
        return;
      default:
        throw new FunctionError(`Function ${name} not registered`);
    }
  }

  /** Expands `${VAR}`, `${VAR:offset:length}`, `${FUNC(args)}` and `$[expression]`, innermost first. */
  substitute(ch: Channel | null, text: string): string {
    let out = '';
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '$' && (text[i + 1] === '{' || text[i + 1] === '[')) {
        const open = text[i + 1]!;
        const close = open === '{' ? '}' : ']';
        let depth = 1;
        let j = i + 2;
        for (; j < text.length && depth > 0; j++) {
          if (text[j] === open) depth++;
          else if (text[j] === close) depth--;
        }
        if (depth !== 0) {
          out += text.slice(i);
          break;
        }
        const inner = this.substitute(ch, text.slice(i + 2, j - 1));
        out += open === '[' ? evaluate(inner) : this.expand(ch, inner);
        i = j;
      } else {
        out += c;
        i++;
      }
    }
    return out;
  }

  private expand(ch: Channel | null, inner: string): string {
    let name = inner;
    let offset: number | undefined;
    let length: number | undefined;
    if (!inner.endsWith(')')) {
      const m = /^([^:]+):(-?\d+)(?::(-?\d+))?$/.exec(inner);
      if (m) {
        name = m[1]!;
        offset = Number(m[2]);
        length = m[3] !== undefined ? Number(m[3]) : undefined;
      }
    }
    let val: string;
    try {
      val = this.read(ch, name) ?? '';
    } catch {
      val = '';
    }
    if (offset !== undefined) {
      const start = offset < 0 ? Math.max(0, val.length + offset) : offset;
      const end = length === undefined ? val.length : length < 0 ? val.length + length : start + length;
      val = val.slice(start, Math.max(start, end));
    }
    return val;
  }
}
