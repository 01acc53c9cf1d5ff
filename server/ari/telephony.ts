import type { ChannelRepo } from '../db/repos/channel-repo.js';
import { Calls } from './engine/calls.js';
import { Control } from './engine/control.js';
import { Engine, type EngineOptions } from './engine/engine.js';
import { FarEnd } from './engine/far-end.js';
import { Pbx } from './engine/pbx.js';
import { Variables } from './engine/variables.js';

export interface Telephony {
  engine: Engine;
  vars: Variables;
  calls: Calls;
  pbx: Pbx;
  control: Control;
  farEnd: FarEnd;
}

/** Wires the simulated telephony engine and restores the channels that were live at the last stop. */
export function createTelephony(opts: EngineOptions & { repo: ChannelRepo }): Telephony {
  const engine = new Engine(opts);
  const vars = new Variables(engine);
  const calls = new Calls(engine, vars);
  const pbx = new Pbx(engine, vars, calls);
  calls.pbx = pbx;
  const control = new Control(engine, calls, pbx, vars);
  const farEnd = new FarEnd(engine, calls, control);
  const restored = engine.restore(opts.repo.live());
  if (restored) opts.log.info({ channels: restored }, 'restored live channels');
  return { engine, vars, calls, pbx, control, farEnd };
}
