import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, eventSequence, hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { restartableServer } from '../_helpers/child.js';
import { connectEvents } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';
import { pollUntil } from '../_helpers/wait.js';

// ARI's asterisk/config/dynamic for res_pjsip: endpoint objects made here are endpoints of the
// simulation (listed, callable, answering as their sim_* attributes say), changes reach new calls,
// deletion leaves live calls alone; aor and auth objects are kept; fixture endpoints are read-only.
const test = suite('asterisk-config');
const APP = 'cfg-app';
const ctx = useServer(test, { events: { ev: APP } });

const obj = (type: string, id: string, cls = 'res_pjsip') => `/ari/asterisk/config/dynamic/${cls}/${type}/${encodeURIComponent(id)}`;
const put = (type: string, id: string, fields?: Record<string, string>) =>
  ctx.t.http('PUT', obj(type, id), fields ? { json: { fields: Object.entries(fields).map(([attribute, value]) => ({ attribute, value })) } } : {});
const tuples = (o: Record<string, string>) => Object.entries(o).map(([attribute, value]) => ({ attribute, value }));

/** Every attribute of a res_pjsip endpoint, with its default. */
const ENDPOINT_DEFAULTS = {
  accountcode: '', allow: 'ulaw', aors: '', auth: '', callerid: '', context: 'default', device_state_busy_at: '0', direct_media: 'true', disallow: '',
  dtmf_mode: 'rfc4733', force_rport: 'true', from_domain: '', from_user: '', language: '', mailboxes: '', outbound_auth: '', rewrite_contact: 'false',
  rtp_symmetric: 'false', sim_answer_after_ms: '', sim_refer_status: '200', sim_reject_after_ms: '', sim_reject_cause: '21', sim_ring_after_ms: '', sim_rtp_jitter_ms: '2',
  sim_rtp_loss_percent: '0', sim_rtp_rtt_ms: '20', sim_state: 'online', transfer_handling: 'core', transport: '',
};

test('a fixture endpoint reads as a res_pjsip endpoint, its behaviour as sim_* attributes', async () => {
  const r = await ctx.t.http('GET', obj('endpoint', 'alice'));
  assert.is(r.status, 200);
  assert.equal(r.body, tuples({ ...ENDPOINT_DEFAULTS, callerid: '"Alice" <1001>', language: 'en', sim_answer_after_ms: '1000', sim_ring_after_ms: '100' }));
  const busy = await ctx.t.http('GET', obj('endpoint', 'busy'));
  assert.equal(busy.body.filter((t: { attribute: string }) => t.attribute.startsWith('sim_')), tuples({
    sim_answer_after_ms: '', sim_refer_status: '200', sim_reject_after_ms: '300', sim_reject_cause: '17', sim_ring_after_ms: '', sim_rtp_jitter_ms: '2', sim_rtp_loss_percent: '0', sim_rtp_rtt_ms: '20', sim_state: 'online',
  }));
});

test('unknown class, type or object → 404 with Asterisk\'s words (GET, PUT, DELETE)', async () => {
  const cases: Array<[string, string, string[]]> = [
    [obj('endpoint', 'alice', 'res_nosuch'), "configClass 'res_nosuch' not found", ['GET', 'PUT', 'DELETE']],
    [obj('transport', 'udp'), "objectType 'transport' not found", ['GET', 'PUT', 'DELETE']],
    [obj('endpoint', 'nobody'), "Object with id 'nobody' not found", ['GET', 'DELETE']],
    [obj('aor', 'alice'), "Object with id 'alice' not found", ['GET', 'DELETE']],
  ];
  for (const [path, message, methods] of cases) {
    for (const method of methods) {
      const r = await ctx.t.http(method as 'GET', path);
      assert.is(r.status, 404, `${method} ${path}`);
      assert.equal(r.body, { message }, `${method} ${path}`);
    }
  }
});

test('fixture endpoints cannot be changed: no fields → 400, fields → 403, DELETE → 403', async () => {
  const none = await put('endpoint', 'alice');
  assert.is(none.status, 400);
  assert.equal(none.body, { message: "Fields must be provided to update object 'alice'" });
  const change = await put('endpoint', 'alice', { sim_answer_after_ms: '0' });
  assert.is(change.status, 403);
  assert.equal(change.body, { message: "Cannot update sorcery objects of type 'endpoint'" });
  // Names are matched without regard to case, as endpoint names are.
  assert.is((await put('endpoint', 'ALICE', { sim_answer_after_ms: '0' })).status, 403);
  const del = await ctx.t.http('DELETE', obj('endpoint', 'alice'));
  assert.is(del.status, 403);
  assert.equal(del.body, { message: "Could not delete object with id 'alice'" });
  assert.equal((await ctx.t.http('GET', obj('endpoint', 'alice'))).body.find((t: { attribute: string }) => t.attribute === 'sim_answer_after_ms'), { attribute: 'sim_answer_after_ms', value: '1000' });
});

test('an endpoint made here: 200 with every attribute; listed by /endpoints; originated to, it rings then answers', async () => {
  const r = await put('endpoint', 'dave', { callerid: '"Dave" <1010>', sim_ring_after_ms: '100', sim_answer_after_ms: '500', direct_media: 'no' });
  assert.is(r.status, 200);
  const dave = { ...ENDPOINT_DEFAULTS, callerid: '"Dave" <1010>', direct_media: 'false', sim_answer_after_ms: '500', sim_ring_after_ms: '100' };
  assert.equal(r.body, tuples(dave));
  assert.equal((await ctx.t.http('GET', obj('endpoint', 'dave'))).body, tuples(dave));
  assert.equal((await ctx.t.http('GET', '/ari/endpoints/PJSIP/dave')).body, { technology: 'PJSIP', resource: 'dave', state: 'online', channel_ids: [] });
  assert.ok((await ctx.t.http('GET', '/ari/endpoints')).body.some((e: { resource: string }) => e.resource === 'dave'));
  assert.equal((await ctx.t.http('GET', '/ari/deviceStates/PJSIP%2Fdave')).body, { name: 'PJSIP/dave', state: 'NOT_INUSE' });
  const call = await originateInApp(ctx.t, ctx.ev, { app: APP, id: 'to-dave', endpoint: 'PJSIP/dave' });
  assert.equal(eventSequence(ctx.ev, call.id), ['Dial:', 'State:Ringing', 'Dial:RINGING', 'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'StasisStart']);
  assert.match(call.start.channel!.name, /^PJSIP\/dave-[0-9a-f]{8}$/);
  assert.equal((await ctx.t.http('GET', '/ari/endpoints/PJSIP/dave')).body.channel_ids, ['to-dave']);
  assert.equal((await ctx.t.http('GET', '/ari/deviceStates/PJSIP%2Fdave')).body, { name: 'PJSIP/dave', state: 'INUSE' });
  await hangupAndWait(ctx.t, ctx.ev, call.id);
  // It calls in too, with its caller ID and context.
  const inbound = await callInApp(ctx.t, ctx.ev, { id: 'from-dave', app: APP, endpoint: 'PJSIP/dave' });
  assert.equal(inbound.start.channel!.caller, { name: 'Dave', number: '1010' });
  // A dialplan channel leaves the app at its hangup (no ChannelDestroyed reaches the app).
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${inbound.id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === inbound.id);
});

test('changes reach new calls: rejecting busy after 200 ms; offline makes it UNAVAILABLE', async () => {
  const r = await put('endpoint', 'dave', { sim_ring_after_ms: '', sim_answer_after_ms: '', sim_reject_after_ms: '200', sim_reject_cause: '17' });
  assert.is(r.status, 200);
  assert.equal(r.body, tuples({ ...ENDPOINT_DEFAULTS, callerid: '"Dave" <1010>', direct_media: 'false', sim_reject_after_ms: '200', sim_reject_cause: '17' }));
  const o = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/dave', app: APP, channelId: 'dave-busy' } });
  assert.is(o.status, 200);
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'dave-busy');
  assert.is(destroyed.cause, 17);
  assert.equal(eventSequence(ctx.ev, 'dave-busy'), ['Dial:', 'Dial:BUSY', 'ChannelDestroyed']);
  assert.is((await put('endpoint', 'dave', { sim_state: 'offline' })).status, 200);
  assert.is((await ctx.t.http('GET', '/ari/endpoints/PJSIP/dave')).body.state, 'offline');
  assert.equal((await ctx.t.http('GET', '/ari/deviceStates/PJSIP%2Fdave')).body, { name: 'PJSIP/dave', state: 'UNAVAILABLE' });
  assert.is((await put('endpoint', 'dave', { sim_state: 'online', sim_reject_after_ms: '', sim_answer_after_ms: '0' })).status, 200);
});

test('a sim_state change moves the endpoint\'s state: its subscribers get EndpointStateChange then PeerStatusChange; other changes announce nothing', async () => {
  assert.is((await put('endpoint', 'stella', { callerid: '<1077>' })).status, 200);
  const sub = await ctx.t.http('POST', `/ari/applications/${APP}/subscription`, { query: { eventSource: 'endpoint:PJSIP/stella' } });
  assert.is(sub.status, 200, sub.text);
  const about = () => ctx.ev.events.filter((e) => e.endpoint?.resource === 'stella').map((e) => `${e.type}:${e.endpoint.state}${e.peer ? `:${e.peer.peer_status}` : ''}`);
  const endpoint = (state: string) => ({ technology: 'PJSIP', resource: 'stella', state, channel_ids: [] });

  assert.is((await put('endpoint', 'stella', { sim_state: 'offline' })).status, 200);
  const off = await ctx.ev.waitFor((e) => e.type === 'EndpointStateChange' && e.endpoint?.resource === 'stella');
  assert.is(off.application, APP);
  assert.equal(off.endpoint, endpoint('offline'));
  const peer = await ctx.ev.waitFor((e) => e.type === 'PeerStatusChange' && e.endpoint?.resource === 'stella');
  assert.equal(peer.peer, { peer_status: 'Unreachable' });
  // The same state again, and an attribute that does not touch it: nothing is announced.
  assert.is((await put('endpoint', 'stella', { sim_state: 'offline', callerid: '<1078>' })).status, 200);
  assert.is((await put('endpoint', 'stella', { sim_state: 'online' })).status, 200);
  await ctx.ev.waitFor((e) => e.type === 'PeerStatusChange' && e.endpoint?.resource === 'stella' && e.peer?.peer_status === 'Reachable');
  assert.equal(about(), [
    'EndpointStateChange:offline', 'PeerStatusChange:offline:Unreachable', 'EndpointStateChange:online', 'PeerStatusChange:online:Reachable',
  ]);
  assert.equal((await ctx.t.http('GET', '/ari/endpoints/PJSIP/stella')).body, endpoint('online'));
  assert.is((await ctx.t.http('DELETE', `/ari/applications/${APP}/subscription`, { query: { eventSource: 'endpoint:PJSIP/stella' } })).status, 200);
});

test('bad fields → 400 and nothing changes: unknown attribute, bad value, context not in the dialplan, not a list; bad ids', async () => {
  const before = (await ctx.t.http('GET', obj('endpoint', 'dave'))).body;
  const bad: unknown[] = [
    [{ attribute: 'no_such_option', value: 'x' }],
    [{ attribute: 'sim_state', value: 'maybe' }],
    [{ attribute: 'sim_answer_after_ms', value: '-5' }],
    [{ attribute: 'sim_reject_cause', value: '200' }],
    [{ attribute: 'dtmf_mode', value: 'smoke' }],
    [{ attribute: 'allow', value: 'ulaw,nosuchcodec' }],
    [{ attribute: 'context', value: 'no-such-context' }],
    [{ attribute: 'callerid', value: 'ok' }, { attribute: 'direct_media', value: 'perhaps' }],
    [{ attribute: 'callerid' }],
    [{ attribute: 'callerid', value: 7 }],
    [{ attribute: 'constructor', value: 'x' }],
    ['callerid'],
    { attribute: 'callerid', value: 'x' },
    'callerid=x',
    null,
  ];
  for (const fields of bad) {
    const r = await ctx.t.http('PUT', obj('endpoint', 'dave'), { json: { fields } });
    assert.is(r.status, 400, JSON.stringify(fields));
    assert.equal(r.body, { message: "Update of object 'dave' failed field value validation" }, JSON.stringify(fields));
  }
  assert.equal((await ctx.t.http('GET', obj('endpoint', 'dave'))).body, before);
  const create = await put('endpoint', 'erin', { sim_state: 'maybe' });
  assert.is(create.status, 400);
  assert.equal(create.body, { message: "Creation of object 'erin' failed field value validation" });
  assert.is((await ctx.t.http('GET', obj('endpoint', 'erin'))).status, 404);
  assert.is((await ctx.t.http('GET', '/ari/endpoints/PJSIP/erin')).status, 404);
  for (const id of ['a b', 'x@y', 'a;b', 'x,y', 'x'.repeat(81)]) {
    const r = await put('endpoint', id, { callerid: '<1>' });
    assert.is(r.status, 400, id);
    assert.equal(r.body, { message: 'Object ids are 1 to 80 characters without spaces, /, @, ; or ,' });
  }
});

test('aor and auth objects: created with defaults, updated, read back, deleted', async () => {
  const aor = await put('aor', 'dave', { max_contacts: '1', contact: 'sip:dave@127.0.0.1:5060', remove_existing: 'yes' });
  assert.is(aor.status, 200);
  const aorValues = {
    authenticate_qualify: 'false', contact: 'sip:dave@127.0.0.1:5060', default_expiration: '3600', mailboxes: '', max_contacts: '1', maximum_expiration: '7200',
    minimum_expiration: '60', outbound_proxy: '', qualify_frequency: '0', qualify_timeout: '3.000000', remove_existing: 'true', remove_unavailable: 'false',
    support_path: 'false', voicemail_extension: '',
  };
  assert.equal(aor.body, tuples(aorValues));
  // A new object needs no fields.
  const auth = await put('auth', 'dave-auth');
  assert.is(auth.status, 200);
  const authValues = { auth_type: 'userpass', md5_cred: '', nonce_lifetime: '32', oauth_clientid: '', oauth_secret: '', password: '', realm: '', refresh_token: '', username: '' };
  assert.equal(auth.body, tuples(authValues));
  assert.equal((await put('auth', 'dave-auth', { username: 'dave', password: 's3cret' })).body, tuples({ ...authValues, password: 's3cret', username: 'dave' }));
  assert.is((await put('endpoint', 'dave', { aors: 'dave', auth: 'dave-auth' })).status, 200);
  assert.equal((await ctx.t.http('GET', obj('aor', 'dave'))).body, tuples(aorValues));
  assert.is((await ctx.t.http('DELETE', obj('aor', 'dave'))).status, 204);
  assert.is((await ctx.t.http('GET', obj('aor', 'dave'))).status, 404);
  // The endpoint keeps its reference: it is only text to us.
  assert.ok((await ctx.t.http('GET', obj('endpoint', 'dave'))).body.some((t: { attribute: string; value: string }) => t.attribute === 'aors' && t.value === 'dave'));
});

test('delete an endpoint with a live call: 204; the call goes on; new calls to it are refused; it is gone from /endpoints', async () => {
  const call = await originateInApp(ctx.t, ctx.ev, { app: APP, id: 'live-dave', endpoint: 'PJSIP/dave' });
  assert.is((await ctx.t.http('DELETE', obj('endpoint', 'DAVE'))).status, 204);
  assert.equal((await ctx.t.http('GET', obj('endpoint', 'dave'))).body, { message: "Object with id 'dave' not found" });
  assert.equal((await ctx.t.http('GET', '/ari/endpoints/PJSIP/dave')).body, { message: 'Endpoint not found' });
  assert.not.ok((await ctx.t.http('GET', '/ari/endpoints')).body.some((e: { resource: string }) => e.resource === 'dave'));
  assert.is((await ctx.t.http('GET', `/ari/channels/${call.id}`)).body.state, 'Up');
  assert.is((await ctx.t.http('POST', `/ari/channels/${call.id}/answer`)).status, 204);
  const again = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/dave', app: APP } });
  assert.is(again.status, 400);
  assert.equal(again.body, { message: 'Endpoint not found: PJSIP/dave' });
  const destroyed = await hangupAndWait(ctx.t, ctx.ev, call.id);
  assert.is(destroyed.cause, 16);
  assert.equal((await ctx.t.http('GET', '/ari/deviceStates/PJSIP%2Fdave')).body, { name: 'PJSIP/dave', state: 'INVALID' });
  // Made again, it starts from the defaults plus what is given now.
  const again2 = await put('endpoint', 'dave', { sim_state: 'offline' });
  assert.equal(again2.body, tuples({ ...ENDPOINT_DEFAULTS, sim_state: 'offline' }));
  assert.equal((await ctx.t.http('GET', '/ari/endpoints/PJSIP/dave')).body, { technology: 'PJSIP', resource: 'dave', state: 'offline', channel_ids: [] });
  assert.equal((await ctx.t.http('GET', '/ari/deviceStates/PJSIP%2Fdave')).body, { name: 'PJSIP/dave', state: 'UNAVAILABLE' });
});

test('restart: endpoint, aor and auth objects survive SIGKILL; the endpoint answers calls; a deleted one stays deleted', async () => {
  const servers = restartableServer('config-restart');
  const at = (cls: string, type: string, id: string) => `/ari/asterisk/config/dynamic/${cls}/${type}/${id}`;
  const fields = (o: Record<string, string>) => ({ json: { fields: Object.entries(o).map(([attribute, value]) => ({ attribute, value })) } });
  try {
    let server = await servers.start();
    assert.is((await server.http('PUT', at('res_pjsip', 'endpoint', 'Gina'), fields({ callerid: '<1020>', sim_answer_after_ms: '0' }))).status, 200);
    assert.is((await server.http('PUT', at('res_pjsip', 'endpoint', 'gina'), fields({ language: 'fr' }))).status, 200);
    assert.is((await server.http('PUT', at('res_pjsip', 'aor', 'gina'), fields({ max_contacts: '2' }))).status, 200);
    assert.is((await server.http('PUT', at('res_pjsip', 'auth', 'gina'), fields({ username: 'gina' }))).status, 200);
    assert.is((await server.http('PUT', at('res_pjsip', 'endpoint', 'hal'), fields({ callerid: '<1021>' }))).status, 200);
    assert.is((await server.http('DELETE', at('res_pjsip', 'endpoint', 'hal'))).status, 204);
    const gina = (await server.http('GET', at('res_pjsip', 'endpoint', 'gina'))).body;
    // A call to it is live at the kill.
    const first = await connectEvents(server.url, 'cfg-restart');
    try {
      assert.is((await server.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/Gina', app: 'cfg-restart', channelId: 'gina-live' } })).status, 200);
      await first.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'gina-live');
    } finally {
      await first.close();
    }
    await servers.kill();
    server = await servers.start();
    // Restored with its endpoint, which counts it.
    assert.equal((await server.http('GET', '/ari/endpoints/PJSIP/gina')).body.channel_ids, ['gina-live']);
    assert.equal((await server.http('GET', '/ari/deviceStates/PJSIP%2Fgina')).body, { name: 'PJSIP/gina', state: 'INUSE' });
    assert.is((await server.http('DELETE', '/ari/channels/gina-live')).status, 204);
    assert.equal((await server.http('GET', at('res_pjsip', 'endpoint', 'gina'))).body, gina);
    assert.ok(gina.some((t: { attribute: string; value: string }) => t.attribute === 'language' && t.value === 'fr'));
    assert.is((await server.http('GET', at('res_pjsip', 'aor', 'gina'))).body.find((t: { attribute: string }) => t.attribute === 'max_contacts').value, '2');
    assert.is((await server.http('GET', at('res_pjsip', 'auth', 'gina'))).body.find((t: { attribute: string }) => t.attribute === 'username').value, 'gina');
    assert.is((await server.http('GET', at('res_pjsip', 'endpoint', 'hal'))).status, 404);
    // The endpoint keeps the case it was made with.
    await pollUntil(async () => (await server.http('GET', '/ari/endpoints/PJSIP/gina')).body.channel_ids.length === 0);
    assert.equal((await server.http('GET', '/ari/endpoints/PJSIP/gina')).body, { technology: 'PJSIP', resource: 'Gina', state: 'online', channel_ids: [] });
    const ev = await connectEvents(server.url, 'cfg-restart');
    try {
      const o = await server.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/gina', app: 'cfg-restart', channelId: 'gina-call' } });
      assert.is(o.status, 200, o.text);
      const start = await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'gina-call');
      assert.is(start.channel!.language, 'fr');
      assert.is((await server.http('DELETE', '/ari/channels/gina-call')).status, 204);
    } finally {
      await ev.close();
    }
    server.assertNoViolations();
  } finally {
    await servers.cleanup();
  }
});

test.run();
