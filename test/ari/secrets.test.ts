import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectEvents } from '../_helpers/events.js';
import { refusedUpgrade } from '../_helpers/refused-upgrade.js';
import type { TestServer } from '../_helpers/server.js';
import { useTestServer } from '../_helpers/use-test-server.js';

// No credential is ever written to a log line or returned in a response.
const test = suite('secrets');
const PASSWORD = 'Sup3r-S3cret-Pw';
const VIEWER = 'V1ewer-Pw-Zz';
const ctx = useTestServer(test, { LOG_LEVEL: 'trace', ARI_USERS: `boss:${PASSWORD},viewer:${VIEWER}:ro` });
let t: TestServer;
test.before(() => {
  t = ctx.t;
});

test('credentials in headers, api_key and WebSocket URLs never reach the logs or any answer', async () => {
  const basic = (u: string, p: string) => `${u}:${p}`;
  const answers: string[] = [];
  const rec = async (p: Promise<{ text: string }>) => answers.push((await p).text);
  await rec(t.http('GET', '/ari/asterisk/info', { auth: basic('boss', PASSWORD) }));
  await rec(t.http('GET', `/ari/channels?api_key=boss:${PASSWORD}`, { auth: null }));
  await rec(t.http('GET', '/ari/channels', { auth: basic('boss', 'wrong-guess-pw') }));
  await rec(t.http('POST', '/ari/channels', { auth: basic('viewer', VIEWER), query: { endpoint: 'PJSIP/alice', app: 'x' } }));
  await rec(t.http('GET', '/ari/api-docs/resources.json', { auth: basic('boss', PASSWORD) }));
  await rec(t.http('GET', '/ari/applications', { auth: basic('boss', PASSWORD) }));
  await rec(t.http('POST', '/sim/calls', { auth: basic('boss', PASSWORD), query: { endpoint: 'PJSIP/bob', extension: '1000', api_key: `boss:${PASSWORD}` } }));
  const ev = await connectEvents(t.url, 'sec', { auth: `boss:${PASSWORD}` });
  const o = await t.http('POST', '/ari/channels', { auth: basic('boss', PASSWORD), query: { endpoint: 'PJSIP/instant', app: 'sec' } });
  answers.push(o.text);
  await ev.waitFor('StasisStart');
  await ev.close();
  // A refused upgrade with a wrong key.
  await refusedUpgrade(`${t.url.replace('http', 'ws')}/ari/events?app=sec&api_key=boss:wrong-guess-pw`).catch(() => {});
  const b64 = Buffer.from(`boss:${PASSWORD}`).toString('base64');
  const everything = [...t.logs, ...answers].join('\n');
  assert.ok(t.logs.length > 0, 'the server logged something at trace level');
  for (const secret of [PASSWORD, VIEWER, 'wrong-guess-pw', b64]) assert.not.ok(everything.includes(secret), `found ${secret}`);
});

test.run();
