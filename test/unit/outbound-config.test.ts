import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../server/config.js';
import { tempDir } from '../_helpers/temp-dir.js';

// ARI_OUTBOUND_WEBSOCKETS is read at start: a bad entry stops the server with a message naming it.
const test = suite('outbound websocket configuration');

const PASSWORD = 'pa:ss w0rd-outbound';

test('defaults: Asterisk\'s timing, the ari subprotocol, no credentials', () => {
  const c = loadConfig({ ARI_OUTBOUND_WEBSOCKETS: JSON.stringify({ bot: { uri: 'wss://bot.example.com/ari', connection_type: 'persistent', apps: ['a', 'b'], local_ari_user: 'asterisk' } }) });
  assert.equal(c.ariOutbound, [{
    id: 'bot', uri: 'wss://bot.example.com/ari', protocols: 'ari', username: '', password: '', connectionType: 'persistent', apps: ['a', 'b'],
    subscribeAll: false, localAriUser: 'asterisk', connectionTimeout: 500, reconnectInterval: 500, reconnectAttempts: 4,
    tls: { caListFile: undefined, verifyServerCert: true, verifyServerHostname: true },
  }]);
  assert.is(c.websocketClientAllowLocalNetworks, false);
  assert.equal(loadConfig({}).ariOutbound, []);
});

test('bad entries stop the start with a message naming the option, never a password', () => {
  const bad: Array<[unknown, string]> = [
    [{ c: { uri: 'http://x', connection_type: 'persistent', apps: 'a', local_ari_user: 'asterisk', password: PASSWORD } }, 'c.uri: uri must be a ws:// or wss:// address'],
    [{ c: { uri: `ws://u:${PASSWORD}@h`, connection_type: 'persistent', apps: 'a', local_ari_user: 'asterisk' } }, 'c.uri: uri must not carry credentials (use username and password)'],
    [{ c: { uri: 'ws://h', connection_type: 'per_call', apps: 'a', local_ari_user: 'asterisk' } }, 'c.connection_type: connection_type must be persistent or per_call_config'],
    [{ c: { uri: 'ws://h', connection_type: 'persistent', apps: 'a', local_ari_user: 'nobody', password: PASSWORD } }, 'c.local_ari_user: not a user of ARI_USERS'],
    [{ c: { uri: 'ws://h', connection_type: 'persistent', apps: 'a', local_ari_user: 'asterisk' }, d: { uri: 'ws://h', connection_type: 'per_call_config', apps: 'b,a', local_ari_user: 'asterisk' } }, 'd.apps: a is already served by c'],
    [{ c: { uri: 'ws://h', connection_type: 'persistent', apps: ' , ', local_ari_user: 'asterisk' } }, 'c.apps: apps must name at least one application'],
    [{ c: { uri: 'ws://h', connection_type: 'persistent', apps: 'a', local_ari_user: 'asterisk', tls_enabled: true } }, 'c.tls_enabled: TLS needs a wss:// uri'],
    [{ c: { uri: 'wss://h', connection_type: 'persistent', apps: 'a', local_ari_user: 'asterisk', tls_enabled: false } }, 'c.tls_enabled: a wss:// uri always uses TLS'],
  ];
  for (const [value, message] of bad) {
    try {
      loadConfig({ ARI_OUTBOUND_WEBSOCKETS: JSON.stringify(value) });
      assert.unreachable(message);
    } catch (err) {
      assert.instance(err, ConfigError);
      assert.is((err as Error).message, `invalid ARI_OUTBOUND_WEBSOCKETS: ${message}`);
    }
  }
  try {
    loadConfig({ ARI_OUTBOUND_WEBSOCKETS: `{"c":{"password":"${PASSWORD}"` });
    assert.unreachable();
  } catch (err) {
    assert.is((err as Error).message, 'invalid ARI_OUTBOUND_WEBSOCKETS: must be a JSON object of connections by name');
  }
});

test('WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS is the one switch; the older names are read as aliases and must agree', () => {
  const on = (env: Record<string, string>) => loadConfig(env).websocketClientAllowLocalNetworks;
  assert.is(on({}), false);
  assert.is(on({ WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: 'true' }), true);
  assert.is(on({ ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS: 'true' }), true);
  assert.is(on({ MEDIA_WEBSOCKET_ALLOW_LOOPBACK: 'yes' }), true);
  assert.is(on({ MEDIA_WEBSOCKET_ALLOW_LOOPBACK: 'true', ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS: '1', WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: 'true' }), true);
  assert.is(on({ WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: 'false', MEDIA_WEBSOCKET_ALLOW_LOOPBACK: 'false' }), false);
  try {
    loadConfig({ WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: 'false', MEDIA_WEBSOCKET_ALLOW_LOOPBACK: 'true' });
    assert.unreachable();
  } catch (err) {
    assert.instance(err, ConfigError);
    assert.is((err as Error).message, 'WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS, MEDIA_WEBSOCKET_ALLOW_LOOPBACK are one setting now (WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS) and disagree; set only WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS');
  }
});

test('ARI_OUTBOUND_WEBSOCKETS_FILE: the same JSON in a file; a missing file or both settings stop the start', () => {
  const dir = tempDir('outbound-config');
  try {
    const file = join(dir, 'outbound.json');
    writeFileSync(file, JSON.stringify({ bot: { uri: 'wss://bot.example.com/ari', connection_type: 'persistent', apps: 'a', local_ari_user: 'asterisk', password: PASSWORD } }));
    const c = loadConfig({ ARI_OUTBOUND_WEBSOCKETS_FILE: file });
    assert.equal(c.ariOutbound.map((x) => [x.id, x.apps]), [['bot', ['a']]]);
    assert.equal(c.ariOutboundSource, { text: undefined, file });
    const bad: Array<[Record<string, string>, string]> = [
      [{ ARI_OUTBOUND_WEBSOCKETS_FILE: join(dir, 'missing.json') }, 'invalid ARI_OUTBOUND_WEBSOCKETS_FILE: cannot read the file (ENOENT)'],
      [{ ARI_OUTBOUND_WEBSOCKETS_FILE: file, ARI_OUTBOUND_WEBSOCKETS: '{}' }, 'ARI_OUTBOUND_WEBSOCKETS and ARI_OUTBOUND_WEBSOCKETS_FILE are both set; use one'],
    ];
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ c: { uri: 'http://x', connection_type: 'persistent', apps: 'a', local_ari_user: 'asterisk', password: PASSWORD } }));
    bad.push([{ ARI_OUTBOUND_WEBSOCKETS_FILE: join(dir, 'bad.json') }, 'invalid ARI_OUTBOUND_WEBSOCKETS_FILE: c.uri: uri must be a ws:// or wss:// address']);
    for (const [env, message] of bad) {
      try {
        loadConfig(env);
        assert.unreachable(message);
      } catch (err) {
        assert.instance(err, ConfigError);
        assert.is((err as Error).message, message);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
