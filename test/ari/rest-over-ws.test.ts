import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { callInApp, eventLabel, eventSequence } from '../_helpers/ari.js';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { openSocket } from '../_helpers/open-socket.js';
import { socketClosed } from '../_helpers/socket-closed.js';
import { useServer } from '../_helpers/suite.js';
import { waitUntil } from '../_helpers/wait.js';

// REST over the event WebSocket (Asterisk 20.14 / 22.4): a RESTRequest text frame on /ari/events runs
// through the same routes, checks and handlers as HTTP, as the socket's user, and is answered on the
// same socket with a RESTResponse, before the events the request causes.

const test = suite('rest-over-ws');
const ctx = useServer(test);
const opened: EventLog[] = [];

test.after.each(async () => {
  for (const log of opened.splice(0)) await log.close();
});

async function events(apps: string, auth?: string): Promise<EventLog> {
  const log = await connectEvents(ctx.t.url, apps, auth ? { auth } : {});
  opened.push(log);
  return log;
}

let seq = 0;
/** Sends a RESTRequest on `log`'s socket; resolves with its RESTResponse (matched by request_id). */
function rest(log: EventLog, method: string, uri: string, extra: Record<string, unknown> = {}): Promise<AriEvent> {
  const request_id = `rq-${++seq}`;
  log.ws.send(JSON.stringify({ type: 'RESTRequest', request_id, method, uri, ...extra }));
  return log.waitFor((e) => e.type === 'RESTResponse' && e.request_id === request_id);
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;
const EID = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/;

/** Asserts a whole RESTResponse: the envelope, and every field Asterisk sends (a body only when there is one). */
function answer(r: AriEvent, want: { status: number; reason: string; uri: string; body?: string; transaction_id?: string; request_id?: string; application?: string }): void {
  const { timestamp, asterisk_id, ...rest } = r;
  assert.match(timestamp, TIMESTAMP);
  assert.match(asterisk_id, EID);
  assert.equal(rest, {
    type: 'RESTResponse',
    transaction_id: want.transaction_id ?? '',
    request_id: want.request_id ?? r.request_id,
    status_code: want.status,
    reason_phrase: want.reason,
    uri: want.uri,
    ...(want.body !== undefined ? { content_type: 'application/json', message_body: want.body } : {}),
    application: want.application ?? 'app1',
  });
}

/** The labels of the frames `log` got from index `from` on, about channel `id` or answering a request. */
const since = (log: EventLog, from: number, id: string): string[] =>
  log.events.slice(from).filter((e) => e.type === 'RESTResponse' || e.channel?.id === id || e.peer?.id === id).map((e) => (e.type === 'RESTResponse' ? `RESTResponse:${e.status_code}` : eventLabel(e)));

test('create over the socket: 200 with the Channel as message_body, answered before ChannelDialplan and StasisStart; hangup: 204 before HangupRequest, StasisEnd, Destroyed', async () => {
  const from = ctx.ev.events.length;
  const r = await rest(ctx.ev, 'POST', 'channels/create?endpoint=PJSIP/alice&app=app1&channelId=ws-c1', { transaction_id: 'tx-1' });
  const channel = JSON.parse(r.message_body);
  answer(r, { status: 200, reason: 'OK', uri: 'channels/create', transaction_id: 'tx-1', body: r.message_body });
  assert.is(channel.id, 'ws-c1');
  assert.is(channel.state, 'Down');
  assert.match(channel.name, /^PJSIP\/alice-[0-9a-f]{8}$/);
  // The state was committed before the answer: HTTP sees the channel at once.
  assert.is((await ctx.t.http('GET', '/ari/channels/ws-c1')).status, 200);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-c1');
  assert.equal(since(ctx.ev, from, 'ws-c1'), ['RESTResponse:200', 'ChannelDialplan', 'StasisStart']);

  const mark = ctx.ev.events.length;
  const del = await rest(ctx.ev, 'DELETE', 'channels/ws-c1', { transaction_id: 'tx-1' });
  answer(del, { status: 204, reason: 'No Content', uri: 'channels/ws-c1', transaction_id: 'tx-1' });
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'ws-c1');
  assert.equal(since(ctx.ev, mark, 'ws-c1'), ['RESTResponse:204', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
});

test('originate over the socket gives the same answer and events as over HTTP; the answer comes first', async () => {
  const http = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1', channelId: 'ws-o-http' } });
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-o-http');
  const from = ctx.ev.events.length;
  const r = await rest(ctx.ev, 'POST', 'channels', { query_strings: [{ name: 'endpoint', value: 'PJSIP/instant' }, { name: 'app', value: 'app1' }, { name: 'channelId', value: 'ws-o' }] });
  answer(r, { status: 200, reason: 'OK', uri: 'channels', body: r.message_body });
  const body = JSON.parse(r.message_body);
  assert.equal(Object.keys(body), Object.keys(http.body));
  const blank = { id: '', name: '', creationtime: '', protocol_id: '' };
  assert.equal({ ...body, ...blank }, { ...http.body, ...blank });
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-o');
  assert.equal(since(ctx.ev, from, 'ws-o'), ['RESTResponse:200', ...eventSequence(ctx.ev, 'ws-o-http')]);
  for (const id of ['ws-o', 'ws-o-http']) {
    assert.is((await rest(ctx.ev, 'DELETE', `channels/${id}`)).status_code, 204);
    await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  }
});

test('reads: GET channels equals the HTTP list; api-docs take basePath from the upgrade\'s Host and declare RESTResponse', async () => {
  const a = await callInApp(ctx.t, ctx.ev, { id: 'ws-l1', app: 'app1' });
  const list = await rest(ctx.ev, 'GET', 'channels');
  answer(list, { status: 200, reason: 'OK', uri: 'channels', body: list.message_body });
  assert.equal(JSON.parse(list.message_body), (await ctx.t.http('GET', '/ari/channels')).body);
  assert.ok(JSON.parse(list.message_body).some((c: { id: string }) => c.id === a.id));
  const docs = await rest(ctx.ev, 'GET', 'api-docs/events.json');
  const events = JSON.parse(docs.message_body);
  assert.equal(events, (await ctx.t.http('GET', '/ari/api-docs/events.json')).body);
  assert.is(events.basePath, `http://${ctx.t.host}/ari`);
  assert.ok(events.models.Event.subTypes.includes('RESTResponse'));
  assert.equal(Object.keys(events.models.RESTResponse.properties), ['transaction_id', 'request_id', 'status_code', 'reason_phrase', 'uri', 'content_type', 'message_body']);
  for (const m of ['RESTRequest', 'RESTQueryStringParameter', 'RESTHeader']) assert.ok(events.models[m], m);
  assert.is((await rest(ctx.ev, 'DELETE', 'channels/ws-l1')).status_code, 204);
  // A dialplan channel's app is unsubscribed at StasisEnd (no ChannelDestroyed follows there).
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'ws-l1');
});

test('parameters: uri query < query_strings < form body, the later of a name winning; a JSON body overrides them and carries variables', async () => {
  const get = async (name: string) => JSON.parse((await rest(ctx.ev, 'GET', `asterisk/variable?variable=${name}`)).message_body).value;
  const set = (name: string, extra: Record<string, unknown>) => rest(ctx.ev, 'POST', `asterisk/variable?variable=${name}&value=1`, extra);
  answer(await set('WS_Q', {}), { status: 204, reason: 'No Content', uri: 'asterisk/variable' });
  assert.is(await get('WS_Q'), '1');
  assert.is((await set('WS_QS', { query_strings: [{ name: 'value', value: '2' }] })).status_code, 204);
  assert.is(await get('WS_QS'), '2');
  const form = { query_strings: [{ name: 'value', value: '2' }], content_type: 'application/x-www-form-urlencoded', message_body: 'value=3' };
  assert.is((await set('WS_FORM', form)).status_code, 204);
  assert.is(await get('WS_FORM'), '3');
  assert.is((await set('WS_JSON', { content_type: 'application/json', message_body: '{"value":"4"}' })).status_code, 204);
  assert.is(await get('WS_JSON'), '4');

  const from = ctx.ev.events.length;
  const body = JSON.stringify({ endpoint: 'PJSIP/alice', app: 'app1', channelId: 'ws-j1', variables: { WS_VAR: 'yes' } });
  const c = await rest(ctx.ev, 'POST', 'channels/create', { content_type: 'application/json', message_body: body });
  assert.is(c.status_code, 200, c.message_body);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-j1');
  assert.equal(since(ctx.ev, from, 'ws-j1'), ['RESTResponse:200', 'ChannelVarset', 'ChannelDialplan', 'StasisStart']);
  const v = await rest(ctx.ev, 'GET', 'channels/ws-j1/variable', { query_strings: [{ name: 'variable', value: 'WS_VAR' }] });
  answer(v, { status: 200, reason: 'OK', uri: 'channels/ws-j1/variable', body: '{"value":"yes"}' });
  assert.is((await rest(ctx.ev, 'DELETE', 'channels/ws-j1')).status_code, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'ws-j1');
});

test('errors are HTTP\'s: 404, 400, 409, unknown routes, 405, and no way out of /ari', async () => {
  const same = async (method: string, uri: string, status: number, reason: string, query?: Record<string, string>) => {
    const qs = query ? `?${new URLSearchParams(query)}` : '';
    const r = await rest(ctx.ev, method, `${uri}${qs}`);
    const http = await ctx.t.http(method, `/ari/${uri}`, query ? { query } : {});
    assert.is(http.status, status, `${method} ${uri} over HTTP`);
    answer(r, { status, reason, uri, body: http.text });
  };
  await same('GET', 'channels/ws-nope', 404, 'Not Found');
  await same('POST', 'channels', 400, 'Bad Request', { app: 'app1' });
  await same('GET', 'no/such/resource', 404, 'Not Found');
  await same('PUT', 'channels', 405, 'Method Not Allowed');
  await callInApp(ctx.t, ctx.ev, { id: 'ws-dup', app: 'app1' });
  await same('POST', 'channels', 409, 'Conflict', { endpoint: 'PJSIP/bob', app: 'app1', channelId: 'ws-dup' });
  // The uri is below /ari: dot segments cannot reach /sim or the repository API.
  answer(await rest(ctx.ev, 'POST', '../sim/calls?endpoint=PJSIP/alice&extension=1000'), { status: 404, reason: 'Not Found', uri: '../sim/calls', body: '{"message":"Resource not found"}' });
  answer(await rest(ctx.ev, 'GET', '../../api/v1/version'), { status: 404, reason: 'Not Found', uri: '../../api/v1/version', body: '{"message":"Resource not found"}' });
  assert.is((await rest(ctx.ev, 'DELETE', 'channels/ws-dup')).status_code, 204);
  // A dialplan channel's app is unsubscribed at StasisEnd (no ChannelDestroyed follows there).
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'ws-dup');
});

test('a read-only user\'s socket: reads answered, writes refused as over HTTP (403 Write access denied), nothing changed', async () => {
  const viewer = await events('ws-ro', 'viewer:secret-viewer');
  const list = await rest(viewer, 'GET', 'channels');
  answer(list, { status: 200, reason: 'OK', uri: 'channels', body: list.message_body, application: 'ws-ro' });
  for (const [method, uri] of [['POST', 'channels/create?endpoint=PJSIP/alice&app=ws-ro&channelId=ws-ro-1'], ['POST', 'asterisk/variable?variable=WS_RO&value=1'], ['DELETE', 'channels/ws-ro-1']]) {
    const http = await ctx.t.http(method!, `/ari/${uri}`, { auth: 'viewer:secret-viewer' });
    assert.is(http.status, 403);
    answer(await rest(viewer, method!, uri!), { status: 403, reason: 'Forbidden', uri: uri!.split('?')[0]!, body: http.text, application: 'ws-ro' });
  }
  assert.is(JSON.parse((await rest(viewer, 'GET', 'asterisk/variable?variable=WS_RO')).message_body).value, '');
  assert.is((await ctx.t.http('GET', '/ari/channels/ws-ro-1')).status, 404);
});

test('bad frames get Asterisk\'s answers, in order, and the socket goes on serving', async () => {
  const log = await events('ws-bad,ws-bad2');
  const bad = (message: string, uri = '', ids: Record<string, string> = {}) => ({ status: 400, reason: 'Bad request', uri, body: JSON.stringify({ message }), application: 'ws-bad', ...ids });
  const frames: Array<[string | Buffer, Parameters<typeof answer>[1] | null]> = [
    ['not json at all', { status: 400, reason: 'Failed to parse request message JSON', uri: '', request_id: '', application: 'ws-bad' }],
    ['42', { status: 400, reason: 'Failed to parse request message JSON', uri: '', request_id: '', application: 'ws-bad' }],
    [Buffer.from([1, 2, 3]), null],
    ['[]', bad('No \'type\' property.', '', { request_id: '' })],
    ['{"request_id":"b1","transaction_id":"t","method":"GET","uri":"channels"}', bad('No \'type\' property.', '', { request_id: 'b1', transaction_id: 't' })],
    ['{"type":"StasisStart","request_id":"b2"}', bad('Unknown request type.', '', { request_id: 'b2' })],
    ['{"type":"RESTRequest","request_id":"b3","method":"GET"}', bad('Empty or missing \'uri\' property.', '', { request_id: 'b3' })],
    ['{"type":"RESTRequest","request_id":"b4","method":"get","uri":"channels?x=1"}', bad('Unknown or missing \'method\' property.', 'channels', { request_id: 'b4' })],
    ['{"type":"RESTRequest","request_id":"b5","method":"GET","uri":"channels","query_strings":{"a":"b"}}', bad('Unable to parse \'query_strings\' array.', 'channels', { request_id: 'b5' })],
    ['{"type":"RESTRequest","request_id":"b6","method":"GET","uri":"channels","query_strings":[{"name":"a"}]}', bad('Unable to parse \'query_strings\' array.', 'channels', { request_id: 'b6' })],
    ['{"type":"RESTRequest","request_id":"b7","method":"POST","uri":"channels","message_body":"x=1"}', bad('No \'content_type\' for \'message_body\'.', 'channels', { request_id: 'b7' })],
    ['{"type":"RESTRequest","request_id":"b8","method":"POST","uri":"channels","content_type":"text/plain","message_body":"x"}', bad('Unknown content type.', 'channels', { request_id: 'b8' })],
    ['{"type":"RESTRequest","request_id":"b9","method":"POST","uri":"channels","content_type":"application/json","message_body":"{oops"}', bad('Unable to parse \'message_body\' as \'application/json\'.', 'channels', { request_id: 'b9' })],
    ['{"type":"RESTRequest","request_id":"b10","method":"POST","uri":"channels","content_type":"application/x-www-form-urlencoded","message_body":"&&"}', bad('Unable to parse \'message_body\' as \'application/x-www-form-urlencoded\'.', 'channels', { request_id: 'b10' })],
    // A transaction_id that is not a string is no transaction_id; an empty body needs no content_type.
    ['{"type":"RESTRequest","request_id":"b11","transaction_id":7,"method":"GET","uri":"asterisk/ping","message_body":""}', null],
  ];
  const from = log.events.length;
  for (const [frame] of frames) log.ws.send(frame);
  const expected = frames.filter(([, want]) => want !== null).length + 1;
  await log.waitForCount('RESTResponse', expected);
  const got = log.events.slice(from).filter((e) => e.type === 'RESTResponse');
  assert.is(got.length, expected, 'binary frames are not answered');
  let i = 0;
  for (const [, want] of frames) if (want) answer(got[i++]!, want);
  const ping = got[i]!;
  answer(ping, { status: 200, reason: 'OK', uri: 'asterisk/ping', request_id: 'b11', body: ping.message_body, application: 'ws-bad' });
  assert.is(JSON.parse(ping.message_body).ping, 'pong');
  assert.is(log.ws.readyState, WebSocket.OPEN);
});

test('a frame over WS_MAX_PAYLOAD closes that socket with 1009, as Asterisk does; the server and other sockets carry on', async () => {
  const ws = await openSocket(`${ctx.t.url.replace(/^http/, 'ws')}/ari/events?app=ws-big&api_key=asterisk:asterisk`);
  const closed = socketClosed(ws);
  ws.send(JSON.stringify({ type: 'RESTRequest', request_id: 'big', method: 'POST', uri: 'asterisk/variable?variable=WS_BIG', content_type: 'application/json', message_body: JSON.stringify({ value: 'x'.repeat(70_000) }) }));
  assert.is((await closed).code, 1009);
  assert.is(JSON.parse((await rest(ctx.ev, 'GET', 'asterisk/variable?variable=WS_BIG')).message_body).value, '');
});

test('a pipeline of 100 requests is run one after another and answered in order, each with its own request_id', async () => {
  const log = await events('ws-pipe');
  const from = log.events.length;
  const sent: string[] = [];
  for (let i = 0; i < 50; i++) {
    for (const [method, uri] of [['POST', `asterisk/variable?variable=WS_PIPE&value=v${i}`], ['GET', 'asterisk/variable?variable=WS_PIPE']]) {
      const request_id = `pipe-${sent.length}`;
      sent.push(request_id);
      log.ws.send(JSON.stringify({ type: 'RESTRequest', transaction_id: 'pipe', request_id, method, uri }));
    }
  }
  await log.waitForCount('RESTResponse', sent.length);
  const got = log.events.slice(from).filter((e) => e.type === 'RESTResponse');
  assert.equal(got.map((e) => e.request_id), sent);
  got.forEach((e, n) => {
    if (n % 2 === 0) answer(e, { status: 204, reason: 'No Content', uri: 'asterisk/variable', transaction_id: 'pipe', application: 'ws-pipe' });
    // Each GET sees the value its own POST just set: the requests ran in the order sent.
    else answer(e, { status: 200, reason: 'OK', uri: 'asterisk/variable', transaction_id: 'pipe', body: JSON.stringify({ value: `v${(n - 1) / 2}` }), application: 'ws-pipe' });
  });
});

test('binary answers are not sent over the socket: a stored recording\'s file is 406, its JSON views are answered', async () => {
  const { id } = await callInApp(ctx.t, ctx.ev, { id: 'ws-rec', app: 'app1' });
  const rec = await rest(ctx.ev, 'POST', `channels/${id}/record?name=ws-rec-1&format=wav&maxDurationSeconds=1`);
  answer(rec, { status: 201, reason: 'Created', uri: `channels/${id}/record`, body: rec.message_body });
  await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === 'ws-rec-1');
  answer(await rest(ctx.ev, 'GET', 'recordings/stored/ws-rec-1/file'), { status: 406, reason: 'Not Acceptable.  Use HTTP GET', uri: 'recordings/stored/ws-rec-1/file' });
  const stored = await rest(ctx.ev, 'GET', 'recordings/stored/ws-rec-1');
  answer(stored, { status: 200, reason: 'OK', uri: 'recordings/stored/ws-rec-1', body: stored.message_body });
  assert.equal(JSON.parse(stored.message_body), { name: 'ws-rec-1', format: 'wav' });
  answer(await rest(ctx.ev, 'GET', 'recordings/stored/ws-nope/file'), { status: 404, reason: 'Not Found', uri: 'recordings/stored/ws-nope/file', body: '{"message":"Recording not found"}' });
  const file = await ctx.t.http('GET', '/ari/recordings/stored/ws-rec-1/file');
  assert.is(file.status, 200);
  assert.is(file.headers.get('content-type'), 'audio/wav');
  assert.is((await rest(ctx.ev, 'DELETE', `channels/${id}`)).status_code, 204);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === id);
});

test('a socket closed while its request runs: the request completes, its answer goes nowhere, the server carries on', async () => {
  const log = await events('ws-gone');
  const errors = () => ctx.t.logs.filter((l) => JSON.parse(l).level >= 50).length;
  const errorsBefore = errors();
  const engine = ctx.t.server.telephony.engine;
  const commit = engine.commit;
  let reached!: () => void;
  let release!: () => void;
  const atCommit = new Promise<void>((r) => (reached = r));
  const gate = new Promise<void>((r) => (release = r));
  // The next commit — the one the socket's request waits on before it is answered — waits until the socket is gone.
  engine.commit = () => {
    engine.commit = commit;
    reached();
    return gate.then(() => commit.call(engine));
  };
  log.ws.send(JSON.stringify({ type: 'RESTRequest', request_id: 'gone', method: 'POST', uri: 'asterisk/variable?variable=WS_GONE&value=kept' }));
  await atCommit;
  await log.close();
  await waitUntil(async () => (await ctx.t.http('GET', '/ari/applications/ws-gone')).status === 404, 'the server saw the socket close');
  release();
  await waitUntil(async () => (await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: 'WS_GONE' } })).body.value === 'kept', 'the request completed');
  assert.not.ok(log.events.some((e) => e.type === 'RESTResponse'));
  assert.is(errors(), errorsBefore, 'nothing was logged as an error');
  assert.is((await rest(ctx.ev, 'GET', 'asterisk/ping')).status_code, 200);
});

test.run();
