import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../server/config.js';

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
  assert.is(c.ariOutboundAllowLocalNetworks, false);
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

test.run();
