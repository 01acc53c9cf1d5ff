import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, isListenHost, loadConfig, readEnvironment } from '../../server/config.js';
import { tempDir } from '../_helpers/temp-dir.js';

const test = suite('config');

test('defaults: 127.0.0.1:8088, ./data, asterisk:asterisk, scale 1', () => {
  const c = loadConfig({});
  assert.is(c.host, '127.0.0.1');
  assert.is(c.port, 8088);
  assert.is(c.dataDir, './data');
  assert.equal(c.ariUsers, [{ name: 'asterisk', password: 'asterisk', readOnly: false }]);
  assert.is(c.simTimeScale, 1);
  assert.is(c.logLevel, 'info');
  assert.is(c.dbSynchronous, 'NORMAL');
  assert.is(c.checkResponses, false);
  assert.is(loadConfig({ NODE_ENV: 'test' }).checkResponses, true);
  assert.is(loadConfig({ NODE_ENV: 'test', CHECK_RESPONSES: 'false' }).checkResponses, false);
});

test('ARI_USERS: several users, :ro, passwords containing colons, blanks ignored', () => {
  const c = loadConfig({ ARI_USERS: 'a:one, b:t:w:o:ro ,c:x:y,' });
  assert.equal(c.ariUsers, [
    { name: 'a', password: 'one', readOnly: false },
    { name: 'b', password: 't:w:o', readOnly: true },
    { name: 'c', password: 'x:y', readOnly: false },
  ]);
});

test('a bad value throws a ConfigError naming the key (and never echoing ARI_USERS)', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['PORT', 'http', /^invalid PORT: PORT must be an integer \(got "http"\)$/],
    ['PORT', '70000', /^invalid PORT: PORT must be at most 65535/],
    ['SIM_TIME_SCALE', '0', /^invalid SIM_TIME_SCALE: SIM_TIME_SCALE must be at least 0.01/],
    ['SIM_TIME_SCALE', 'fast', /^invalid SIM_TIME_SCALE:/],
    ['LOG_LEVEL', 'chatty', /^invalid LOG_LEVEL: LOG_LEVEL must be one of/],
    ['DB_SYNCHRONOUS', 'OFF', /^invalid DB_SYNCHRONOUS/],
    ['ROOT_URL', 'not a url', /^invalid ROOT_URL/],
    ['ARI_USERS', 'secretpass', /^invalid ARI_USERS: .*\(got \(hidden\)\)$/],
    ['CHECK_RESPONSES', 'maybe', /^invalid CHECK_RESPONSES/],
  ];
  for (const [key, val, re] of cases) {
    try {
      loadConfig({ [key]: val });
      assert.unreachable(`${key}=${val} accepted`);
    } catch (err) {
      assert.instance(err, ConfigError);
      assert.match((err as Error).message, re);
      assert.not.match((err as Error).message, /secretpass/);
    }
  }
});

test('SIM_CLOCK and SIM_CLOCK_START: real by default, a fixed start in virtual mode, bad values naming the key', () => {
  assert.equal(loadConfig({}).simClock, { mode: 'real' });
  assert.equal(loadConfig({ SIM_CLOCK: 'virtual' }).simClock, { mode: 'virtual', start: Date.UTC(2025, 0, 1) });
  assert.equal(loadConfig({ SIM_CLOCK: 'virtual', SIM_CLOCK_START: '2030-06-30T12:00:00.250+02:00' }).simClock, { mode: 'virtual', start: Date.UTC(2030, 5, 30, 10, 0, 0, 250) });
  const cases: Array<[Record<string, string>, string]> = [
    [{ SIM_CLOCK: 'fake' }, 'invalid SIM_CLOCK: SIM_CLOCK must be real or virtual (got "fake")'],
    [{ SIM_CLOCK: 'virtual', SIM_CLOCK_START: 'yesterday' }, 'invalid SIM_CLOCK_START: SIM_CLOCK_START must be an ISO instant such as 2025-01-01T00:00:00Z (got "yesterday")'],
    [{ SIM_CLOCK: 'virtual', SIM_CLOCK_START: '2025-02-30T00:00:00Z' }, 'invalid SIM_CLOCK_START: SIM_CLOCK_START must be an ISO instant such as 2025-01-01T00:00:00Z (got "2025-02-30T00:00:00Z")'],
    [{ SIM_CLOCK: 'virtual', SIM_CLOCK_START: '2025-01-01T00:00:00' }, 'invalid SIM_CLOCK_START: SIM_CLOCK_START must be an ISO instant such as 2025-01-01T00:00:00Z (got "2025-01-01T00:00:00")'],
    [{ SIM_CLOCK_START: '2025-01-01T00:00:00Z' }, 'invalid SIM_CLOCK_START: SIM_CLOCK_START needs SIM_CLOCK=virtual (the real clock starts at the system time) (got "2025-01-01T00:00:00Z")'],
  ];
  for (const [env, message] of cases) {
    try {
      loadConfig(env);
      assert.unreachable(`${JSON.stringify(env)} accepted`);
    } catch (err) {
      assert.instance(err, ConfigError);
      assert.is((err as Error).message, message);
    }
  }
});

test('stored-object and far-end list limits: defaults, settings, and bad values naming the key', () => {
  const d = loadConfig({}).ariLimits;
  assert.is(d.maxStoredObjects, 10_000);
  assert.is(d.simFarEndKeep, 1000);
  const c = loadConfig({ ARI_MAX_STORED_OBJECTS: '3', SIM_FAR_END_KEEP: '2' }).ariLimits;
  assert.is(c.maxStoredObjects, 3);
  assert.is(c.simFarEndKeep, 2);
  assert.throws(() => loadConfig({ ARI_MAX_STORED_OBJECTS: '0' }), /^invalid ARI_MAX_STORED_OBJECTS: ARI_MAX_STORED_OBJECTS must be at least 1 \(got "0"\)$/);
  assert.throws(() => loadConfig({ SIM_FAR_END_KEEP: 'lots' }), /^invalid SIM_FAR_END_KEEP: SIM_FAR_END_KEEP must be an integer/);
});

test('HOST: IP literals, localhost and host names; anything else is refused naming HOST', () => {
  const good = ['127.0.0.1', '0.0.0.0', '10.1.2.3', '::1', '::', 'fe80::1', '2001:db8::8a2e:370:7334', '::ffff:127.0.0.1', 'localhost', 'LocalHost', 'a', 'my-host', 'trunk1.example.com', 'xn--bcher-kva.example', `${'a'.repeat(63)}.example`];
  for (const host of good) {
    assert.ok(isListenHost(host), host);
    assert.is(loadConfig({ HOST: host }).host, host);
  }
  const bad = [
    '0.0.0.0:8088', // a port belongs in PORT
    'http://127.0.0.1', // a URL belongs in ROOT_URL
    '127.0.0.1/8',
    '[::1]', // brackets belong in URLs, not in a listen address
    'fe80::1%eth0', // zones are not accepted
    '999.1.1.1', // looks like IPv4, is not
    '10.0.0',
    '1.2.3.4.5',
    'host name',
    ' localhost',
    'localhost.', // no trailing dot
    '-lead.example',
    'trail-.example',
    'a..b',
    '.example',
    'under_score.example',
    'h\u00f4te.example',
    `${'a'.repeat(64)}.example`,
    `${'a.'.repeat(126)}abc`, // 255 characters
    'localhost\n',
  ];
  for (const host of bad) {
    assert.not.ok(isListenHost(host), JSON.stringify(host));
    try {
      loadConfig({ HOST: host });
      assert.unreachable(`HOST=${JSON.stringify(host)} accepted`);
    } catch (err) {
      assert.instance(err, ConfigError);
      assert.is((err as Error).message, `invalid HOST: HOST must be an IP address (such as 127.0.0.1, 0.0.0.0 or ::1), localhost or a host name (got ${JSON.stringify(host)})`);
    }
  }
});

test('.env supplies values the environment lacks; the environment wins', () => {
  const dir = tempDir('env');
  const file = join(dir, '.env');
  writeFileSync(file, 'PORT=9001\nLOG_LEVEL=debug\n# comment\nARI_USERS="x:y"\n');
  const env = readEnvironment({ LOG_LEVEL: 'warn' }, file);
  const c = loadConfig(env);
  assert.is(c.port, 9001);
  assert.is(c.logLevel, 'warn');
  assert.equal(c.ariUsers, [{ name: 'x', password: 'y', readOnly: false }]);
  assert.equal(readEnvironment({}, join(dir, 'missing.env')), {});
  rmSync(dir, { recursive: true, force: true });
});

test.run();
