import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

// Starts the IVR (../app.mjs) as a child process against a started Trunkline, as it runs in
// production: its own process, configured by the environment. Resolves once the server knows
// the application (its event socket is open), so a call placed next reaches it.

const APP = fileURLToPath(new URL('../app.mjs', import.meta.url));
const READY_MS = 30_000;

/**
 * @param {{ url: string, ari: { url: string, username: string, password: string } }} pbx what startTrunkline resolved with
 * @param {{ app?: string, env?: Record<string, string> }} [options] the ARI application name (default `ivr`) and more environment
 * @returns {Promise<{ app: string, output(): string, errors(): string, stop(): Promise<{ code: number | null, signal: string | null }> }>}
 */
export async function startIvrApp(pbx, { app = 'ivr', env = {} } = {}) {
  const child = spawn(process.execPath, [APP], {
    env: {
      ...process.env,
      ARI_URL: pbx.url,
      ARI_USERNAME: pbx.ari.username,
      ARI_PASSWORD: pbx.ari.password,
      ARI_APP: app,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));

  const auth = `Basic ${Buffer.from(`${pbx.ari.username}:${pbx.ari.password}`).toString('base64')}`;
  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the IVR exited with ${child.exitCode} before it was ready:\n${out}${err}`);
    const r = await fetch(`${pbx.ari.url}/applications/${encodeURIComponent(app)}`, { headers: { authorization: auth } });
    if (r.status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the IVR did not open its event socket within ${READY_MS} ms:\n${out}${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  return {
    app,
    output: () => out,
    errors: () => err,
    /** SIGTERM, then the exit status (SIGKILL if it has not exited within READY_MS). */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), READY_MS);
      const status = await exited;
      clearTimeout(timer);
      return status;
    },
  };
}
