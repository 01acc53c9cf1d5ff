import type { ModelOf } from '../../../protocol/model.js';
import type { ScriptStep, SimEndpointScript } from '../../../protocol/sim/script.js';
import type { EndpointRepo } from '../../db/repos/endpoint-repo.js';
import { notFound } from '../../errors.js';
import type { EndpointFixture } from '../fixtures.js';
import type { Engine } from './engine.js';

type View = ModelOf<typeof SimEndpointScript>;

/** A script set through the simulation API, and how many more calls follow it (null: all). */
interface SetScript {
  steps: ScriptStep[];
  calls: number | null;
}

/**
 * The scripts calls we place to endpoints follow: one set through the
 * simulation API (for its next N calls, or all of them) wins over the
 * endpoint's default script from the fixtures. Set scripts are stored in
 * SQLite within the group commit, so they survive a restart.
 */
export class EndpointScripts {
  /** Set scripts by endpoint key, lower-cased (endpoint names match without regard to case). */
  private readonly set = new Map<string, SetScript>();

  constructor(
    private readonly eng: Pick<Engine, 'fixtures' | 'deferWrite'>,
    private readonly repo: Pick<EndpointRepo, 'scripts' | 'putScript' | 'removeScript'>,
  ) {
    for (const row of repo.scripts()) this.set.set(row.endpoint.toLowerCase(), { steps: JSON.parse(row.script) as ScriptStep[], calls: row.calls });
  }

  /** The script the endpoint's next call follows, as GET …/script shows it; undefined when it has none. */
  view(e: EndpointFixture): View | undefined {
    const s = this.set.get(e.key.toLowerCase());
    if (s) return { script: s.steps, ...(s.calls !== null ? { calls: s.calls } : {}), source: 'api' };
    return e.script ? { script: e.script, source: 'fixture' } : undefined;
  }

  /** GET …/script: 404 when the endpoint has no script. */
  get(e: EndpointFixture): View {
    const v = this.view(e);
    if (!v) throw notFound('Endpoint has no script');
    return v;
  }

  /** The next `calls` calls (all when null) follow `steps`, replacing any script set before. */
  put(e: EndpointFixture, steps: ScriptStep[], calls: number | null): View {
    this.set.set(e.key.toLowerCase(), { steps, calls });
    this.store(e.key);
    return this.view(e)!;
  }

  /** Back to the fixture's behaviour. */
  remove(e: EndpointFixture): void {
    if (this.set.delete(e.key.toLowerCase())) this.store(e.key);
  }

  /** The script a call we now place to the endpoint follows (counting it against a set script's calls), if any. */
  claim(e: EndpointFixture): ScriptStep[] | undefined {
    const k = e.key.toLowerCase();
    const s = this.set.get(k);
    if (!s) return e.script;
    if (s.calls !== null) {
      s.calls -= 1;
      if (s.calls <= 0) this.set.delete(k);
      this.store(e.key);
    }
    return s.steps;
  }

  private store(key: string): void {
    const s = this.set.get(key.toLowerCase());
    this.eng.deferWrite(() => (s ? this.repo.putScript({ endpoint: key, script: JSON.stringify(s.steps), calls: s.calls }) : this.repo.removeScript(key)));
  }
}
