import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, hangupAndWait } from '../_helpers/ari.js';
import type { AriEvent } from '../_helpers/events.js';
import type { AriHttp } from '../_helpers/http.js';
import { useServer } from '../_helpers/suite.js';

// What clients make the server keep is bounded. With ARI_MAX_STORED_OBJECTS=3 one more Stasis device
// state, mailbox, dynamic res_pjsip object of a type, run-time log channel or device subscription of
// an application is a 400 naming the limit, and nothing is made; changing a kept one still works and
// a delete frees room. With SIM_FAR_END_KEEP=2 the far end's lists keep their newest two entries.
// With ARI_MAX_CHANNEL_VARIABLES=3 the names reported in channelvars / bridgevars stay bounded too.
const test = suite('stored-limits');
const ctx = useServer(test, {
  env: { ARI_MAX_STORED_OBJECTS: '3', SIM_FAR_END_KEEP: '2', ARI_MAX_CHANNEL_VARIABLES: '3' },
  events: { ev: 'app1', reg: 'limits-reg' },
});

const http: AriHttp = (method, path, opts) => ctx.t.http(method, path, opts);
async function expectStatus(p: Promise<{ status: number; text: string }>, status: number, what: string): Promise<void> {
  const r = await p;
  assert.is(r.status, status, `${what}: ${r.text}`);
}
async function expectRefused(p: Promise<{ status: number; body: unknown }>, message: string): Promise<void> {
  const r = await p;
  assert.is(r.status, 400);
  assert.equal(r.body, { message });
}

test('Stasis device states: the fourth is refused, a kept one still changes, a delete frees room', async () => {
  const put = (name: string, deviceState: string) => http('PUT', `/ari/deviceStates/Stasis:${name}`, { query: { deviceState } });
  for (const name of ['a', 'b', 'c']) await expectStatus(put(name, 'INUSE'), 204, name);
  await expectRefused(put('d', 'INUSE'), 'There are already 3 Stasis device states');
  assert.equal((await http('GET', '/ari/deviceStates/Stasis:d')).body, { name: 'Stasis:d', state: 'UNKNOWN' });
  await expectStatus(put('a', 'BUSY'), 204, 'update a');
  await expectStatus(http('DELETE', '/ari/deviceStates/Stasis:b'), 204, 'delete b');
  await expectStatus(put('d', 'RINGING'), 204, 'd after the delete');
  assert.equal((await http('GET', '/ari/deviceStates')).body, [
    { name: 'Stasis:a', state: 'BUSY' }, { name: 'Stasis:c', state: 'INUSE' }, { name: 'Stasis:d', state: 'RINGING' },
  ]);
});

test('mailboxes: the fourth is refused, a kept one still changes, a delete frees room', async () => {
  const put = (name: string, n: number) => http('PUT', `/ari/mailboxes/${name}`, { query: { oldMessages: 0, newMessages: n } });
  for (const name of ['m1', 'm2', 'm3']) await expectStatus(put(name, 1), 204, name);
  await expectRefused(put('m4', 1), 'There are already 3 mailboxes');
  assert.is((await http('GET', '/ari/mailboxes/m4')).status, 404);
  await expectStatus(put('m1', 7), 204, 'update m1');
  await expectStatus(http('DELETE', '/ari/mailboxes/m2'), 204, 'delete m2');
  await expectStatus(put('m4', 2), 204, 'm4 after the delete');
  assert.equal((await http('GET', '/ari/mailboxes')).body, [
    { name: 'm1', old_messages: 0, new_messages: 7 }, { name: 'm3', old_messages: 0, new_messages: 1 }, { name: 'm4', old_messages: 0, new_messages: 2 },
  ]);
});

test('dynamic res_pjsip objects: three of each type; the fourth endpoint is refused and never becomes an endpoint', async () => {
  const obj = (type: string, id: string) => `/ari/asterisk/config/dynamic/res_pjsip/${type}/${id}`;
  const put = (type: string, id: string, fields: Record<string, string> = {}) =>
    http('PUT', obj(type, id), { json: { fields: Object.entries(fields).map(([attribute, value]) => ({ attribute, value })) } });
  for (const id of ['lim1', 'lim2', 'lim3']) await expectStatus(put('endpoint', id), 200, id);
  await expectRefused(put('endpoint', 'lim4'), 'There are already 3 endpoint objects');
  assert.is((await http('GET', obj('endpoint', 'lim4'))).status, 404);
  assert.is((await http('GET', '/ari/endpoints/PJSIP/lim4')).status, 404);
  // The fixture endpoints do not count, and each type has its own room.
  await expectStatus(put('aor', 'lim4'), 200, 'an aor');
  await expectStatus(put('endpoint', 'LIM1', { language: 'fr' }), 200, 'update lim1');
  await expectStatus(http('DELETE', obj('endpoint', 'lim2')), 204, 'delete lim2');
  await expectStatus(put('endpoint', 'lim4'), 200, 'lim4 after the delete');
  assert.is((await http('GET', '/ari/endpoints/PJSIP/lim4')).status, 200);
});

test('log channels added at run time: the fourth is refused; the configured ones do not count; a delete frees room', async () => {
  const add = (name: string) => http('POST', `/ari/asterisk/logging/${name}`, { query: { configuration: 'notice' } });
  for (const name of ['one.log', 'two.log', 'three.log']) await expectStatus(add(name), 204, name);
  await expectRefused(add('four.log'), 'There are already 3 log channels added at run time');
  // An existing name is still a conflict, not a limit.
  assert.is((await add('one.log')).status, 409);
  const channels = async () => ((await http('GET', '/ari/asterisk/logging')).body as Array<{ channel: string }>).map((c) => c.channel);
  assert.equal(await channels(), ['/var/log/asterisk/three.log', '/var/log/asterisk/two.log', '/var/log/asterisk/one.log', '/var/log/asterisk/messages.log', '']);
  await expectStatus(http('DELETE', '/ari/asterisk/logging/two.log'), 204, 'delete two.log');
  await expectStatus(add('four.log'), 204, 'four.log after the delete');
  assert.equal((await channels()).slice(0, 3), ['/var/log/asterisk/four.log', '/var/log/asterisk/three.log', '/var/log/asterisk/one.log']);
});

test('device subscriptions of one application: past three the request is refused whole; known names are free; an unsubscribe frees room', async () => {
  const sub = (method: string, ...devices: string[]) => http(method, '/ari/applications/app1/subscription', { query: { eventSource: devices.map((d) => `deviceState:${d}`).join(',') } });
  const names = async () => ((await http('GET', '/ari/applications/app1')).body as { device_names: string[] }).device_names;
  await expectStatus(sub('POST', 'Stasis:s1', 'Stasis:s2'), 200, 'two');
  await expectRefused(sub('POST', 'Stasis:s3', 'Stasis:s4'), 'An application may be subscribed to at most 3 devices');
  assert.equal(await names(), ['Stasis:s1', 'Stasis:s2']);
  await expectStatus(sub('POST', 'Stasis:s1', 'Stasis:s3'), 200, 'one known, one new');
  await expectStatus(sub('POST', 'Stasis:s2'), 200, 'known again');
  await expectRefused(sub('POST', 'Stasis:s4'), 'An application may be subscribed to at most 3 devices');
  await expectStatus(sub('DELETE', 'Stasis:s1'), 200, 'unsubscribe s1');
  await expectStatus(sub('POST', 'Stasis:s4'), 200, 's4 after the unsubscribe');
  assert.equal(await names(), ['Stasis:s2', 'Stasis:s3', 'Stasis:s4']);
});

test('the far end keeps its newest two messages and REFERs, oldest first', async () => {
  for (const body of ['first', 'second', 'third']) {
    await expectStatus(http('PUT', '/ari/endpoints/sendMessage', { query: { to: 'pjsip:alice', from: 'sip:pbx@example.com', body } }), 202, body);
  }
  for (const target of ['pjsip:one', 'pjsip:two', 'pjsip:three']) {
    await expectStatus(http('POST', '/ari/endpoints/refer', { query: { to: 'pjsip:alice', from: 'sip:pbx@example.com', refer_to: target } }), 202, target);
  }
  const far = (await http('GET', '/sim/endpoints/PJSIP/alice')).body as { messages: Array<{ body: string }>; refers: Array<{ refer_to: string }> };
  assert.equal(far.messages.map((m) => m.body), ['second', 'third']);
  assert.equal(far.refers.map((r) => r.refer_to), ['pjsip:two', 'pjsip:three']);
});

test('the far end keeps the newest two transfer NOTIFYs of a channel', async () => {
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'limits-notify' });
  for (const states of ['channel_progress', 'channel_unavailable', 'channel_declined']) {
    await expectStatus(http('POST', `/ari/channels/${id}/transfer_progress`, { query: { states } }), 204, states);
  }
  assert.equal(((await http('GET', `/sim/channels/${id}`)).body as { far_end: { transfer_notify: number[] } }).far_end.transfer_notify, [503, 603]);
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('contacts: a third registration displaces the contact that expires soonest (Removed); a refresh displaces nothing', async () => {
  await expectStatus(http('POST', '/ari/applications/limits-reg/subscription', { query: { eventSource: 'endpoint:PJSIP/bob' } }), 200, 'subscribe');
  const contacts = '/sim/endpoints/PJSIP/bob/contacts';
  const register = (uri: string, expires: number) => http('POST', contacts, { query: { uri, expires } });
  const isContact = (e: AriEvent) => e.type === 'ContactStatusChange' && e.endpoint?.resource === 'bob';
  // Expiries far beyond any wait of the test, even at the test time scale.
  await expectStatus(register('sip:bob@192.0.2.1', 80000), 204, 'first');
  await expectStatus(register('sip:bob@192.0.2.2', 40000), 204, 'second');
  const before = ctx.reg.events.filter(isContact).length;
  await expectStatus(register('sip:bob@192.0.2.3', 86400), 204, 'third');
  await ctx.reg.waitForCount(isContact, before + 3);
  assert.equal(ctx.reg.events.filter(isContact).slice(before).map((e) => `${e.contact_info.uri} ${e.contact_info.contact_status}`), [
    'sip:bob@192.0.2.3 NonQualified', 'sip:bob@192.0.2.3 Unknown', 'sip:bob@192.0.2.2 Removed',
  ]);
  const uris = async () => ((await http('GET', '/sim/endpoints/PJSIP/bob')).body as { contacts: Array<{ uri: string }> }).contacts.map((c) => c.uri);
  assert.equal(await uris(), ['sip:bob@192.0.2.1', 'sip:bob@192.0.2.3']);
  await expectStatus(register('sip:bob@192.0.2.1', 30000), 204, 'refresh');
  assert.equal(await uris(), ['sip:bob@192.0.2.1', 'sip:bob@192.0.2.3']);
});

test('names reported in bridgevars and channelvars stay bounded: at the limit, names no longer set are dropped', async () => {
  assert.is((await http('POST', '/ari/bridges/limits-bridge', { query: { type: 'mixing' } })).status, 200);
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'limits-vars' });
  for (const n of [1, 2, 3, 4, 5]) {
    await expectStatus(http('POST', '/ari/bridges/limits-bridge/variable', { query: { variable: `R${n}`, value: 'x', report_events: true } }), 204, `bridge R${n}`);
    await expectStatus(http('POST', '/ari/bridges/limits-bridge/variable', { query: { variable: `R${n}` } }), 204, `bridge unset R${n}`);
    await expectStatus(http('POST', `/ari/channels/${id}/variable`, { query: { variable: `R${n}`, value: 'x', report_events: true } }), 204, `channel R${n}`);
    await expectStatus(http('POST', `/ari/channels/${id}/variable`, { query: { variable: `R${n}` } }), 204, `channel unset R${n}`);
  }
  assert.equal((await http('GET', '/ari/bridges/limits-bridge')).body.bridgevars, { R4: '', R5: '' });
  assert.equal((await http('GET', `/ari/channels/${id}`)).body.channelvars, { R4: '', R5: '' });
  await hangupAndWait(ctx.t, ctx.ev, id);
  assert.is((await http('DELETE', '/ari/bridges/limits-bridge')).status, 204);
});

test.run();
