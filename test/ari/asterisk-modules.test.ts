import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { restartableServer } from '../_helpers/child.js';
import { useServer } from '../_helpers/suite.js';
import { pollUntil } from '../_helpers/wait.js';

// ARI's asterisk/modules: a fixed catalogue, use counts from dependent modules and live PJSIP
// channels, unload/load kept in SQLite, reload moving the last reload time, and res_pjsip's
// configuration class gone while res_pjsip.so is unloaded.
const test = suite('asterisk-modules');
const ctx = useServer(test, { events: { ev: 'mod-app' } });

const mod = (name: string) => `/ari/asterisk/modules/${encodeURIComponent(name)}`;
type Mod = { name: string; description: string; use_count: number; status: string; support_level: string };
const list = async (): Promise<Mod[]> => (await ctx.t.http('GET', '/ari/asterisk/modules')).body;
const one = async (name: string): Promise<Mod> => (await list()).find((m) => m.name === name)!;

test('list: the whole catalogue in name order, every module Running, with use counts and support levels', async () => {
  const r = await ctx.t.http('GET', '/ari/asterisk/modules');
  assert.is(r.status, 200);
  const names = r.body.map((m: Mod) => m.name);
  assert.equal(names, [...names].sort());
  assert.ok(names.length >= 40, `${names.length} modules`);
  for (const name of ['app_dial.so', 'app_voicemail.so', 'chan_pjsip.so', 'res_ari.so', 'res_pjsip.so', 'res_stasis.so', 'res_musiconhold.so']) assert.ok(names.includes(name), name);
  assert.ok(r.body.every((m: Mod) => m.status === 'Running'));
  assert.equal(r.body.find((m: Mod) => m.name === 'app_dial.so'), {
    name: 'app_dial.so', description: 'Dial(): calls endpoints from the dialplan', use_count: 0, status: 'Running', support_level: 'core',
  });
  assert.is((await one('app_morsecode.so')).support_level, 'extended');
  // chan_pjsip.so and res_pjsip_session.so need res_pjsip.so; the ARI modules need res_ari.so.
  assert.is((await one('res_pjsip.so')).use_count, 2);
  assert.is((await one('res_pjsip_session.so')).use_count, 1);
  assert.is((await one('res_ari.so')).use_count, 11);
  assert.is((await one('chan_pjsip.so')).use_count, 0);
});

test('get: the listed name → 200; another spelling of a loaded module → 409; an unknown one → 404', async () => {
  const r = await ctx.t.http('GET', mod('res_musiconhold.so'));
  assert.is(r.status, 200);
  assert.equal(r.body, { name: 'res_musiconhold.so', description: 'Music on hold classes', use_count: 0, status: 'Running', support_level: 'core' });
  for (const name of ['res_musiconhold', 'RES_MUSICONHOLD.SO']) {
    const other = await ctx.t.http('GET', mod(name));
    assert.is(other.status, 409, name);
    assert.equal(other.body, { message: 'Module information could not be retrieved' });
  }
  const missing = await ctx.t.http('GET', mod('chan_sip.so'));
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Module could not be found in running modules' });
});

test('unload then load: Not Running in the list, 404 while unloaded, 409 for a second load or an unknown module', async () => {
  assert.is((await ctx.t.http('DELETE', mod('app_voicemail.so'))).status, 204);
  assert.equal(await one('app_voicemail.so'), { name: 'app_voicemail.so', description: 'Voicemail and message-waiting counts', use_count: 0, status: 'Not Running', support_level: 'core' });
  assert.equal((await ctx.t.http('GET', mod('app_voicemail.so'))).body, { message: 'Module could not be found in running modules' });
  for (const method of ['DELETE', 'PUT'] as const) {
    const r = await ctx.t.http(method, mod('app_voicemail.so'));
    assert.is(r.status, 404, method);
    assert.equal(r.body, { message: 'Module not found in running modules' });
  }
  // Loaded by another spelling of its name.
  assert.is((await ctx.t.http('POST', mod('app_voicemail'))).status, 204);
  assert.is((await one('app_voicemail.so')).status, 'Running');
  const again = await ctx.t.http('POST', mod('app_voicemail.so'));
  assert.is(again.status, 409);
  assert.equal(again.body, { message: 'Module is already loaded' });
  const unknown = await ctx.t.http('POST', mod('app_nosuch.so'));
  assert.is(unknown.status, 409);
  assert.equal(unknown.body, { message: 'Module load declined' });
  assert.not.ok((await list()).some((m) => m.name === 'app_nosuch.so'));
});

test('in use: modules others need, ARI modules, and chan_pjsip with a live PJSIP channel → 409 on unload', async () => {
  for (const name of ['res_pjsip.so', 'res_stasis.so', 'res_ari_channels.so', 'res_ari_asterisk.so', 'res_http_websocket.so']) {
    const r = await ctx.t.http('DELETE', mod(name));
    assert.is(r.status, 409, name);
    assert.equal(r.body, { message: 'Module could not be unloaded' });
  }
  const call = await originateInApp(ctx.t, ctx.ev, { app: 'mod-app', id: 'mod-call' });
  assert.is((await one('chan_pjsip.so')).use_count, 1);
  assert.is((await ctx.t.http('DELETE', mod('chan_pjsip.so'))).status, 409);
  await hangupAndWait(ctx.t, ctx.ev, call.id);
  assert.is((await one('chan_pjsip.so')).use_count, 0);
});

test('res_pjsip unloaded (after chan_pjsip and res_pjsip_session): its configuration class is gone until it is loaded again', async () => {
  const alice = '/ari/asterisk/config/dynamic/res_pjsip/endpoint/alice';
  assert.is((await ctx.t.http('GET', alice)).status, 200);
  for (const name of ['chan_pjsip.so', 'res_pjsip_session.so', 'res_pjsip.so']) assert.is((await ctx.t.http('DELETE', mod(name))).status, 204, name);
  const gone = await ctx.t.http('GET', alice);
  assert.is(gone.status, 404);
  assert.equal(gone.body, { message: "configClass 'res_pjsip' not found" });
  // A module whose needs are not loaded is declined.
  assert.equal((await ctx.t.http('POST', mod('chan_pjsip.so'))).body, { message: 'Module load declined' });
  for (const name of ['res_pjsip.so', 'res_pjsip_session.so', 'chan_pjsip.so']) assert.is((await ctx.t.http('POST', mod(name))).status, 204, name);
  assert.is((await ctx.t.http('GET', alice)).status, 200);
  assert.is((await one('res_pjsip.so')).use_count, 2);
});

test('reload: 204 for a module with configuration, and asterisk/info\'s last_reload_time moves; 409 for one without', async () => {
  const info = async () => (await ctx.t.http('GET', '/ari/asterisk/info', { query: { only: 'status' } })).body.status;
  const before = await info();
  assert.is(before.last_reload_time, before.startup_time);
  // Past the start time by at least a millisecond, so the new reload time is visibly later.
  assert.ok(await pollUntil(async () => (await ctx.t.http('GET', '/ari/asterisk/ping')).body.timestamp > before.startup_time));
  assert.is((await ctx.t.http('PUT', mod('res_pjsip.so'))).status, 204);
  const after = await info();
  assert.is(after.startup_time, before.startup_time);
  assert.ok(after.last_reload_time > after.startup_time, JSON.stringify(after));
  const no = await ctx.t.http('PUT', mod('app_dial.so'));
  assert.is(no.status, 409);
  assert.equal(no.body, { message: 'Module does not support reloading' });
  assert.is((await info()).last_reload_time, after.last_reload_time);
});

test('restart: an unloaded module stays unloaded after SIGKILL; one loaded again stays loaded', async () => {
  const servers = restartableServer('modules-restart');
  try {
    let server = await servers.start();
    assert.is((await server.http('DELETE', mod('app_morsecode.so'))).status, 204);
    assert.is((await server.http('DELETE', mod('app_echo.so'))).status, 204);
    assert.is((await server.http('POST', mod('app_echo.so'))).status, 204);
    await servers.kill();
    server = await servers.start();
    const mods: Mod[] = (await server.http('GET', '/ari/asterisk/modules')).body;
    assert.is(mods.find((m) => m.name === 'app_morsecode.so')!.status, 'Not Running');
    assert.is(mods.find((m) => m.name === 'app_echo.so')!.status, 'Running');
    assert.is((await server.http('GET', mod('app_morsecode.so'))).status, 404);
    server.assertNoViolations();
  } finally {
    await servers.cleanup();
  }
});

test.run();
