import type { ModelOf } from '../../../protocol/model.js';
import type { Module } from '../../../protocol/ari/models/asterisk.js';
import type { AsteriskConfigRepo } from '../../db/repos/asterisk-config-repo.js';
import { conflict, notFound } from '../../errors.js';
import type { Engine } from './engine.js';
import { MODULE_CATALOGUE, type CatalogueModule } from './module-catalogue.js';

type ModuleModel = ModelOf<typeof Module>;
type ModuleRepo = Pick<AsteriskConfigRepo, 'moduleStates' | 'putModuleState'>;

/** A name as Asterisk matches modules: without regard to case or to a `.so` ending. */
const baseName = (name: string) => name.replace(/\.so$/i, '').toLowerCase();

/**
 * The module catalogue and which modules are loaded (kept in SQLite, so an
 * unload outlives a restart). A module's use count is the loaded modules
 * that need it, plus, for chan_pjsip, its live channels; a module in use, or
 * one serving ARI, is not unloaded. Reloading moves the server's last reload
 * time. Other parts ask `isRunning` where a module's absence shows.
 */
export class Modules {
  private readonly running = new Map<string, boolean>();
  private readonly byBase = new Map<string, CatalogueModule>();
  private reloadedAt: number;
  /** What runs when a module is reloaded, by module name. */
  private readonly reloadHooks = new Map<string, Array<() => void>>();

  constructor(
    private readonly eng: Pick<Engine, 'all' | 'clock' | 'startedAt'>,
    private readonly repo: ModuleRepo,
  ) {
    const stored = repo.moduleStates();
    for (const m of MODULE_CATALOGUE) {
      this.byBase.set(baseName(m.name), m);
      this.running.set(m.name, stored.get(m.name) ?? true);
    }
    this.reloadedAt = eng.startedAt;
  }

  /** When a module was last reloaded (the start time until then). */
  get lastReload(): number {
    return this.reloadedAt;
  }

  /** True while the module (any spelling of its name) is loaded. */
  isRunning(name: string): boolean {
    const m = this.byBase.get(baseName(name));
    return !!m && this.running.get(m.name) === true;
  }

  /** Every module of the catalogue, in name order, loaded or not. */
  list(): ModuleModel[] {
    return [...MODULE_CATALOGUE].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1)).map((m) => this.model(m));
  }

  get(name: string): ModuleModel {
    const m = this.loaded(name, 'Module could not be found in running modules');
    // Asterisk finds the module by any spelling but then looks for the exact listed name.
    if (m.name !== name) throw conflict('Module information could not be retrieved');
    return this.model(m);
  }

  load(name: string): void {
    if (this.isRunning(name)) throw conflict('Module is already loaded');
    const m = this.byBase.get(baseName(name));
    if (!m || !(m.needs ?? []).every((n) => this.isRunning(n))) throw conflict('Module load declined');
    this.set(m, true);
  }

  unload(name: string): void {
    const m = this.loaded(name, 'Module not found in running modules');
    if (m.servesAri || this.useCount(m) > 0) throw conflict('Module could not be unloaded');
    this.set(m, false);
  }

  reload(name: string): void {
    const m = this.loaded(name, 'Module not found in running modules');
    if (!m.reloads) throw conflict('Module does not support reloading');
    this.reloadedAt = this.eng.clock.now();
    for (const hook of this.reloadHooks.get(m.name) ?? []) hook();
  }

  /** Runs `hook` on every reload of the module `name` (res_ari.so: the outbound WebSockets read their configuration again). */
  onReload(name: string, hook: () => void): void {
    const list = this.reloadHooks.get(name) ?? [];
    list.push(hook);
    this.reloadHooks.set(name, list);
  }

  private loaded(name: string, missing: string): CatalogueModule {
    const m = this.byBase.get(baseName(name));
    if (!m || !this.running.get(m.name)) throw notFound(missing);
    return m;
  }

  private set(m: CatalogueModule, running: boolean): void {
    this.running.set(m.name, running);
    this.repo.putModuleState(m.name, running);
  }

  private useCount(m: CatalogueModule): number {
    let n = 0;
    for (const other of MODULE_CATALOGUE) if (this.running.get(other.name) && other.needs?.includes(m.name)) n++;
    if (m.name === 'chan_pjsip.so') for (const ch of this.eng.all()) if (ch.d.tech === 'PJSIP' && ch.d.ended === null) n++;
    return n;
  }

  private model(m: CatalogueModule): ModuleModel {
    const running = this.running.get(m.name) === true;
    return { name: m.name, description: m.description, use_count: running ? this.useCount(m) : 0, status: running ? 'Running' : 'Not Running', support_level: m.support };
  }
}
