import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { restartableServer } from '../_helpers/child.js';
import { useServer } from '../_helpers/suite.js';

// ARI's asterisk/logging: the configured log channels, channels added and removed at run time
// (kept in SQLite), rotation of file channels, with Asterisk's statuses and words.
const test = suite('asterisk-logging');
const ctx = useServer(test);

const log = (name: string) => `/ari/asterisk/logging/${encodeURIComponent(name)}`;
const add = (name: string, configuration?: string) => ctx.t.http('POST', log(name), { query: { configuration } });
const list = async () => (await ctx.t.http('GET', '/ari/asterisk/logging')).body;

const MESSAGES = { channel: '/var/log/asterisk/messages.log', type: 'File', status: 'Enabled', configuration: 'NOTICE WARNING ERROR ' };
const CONSOLE = { channel: '', type: 'Console', status: 'Enabled', configuration: 'NOTICE WARNING ERROR VERBOSE ' };

test('list: the configured channels; the console always has VERBOSE', async () => {
  const r = await ctx.t.http('GET', '/ari/asterisk/logging');
  assert.is(r.status, 200);
  assert.equal(r.body, [MESSAGES, CONSOLE]);
});

test('add: 204; newest first; levels in level order, verbose(n) and * understood, unknown words ignored', async () => {
  assert.is((await add('debug.log', 'verbose(3), dtmf,DEBUG')).status, 204);
  assert.is((await add('syslog.local3', '*')).status, 204);
  assert.is((await add('/srv/calls.log', 'error,bogus')).status, 204);
  assert.is((await add('quiet.log', 'nothing,known')).status, 204);
  assert.equal(await list(), [
    { channel: '/var/log/asterisk/quiet.log', type: 'File', status: 'Enabled', configuration: '' },
    { channel: '/srv/calls.log', type: 'File', status: 'Enabled', configuration: 'ERROR ' },
    { channel: 'syslog.local3', type: 'Syslog', status: 'Enabled', configuration: 'DEBUG TRACE NOTICE WARNING ERROR VERBOSE DTMF ' },
    { channel: '/var/log/asterisk/debug.log', type: 'File', status: 'Enabled', configuration: 'DEBUG VERBOSE DTMF ' },
    MESSAGES,
    CONSOLE,
  ]);
});

test('add refusals: no levels → 400; a channel that exists (by any name for it) → 409; names that cannot be a channel → 400', async () => {
  for (const configuration of [undefined, '']) {
    const r = await add('new.log', configuration);
    assert.is(r.status, 400, String(configuration));
    assert.equal(r.body, { message: 'Configuration levels are required' });
  }
  for (const name of ['debug.log', '/var/log/asterisk/debug.log', 'console', 'CONSOLE', 'messages.log']) {
    const r = await add(name, 'error');
    assert.is(r.status, 409, name);
    assert.equal(r.body, { message: 'Log channel already exists' });
  }
  const facility = await add('syslog.nosuch', 'error');
  assert.is(facility.status, 400);
  assert.equal(facility.body, { message: 'Unknown syslog facility' });
  for (const name of ['../escape.log', 'a\u0001b', 'x'.repeat(256)]) {
    const r = await add(name, 'error');
    assert.is(r.status, 400, name);
    assert.equal(r.body, { message: 'Log channel name cannot be used' });
  }
  assert.is((await list()).length, 6);
});

test('delete: a channel added at run time → 204, then 404; configured channels are not removed (404)', async () => {
  assert.is((await ctx.t.http('DELETE', log('quiet.log'))).status, 204);
  for (const name of ['quiet.log', 'messages.log', 'console', 'nosuch.log']) {
    const r = await ctx.t.http('DELETE', log(name));
    assert.is(r.status, 404, name);
    assert.equal(r.body, { message: 'Log channel does not exist' });
  }
  // By its full path too.
  assert.is((await ctx.t.http('DELETE', log('/var/log/asterisk/debug.log'))).status, 204);
  assert.equal((await list()).map((c: { channel: string }) => c.channel), ['/srv/calls.log', 'syslog.local3', MESSAGES.channel, '']);
});

test('rotate: file channels → 204 (configured or added); console, syslog and unknown channels → 404', async () => {
  for (const name of ['messages.log', '/srv/calls.log']) assert.is((await ctx.t.http('PUT', `${log(name)}/rotate`)).status, 204, name);
  for (const name of ['console', 'syslog.local3', 'nosuch.log']) {
    const r = await ctx.t.http('PUT', `${log(name)}/rotate`);
    assert.is(r.status, 404, name);
    assert.equal(r.body, { message: 'Log channel does not exist' });
  }
  // Rotation keeps every channel (Asterisk's rotation rebuilds its list from logger.conf; ours keeps the added ones).
  assert.is((await list()).length, 4);
});

test('a read-only user can list but not change', async () => {
  assert.is((await ctx.t.http('GET', '/ari/asterisk/logging', { auth: 'viewer:secret-viewer' })).status, 200);
  const r = await ctx.t.http('POST', log('viewer.log'), { query: { configuration: 'error' }, auth: 'viewer:secret-viewer' });
  assert.is(r.status, 403);
  assert.equal(r.body, { message: 'Write access denied' });
});

test('restart: added channels survive SIGKILL, in the same order; removed ones stay removed', async () => {
  const servers = restartableServer('logging-restart');
  try {
    let server = await servers.start();
    for (const [name, levels] of [['first.log', 'error'], ['syslog.user', 'notice'], ['gone.log', 'debug']] as const) {
      assert.is((await server.http('POST', log(name), { query: { configuration: levels } })).status, 204, name);
    }
    assert.is((await server.http('DELETE', log('gone.log'))).status, 204);
    await servers.kill();
    server = await servers.start();
    assert.equal((await server.http('GET', '/ari/asterisk/logging')).body, [
      { channel: 'syslog.user', type: 'Syslog', status: 'Enabled', configuration: 'NOTICE ' },
      { channel: '/var/log/asterisk/first.log', type: 'File', status: 'Enabled', configuration: 'ERROR ' },
      MESSAGES,
      CONSOLE,
    ]);
    assert.is((await server.http('DELETE', log('first.log'))).status, 204);
    server.assertNoViolations();
  } finally {
    await servers.cleanup();
  }
});

test.run();
