import { badRequest, notFound } from '../../errors.js';
import type { VariableInput } from '../../../protocol/operation.js';
import type { Channel } from './channel.js';
import type { Engine } from './engine.js';
import { FunctionError, type Variables } from './variables.js';

/** The guard this part needs from Control: a channel in an application (404, else 409). */
export interface ControlledChannels {
  controlled(id: string): Channel;
}

/**
 * ARI's channel variable operations (getChannelVar(s), setChannelVar(s)):
 * reads answer at once, writes run on the channel's control queue.
 */
export class VariableAccess {
  constructor(
    private readonly eng: Engine,
    private readonly vars: Variables,
    private readonly guards: ControlledChannels,
    /** Most variables a client may leave on one channel (ARI_MAX_CHANNEL_VARIABLES); replacing one is always allowed. */
    private readonly maxChannelVariables: number,
  ) {}

  get(id: string, variable: string): string {
    if (!variable) throw badRequest('Variable name is required');
    const value = this.readVar(this.readable(id), variable);
    if (value === undefined) throw notFound('Provided variable was not found');
    return value;
  }

  /** getChannelVars: each name that is set, with its value (unset ones are left out). */
  getMany(id: string, names: string[]): Record<string, string> {
    const wanted = names.map((n) => n.trim()).filter(Boolean);
    if (!wanted.length) throw badRequest('Variable names are required');
    const ch = this.readable(id);
    const out: Record<string, string> = {};
    for (const name of wanted) {
      const value = this.readVar(ch, name);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  /** The channel a variable read is about. */
  private readable(id: string): Channel {
    // The spec guards this read like the other operations (409 outside an app); Asterisk does not,
    // and says "Provided channel was not found" for an unknown one.
    if (!this.eng.find(id)) throw notFound('Provided channel was not found');
    return this.guards.controlled(id);
  }

  private readVar(ch: Channel, variable: string): string | undefined {
    try {
      return this.vars.read(ch, variable);
    } catch (err) {
      if (err instanceof FunctionError) throw notFound('Unable to read provided function');
      throw err;
    }
  }

  set(id: string, variable: string, value: string | undefined, reportEvents: boolean): Promise<void> {
    if (!variable) throw badRequest('Variable name is required');
    const ch = this.guards.controlled(id);
    return this.eng.enqueue(ch, () => this.writeVar(ch, variable, value, reportEvents));
  }

  /**
   * setChannelVars: every variable in one turn of the control queue, in
   * the order given, each as setChannelVar would write it; the first that
   * fails stops the rest and answers 400.
   */
  setMany(id: string, list: VariableInput[]): Promise<void> {
    const ch = this.guards.controlled(id);
    const vars = list.map((v) => ({ ...v, name: v.name.trim() }));
    if (!vars.length) throw badRequest('Variables are required');
    if (vars.some((v) => !v.name)) throw badRequest('Variable name is required');
    return this.eng.enqueue(ch, () => {
      for (const v of vars) this.writeVar(ch, v.name, v.value, v.reportEvents);
    });
  }

  private writeVar(ch: Channel, variable: string, value: string | undefined, reportEvents: boolean): void {
    const vars = ch.d.vars;
    if (value !== undefined && !variable.endsWith(')') && !Object.hasOwn(vars, variable) && Object.keys(vars).length >= this.maxChannelVariables) {
      throw badRequest(`The channel already holds ${this.maxChannelVariables} variables`);
    }
    try {
      this.vars.write(ch, variable, value, reportEvents);
    } catch (err) {
      if (err instanceof FunctionError) throw badRequest('Failed to execute function');
      throw err;
    }
  }
}
