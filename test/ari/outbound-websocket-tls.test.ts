import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { requireTool } from '../_helpers/skip.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { waitUntil } from '../_helpers/wait.js';
import { startWsPeer, type WsPeer } from '../_helpers/ws-peer.js';

// ARI outbound WebSockets over wss://: the server's certificate is checked against the system's CAs
// and ca_list_file, unless verify_server_cert / verify_server_hostname say otherwise (websocket_client.conf).

const test = suite('outbound-websocket-tls');

/** A self-signed certificate (and key) for the given subjectAltName, written under `dir`. */
function selfSigned(dir: string, name: string, san: string): { cert: string; key: string; certFile: string } {
  const certFile = join(dir, `${name}.pem`);
  const keyFile = join(dir, `${name}.key`);
  const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', `/CN=${name}`, '-addext', `subjectAltName=${san}`], { stdio: 'pipe' });
  assert.is(r.status, 0, r.stderr?.toString());
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}

test('wss://: trusted through ca_list_file or with verification off; refused otherwise, and for a name the certificate does not hold', async (ctx) => {
  if (!requireTool(ctx.__test__, 'openssl', 'openssl', ['version'])) return;
  const dir = tempDir('outbound-tls');
  const peers: WsPeer[] = [];
  let t: TestServer | undefined;
  try {
    const right = selfSigned(dir, 'right', 'IP:127.0.0.1');
    const wrong = selfSigned(dir, 'wrong', 'DNS:elsewhere.example');
    const p = await startWsPeer(undefined, right);
    const q = await startWsPeer(undefined, wrong);
    peers.push(p, q);
    const entry = (peer: WsPeer, app: string, extra: Record<string, unknown>) => ({ uri: peer.url(), connection_type: 'persistent', apps: app, local_ari_user: 'asterisk', reconnect_interval: 50, ...extra });
    t = await startTestServer({
      ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS: 'true',
      ARI_OUTBOUND_WEBSOCKETS: JSON.stringify({
        trusted: entry(p, 'tls-trusted', { ca_list_file: right.certFile, tls_enabled: true }),
        untrusted: entry(p, 'tls-untrusted', {}),
        unverified: entry(p, 'tls-unverified', { verify_server_cert: false }),
        wrongname: entry(q, 'tls-wrongname', { ca_list_file: wrong.certFile }),
        anyname: entry(q, 'tls-anyname', { ca_list_file: wrong.certFile, verify_server_hostname: false }),
      }),
    });
    const registered = (peer: WsPeer) => peer.connections.flatMap((c) => c.log.events.filter((e) => e.type === 'ApplicationRegistered').map((e) => e.application));
    await waitUntil(() => registered(p).length === 2 && registered(q).length === 1, 'the three accepted connections register their apps');
    assert.equal(registered(p).sort(), ['tls-trusted', 'tls-unverified']);
    assert.equal(registered(q), ['tls-anyname']);
    const failed = (connection: string, reason: string) => t!.logs.some((l) => l.includes(`"connection":"${connection}"`) && l.includes(`"reason":"${reason}"`));
    await waitUntil(() => failed('untrusted', 'connection failed (DEPTH_ZERO_SELF_SIGNED_CERT)'), 'the untrusted certificate is refused');
    await waitUntil(() => failed('wrongname', 'connection failed (ERR_TLS_CERT_ALTNAME_INVALID)'), 'the certificate for another name is refused');
    t.assertNoViolations();
  } finally {
    await t?.close();
    for (const peer of peers) await peer.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
