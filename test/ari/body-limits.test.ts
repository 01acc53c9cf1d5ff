import type { Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { originateInApp } from '../_helpers/ari.js';
import { rawSocket } from '../_helpers/raw-socket.js';
import { basicAuth } from '../_helpers/request.js';
import { useServer } from '../_helpers/suite.js';

// Large bodies used to be kept: six 45 MB originate bodies took the server to 1.5 GB RSS, grew the
// database by 470 MB and made /sim/history?limit=10 answer 283 MB. ARI and /sim now read at most
// ARI_MAX_BODY_BYTES (1 MiB by default) and refuse the rest before it arrives; string parameters,
// variable names, values and counts are bounded; history answers are bounded in bytes.

const test = suite('body-limits');
const ctx = useServer(test, { env: { ARI_MAX_CHANNEL_VARIABLES: '8', SIM_HISTORY_MAX_BYTES: '65536' } });
const APP = 'app1';
const LIMIT = 1024 * 1024;
const AUTH = basicAuth('asterisk:asterisk');

/** The first HTTP answer on a raw socket (status and JSON body), or a rejection after `ms`. */
function answer(sock: Socket, ms = 20000): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    let data = '';
    const timer = setTimeout(() => reject(new Error(`no answer while the body is still open (got ${JSON.stringify(data.slice(0, 200))})`)), ms);
    const done = () => {
      const head = data.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(data.slice(0, head));
      if (head < 0 || !length || data.length < head + 4 + Number(length[1])) return false;
      clearTimeout(timer);
      resolve({ status: Number(data.slice(9, 12)), body: JSON.parse(data.slice(head + 4, head + 4 + Number(length[1]))) });
      return true;
    };
    sock.on('data', (c: Buffer) => {
      data += c.toString('latin1');
      done();
    });
    sock.on('error', () => {});
    sock.on('close', () => done() || reject(new Error(`closed without an answer: ${JSON.stringify(data.slice(0, 200))}`)));
  });
}

async function rawRequest(headers: string): Promise<Socket> {
  const u = new URL(ctx.t.url);
  const head = `POST /ari/channels?endpoint=PJSIP/instant&app=${APP} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\n${headers}\r\n`;
  return (await rawSocket(ctx.t.url, head)).socket;
}

const channelCount = async () => (await ctx.t.http('GET', '/ari/channels')).body.length as number;

test('a streamed originate body over 1 MiB → 413 while the client is still sending: the server does not wait for (or keep) the rest', async () => {
  const before = await channelCount();
  const sock = await rawRequest('Transfer-Encoding: chunked\r\n');
  const got = answer(sock);
  const chunk = 'x'.repeat(64 * 1024);
  sock.write(`${(1).toString(16)}\r\n{\r\n`);
  // The limit plus two chunks, and then nothing: no terminating chunk, the body never ends.
  for (let sent = 0; sent < LIMIT + 2 * chunk.length; sent += chunk.length) sock.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
  const r = await got;
  sock.destroy();
  assert.is(r.status, 413);
  assert.equal(r.body, { message: `Request body exceeds ${LIMIT} bytes` });
  assert.is(await channelCount(), before, 'no channel was made');
});

test('a declared Content-Length of 45 MB → 413 at once, before any of the body is sent', async () => {
  const sock = await rawRequest(`Content-Length: ${45 * 1024 * 1024}\r\n`);
  const r = await answer(sock);
  sock.destroy();
  assert.is(r.status, 413);
  assert.equal(r.body, { message: `Request body exceeds ${LIMIT} bytes` });
});

test('a 2 MiB JSON originate body → 413 in ARI\'s body; nothing made', async () => {
  const before = await channelCount();
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP }, json: { variables: { BIG: 'v'.repeat(2 * LIMIT) } } });
  assert.is(r.status, 413);
  assert.equal(r.body, { message: `Request body exceeds ${LIMIT} bytes` });
  const form = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP }, form: { appArgs: 'a'.repeat(LIMIT) } });
  assert.is(form.status, 413);
  assert.is(await channelCount(), before);
});

test('variables: a value over 8 KiB, a name over 80 bytes, more than 128 in one request → 400; at the limits → 200', async () => {
  const before = await channelCount();
  const originate = (variables: Record<string, string>) => ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP }, json: { variables } });
  const cases: Array<[string, Record<string, string>, string]> = [
    ['value of 8193 bytes', { BIG: 'v'.repeat(8193) }, "Value of variable 'BIG' is longer than 8192 bytes"],
    ['value of 4097 two-byte characters', { BIG: 'é'.repeat(4097) }, "Value of variable 'BIG' is longer than 8192 bytes"],
    ['name of 81 bytes', { ['N'.repeat(81)]: '1' }, 'Variable name longer than 80 bytes'],
    ['129 variables', Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`V${i}`, '1'])), 'At most 128 variables may be set in one request'],
  ];
  for (const [what, vars, message] of cases) {
    const r = await originate(vars);
    assert.is(r.status, 400, what);
    assert.equal(r.body, { message }, what);
  }
  // The same through the simulation API's inbound calls, and an object-form value.
  const sim = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000' }, json: { variables: { BIG: { value: 'v'.repeat(8193) } } } });
  assert.is(sim.status, 400);
  assert.equal(sim.body, { message: "Value of variable 'BIG' is longer than 8192 bytes" });
  assert.is(await channelCount(), before, 'nothing was made by the refused requests');

  const ok = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP, channelId: 'lim-ok' }, json: { variables: { ['N'.repeat(80)]: 'v'.repeat(8192) } } });
  assert.is(ok.status, 200, ok.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'lim-ok');
  assert.is((await ctx.t.http('GET', '/ari/channels/lim-ok/variable', { query: { variable: 'N'.repeat(80) } })).body.value.length, 8192);
  await ctx.t.http('DELETE', '/ari/channels/lim-ok');
});

test('setChannelVar / setGlobalVar and free strings (appArgs, callerId): over the limits → 400, state unchanged', async () => {
  const { id } = await originateInApp(ctx.t, ctx.ev, { app: APP, id: 'lim-set' });
  const set = (opts: { query?: Record<string, string>; json?: unknown }) => ctx.t.http('POST', `/ari/channels/${id}/variable`, opts);
  const long = await set({ query: { variable: 'X' }, json: { value: 'v'.repeat(8193) } });
  assert.is(long.status, 400);
  assert.equal(long.body, { message: "Parameter 'value' is longer than 8192 bytes" });
  const name = await set({ query: { variable: 'N'.repeat(81), value: '1' } });
  assert.equal([name.status, name.body], [400, { message: 'Variable name longer than 80 bytes' }]);
  const global = await ctx.t.http('POST', '/ari/asterisk/variable', { query: { variable: 'G' }, json: { value: 'g'.repeat(8193) } });
  assert.equal([global.status, global.body], [400, { message: "Parameter 'value' is longer than 8192 bytes" }]);
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}/variable`, { query: { variable: 'X' } })).status, 404);
  assert.is((await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: 'G' } })).body.value, '');
  // appArgs and callerId are free strings too.
  const args = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP }, json: { appArgs: 'a'.repeat(8193) } });
  assert.equal([args.status, args.body], [400, { message: "Parameter 'appArgs' is longer than 8192 bytes" }]);
  const caller = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP }, json: { callerId: 'c'.repeat(8193) } });
  assert.equal([caller.status, caller.body], [400, { message: "Parameter 'callerId' is longer than 8192 bytes" }]);
  // A list counts as its items joined: 2,000 media items of 5 bytes is over 8 KiB.
  const media = await ctx.t.http('POST', `/ari/channels/${id}/play`, { json: { media: Array.from({ length: 2000 }, () => 'tone:') } });
  assert.equal([media.status, media.body], [400, { message: "Parameter 'media' is longer than 8192 bytes" }]);
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
});

test('a channel holds at most ARI_MAX_CHANNEL_VARIABLES (8) variables set by setChannelVar, and so do globals; replacing and unsetting still work', async () => {
  const { id } = await originateInApp(ctx.t, ctx.ev, { app: APP, id: 'lim-count' });
  const set = (variable: string, value?: string) => ctx.t.http('POST', `/ari/channels/${id}/variable`, { query: { variable, ...(value !== undefined ? { value } : {}) } });
  // An originated channel starts with no variables of its own, so eight fit.
  for (let i = 0; i < 8; i++) assert.is((await set(`C${i}`, String(i))).status, 204, `C${i}`);
  const over = await set('C8', '8');
  assert.equal([over.status, over.body], [400, { message: 'The channel already holds 8 variables' }]);
  assert.is((await set('C0', 'again')).status, 204, 'replacing one');
  assert.is((await set('C1')).status, 204, 'unsetting one');
  assert.is((await set('C8', '8')).status, 204, 'room again');
  assert.is((await set('CALLERID(name)', 'Fn')).status, 204, 'functions are not variables');

  // Global variables are bounded by the same number (the fixtures' globals count too).
  const global = (variable: string, value?: string) => ctx.t.http('POST', '/ari/asterisk/variable', { query: { variable, ...(value !== undefined ? { value } : {}) } });
  const added: string[] = [];
  let refused;
  for (let i = 0; i < 9 && !refused; i++) {
    const r = await global(`LIMG${i}`, '1');
    if (r.status === 204) added.push(`LIMG${i}`);
    else refused = r;
  }
  assert.ok(refused && added.length > 0, 'some globals fit, then one is refused');
  assert.equal([refused.status, refused.body], [400, { message: 'There are already 8 global variables' }]);
  const viaFunction = await set('GLOBAL(LIMG-f)', '1');
  assert.equal([viaFunction.status, viaFunction.body], [400, { message: 'There are already 8 global variables' }]);
  assert.is((await global(added[0]!, 'again')).status, 204, 'replacing one');
  assert.is((await global(added[0]!)).status, 204, 'unsetting one');
  assert.is((await set('GLOBAL(LIMG-f)', '1')).status, 204, 'room again');
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
});

test('/sim/history answers stay within SIM_HISTORY_MAX_BYTES (64 KiB): records are cut short and paged, variables trimmed', async () => {
  const value = 'h'.repeat(8000);
  const make = async (id: string, n: number) => {
    const variables = Object.fromEntries(Array.from({ length: n }, (_, i) => [`H${i}`, value]));
    const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP, channelId: id }, json: { variables } });
    assert.is(r.status, 200, r.text);
    await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
    await ctx.t.http('DELETE', `/ari/channels/${id}`);
    await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  };
  await make('hist-big', 10); // 80 KB of variables: more than one record may carry
  await make('hist-b', 3);
  await make('hist-c', 3);
  const first = await ctx.t.http('GET', '/sim/history', { query: { limit: 10 } });
  assert.is(first.status, 200);
  assert.ok(Buffer.byteLength(first.text) <= 65536, `first page is ${Buffer.byteLength(first.text)} bytes`);
  assert.equal(first.body.map((r: { id: string }) => r.id), ['hist-c', 'hist-b']);
  assert.is(Object.keys(first.body[0].variables).length, 3);
  assert.not.ok('variables_truncated' in first.body[0]);
  const next = await ctx.t.http('GET', '/sim/history', { query: { limit: 10, before: 'hist-b' } });
  assert.is(next.status, 200);
  assert.ok(Buffer.byteLength(next.text) <= 65536, `second page is ${Buffer.byteLength(next.text)} bytes`);
  const big = next.body[0];
  assert.is(big.id, 'hist-big');
  assert.is(big.variables_truncated, true);
  const kept = Object.keys(big.variables);
  assert.ok(kept.length > 0 && kept.length < 10, `${kept.length} of 10 variables kept`);
  assert.equal(kept, Array.from({ length: kept.length }, (_, i) => `H${i}`), 'the first ones, in order');
});

test.run();
