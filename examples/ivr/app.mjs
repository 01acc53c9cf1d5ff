// An IVR as a Stasis application, using the ari-client package. Every call that enters the
// application is answered and greeted, then offered a menu: 1 leaves a message (recorded, played
// back, then goodbye), 2 is put through to an agent (music on hold while the agent's phone
// rings, then both in one bridge), anything else is an invalid choice. See README.md.
//
// Configured by the environment: ARI_URL (http://host:port), ARI_USERNAME, ARI_PASSWORD,
// ARI_APP, and the IVR_* settings of lib/config.mjs. SIGTERM or SIGINT hangs up the calls in
// progress, removes their bridges, and exits 0.
import ari from 'ari-client';
import { readConfig } from './lib/config.mjs';
import { serveIvr } from './lib/ivr-app.mjs';

const log = (line) => process.stderr.write(`${line}\n`);

let config;
try {
  config = readConfig();
} catch (err) {
  log(`ivr: ${err.message}`);
  process.exit(2);
}

let client;
try {
  client = await ari.connect(config.url, config.username, config.password);
} catch (err) {
  log(`ivr: cannot connect to ${config.url}: ${err?.message ?? err}`);
  process.exit(1);
}

const ivr = serveIvr(client, config, log);
client.on('WebSocketMaxRetries', () => {
  log('ivr: lost the event socket and could not reconnect');
  process.exit(1);
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`ivr: ${signal}: hanging up ${ivr.size} call(s)`);
  await ivr.shutdown();
  client.stop();
  process.exit(0);
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

await client.start(config.app);
console.log(`ivr: serving ${config.app} at ${config.url}`);
