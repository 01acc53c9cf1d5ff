import { arch, hostname, release, type } from 'node:os';
import { userInfo } from 'node:os';
import * as op from '../../../protocol/ari/operations/asterisk.js';
import { badRequest } from '../../errors.js';
import type { AriBinder } from '../http/bind.js';
import { ariTimestamp } from '../../util/timestamp.js';
import { FunctionError } from '../engine/variables.js';
import type { Telephony } from '../telephony.js';

/** The version we report: Asterisk-shaped (clients parse the major), naming what we really are. */
export const SYSTEM_VERSION = '22.0.0-trunkline';

export function mountAsterisk(b: AriBinder, t: Pick<Telephony, 'engine' | 'vars' | 'modules' | 'logChannels' | 'dynamicConfig'>, maxChannels?: number): void {
  const { engine, vars, modules, logChannels, dynamicConfig } = t;
  b.mount(op.getInfo, (a) => {
    const want = new Set(a.only ?? ['build', 'system', 'config', 'status']);
    let user = 'trunkline';
    try {
      user = userInfo().username;
    } catch { /* no passwd entry */ }
    return {
      ...(want.has('build') ? { build: { os: type(), kernel: release(), options: '', machine: arch() === 'x64' ? 'x86_64' : arch(), date: ariTimestamp(engine.startedAt), user } } : {}),
      ...(want.has('system') ? { system: { version: SYSTEM_VERSION, entity_id: engine.entityId } } : {}),
      ...(want.has('config') ? {
        config: {
          name: hostname(),
          default_language: 'en',
          ...(maxChannels ? { max_channels: maxChannels } : {}),
          setid: { user, group: user },
        },
      } : {}),
      ...(want.has('status') ? { status: { startup_time: ariTimestamp(engine.startedAt), last_reload_time: ariTimestamp(modules.lastReload) } } : {}),
    };
  });
  b.mount(op.ping, () => ({ asterisk_id: engine.entityId, ping: 'pong', timestamp: ariTimestamp(engine.clock.now()) }));
  b.mount(op.getGlobalVar, (a) => {
    if (!a.variable) throw badRequest('Variable name is required');
    try {
      return { value: vars.read(null, a.variable) ?? '' };
    } catch (err) {
      if (err instanceof FunctionError) throw badRequest('Unable to read provided function');
      throw err;
    }
  });
  b.mount(op.setGlobalVar, (a) => {
    if (!a.variable) throw badRequest('Variable name is required');
    vars.setGlobal(a.variable, a.value);
  });
  b.mount(op.listModules, () => modules.list());
  b.mount(op.getModule, (a) => modules.get(a.moduleName));
  b.mount(op.loadModule, (a) => modules.load(a.moduleName));
  b.mount(op.unloadModule, (a) => modules.unload(a.moduleName));
  b.mount(op.reloadModule, (a) => modules.reload(a.moduleName));
  b.mount(op.listLogChannels, () => logChannels.list());
  b.mount(op.addLog, (a) => logChannels.add(a.logChannelName, a.configuration));
  b.mount(op.deleteLog, (a) => logChannels.remove(a.logChannelName));
  b.mount(op.rotateLog, (a) => logChannels.rotate(a.logChannelName));
  b.mount(op.getObject, (a) => dynamicConfig.get(a.configClass, a.objectType, a.id));
  b.mount(op.updateObject, (a) => dynamicConfig.update(a.configClass, a.objectType, a.id, a.fields));
  b.mount(op.deleteObject, (a) => dynamicConfig.remove(a.configClass, a.objectType, a.id));
}
