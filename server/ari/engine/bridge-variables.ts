import { badRequest, notFound } from '../../errors.js';
import type { VariableInput } from '../../../protocol/operation.js';

/** A bridge as this part sees it: its stored variables and the names it reports. */
interface VariableHolder {
  d: { vars?: Record<string, string>; reported?: string[] };
}

/** What this part needs from Bridges: a bridge by id (404 otherwise) and a way to store it. */
export interface BridgeStore<B extends VariableHolder> {
  get(id: string): B;
  save(b: B): void;
}

/**
 * Bridge variables through ARI (getBridgeVar(s), setBridgeVar(s)). They are
 * plain variables: a bridge runs no dialplan, so a function name is refused.
 * Setting one raises no event; reported ones show in the bridge's bridgevars.
 */
export class BridgeVariables<B extends VariableHolder> {
  constructor(
    private readonly bridges: BridgeStore<B>,
    /** Most variables one bridge may hold (the channel limit, ARI_MAX_CHANNEL_VARIABLES); replacing one is always allowed. */
    private readonly maxVariables: number,
  ) {}

  get(id: string, name: string): string {
    const value = this.read(this.bridges.get(id), name);
    if (value === undefined) throw notFound('Provided variable was not found');
    return value;
  }

  /** Each name that is set, with its value. */
  getMany(id: string, names: string[]): Record<string, string> {
    const wanted = names.map((n) => n.trim()).filter(Boolean);
    if (!wanted.length) throw badRequest('Variable names are required');
    const b = this.bridges.get(id);
    const out: Record<string, string> = {};
    for (const n of wanted) {
      const value = this.read(b, n);
      if (value !== undefined) out[n] = value;
    }
    return out;
  }

  set(id: string, name: string, value: string | undefined, reportEvents: boolean): void {
    this.setMany(id, [{ name, value: value as string, reportEvents }], value === undefined);
  }

  /** Writes in the order given; the first refused name stops the rest (400). `unset` removes instead. */
  setMany(id: string, list: VariableInput[], unset = false): void {
    const b = this.bridges.get(id);
    const vars = list.map((v) => ({ ...v, name: v.name.trim() }));
    if (!vars.length) throw badRequest('Variables are required');
    try {
      for (const v of vars) {
        if (!v.name) throw badRequest('Variable name is required');
        if (v.name.endsWith(')')) throw badRequest('Failed to execute function');
        const held = (b.d.vars ??= {});
        if (unset) {
          delete held[v.name];
          continue;
        }
        if (!Object.hasOwn(held, v.name) && Object.keys(held).length >= this.maxVariables) throw badRequest(`The bridge already holds ${this.maxVariables} variables`);
        held[v.name] = v.value;
        if (v.reportEvents && !(b.d.reported ??= []).includes(v.name)) {
          // Names unset since they were reported would pile up: at the bound, only set ones stay.
          if (b.d.reported.length >= this.maxVariables) b.d.reported = b.d.reported.filter((n) => Object.hasOwn(held, n));
          b.d.reported.push(v.name);
        }
      }
    } finally {
      this.bridges.save(b);
    }
  }

  private read(b: B, name: string): string | undefined {
    if (name.endsWith(')')) throw notFound('Unable to read provided function');
    return b.d.vars && Object.hasOwn(b.d.vars, name) ? b.d.vars[name] : undefined;
  }
}
