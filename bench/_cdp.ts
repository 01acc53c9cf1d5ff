// A headless chromium driven over the DevTools protocol with only the domains a benchmark asks for.
// (As Playwright does by default, the sandbox is off: benchmarks run as root in a throwaway machine.)
// Playwright turns on the Network domain for every page, so chromium sends it a copy of each
// WebSocket frame the page receives; with a page fed thousands of frames a second, that copying
// (in chromium and in the process reading it) would be counted as the page's own cost.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

type Params = Record<string, unknown>;

/** One page in the browser: DevTools commands sent to it, and expressions evaluated in it. */
export interface CdpPage {
  send<T = Params>(method: string, params?: Params): Promise<T>;
  /** Evaluates `expression` in the page (awaiting it when it is a promise); returns its value. */
  evaluate<T>(expression: string): Promise<T>;
}

/** Chromium, started headless with a fresh profile, and one page in it. */
export interface CdpBrowser {
  proc: ChildProcess;
  page: CdpPage;
  close(): Promise<void>;
}

/** Starts chromium (`executablePath`) and opens a blank page of `width`×`height` in it. */
export async function launchCdp(executablePath: string, opts: { width: number; height: number; args?: string[] }): Promise<CdpBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'trunkline-bench-chromium-'));
  const proc = spawn(executablePath, [
    '--headless=new', '--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check',
    '--disable-background-networking', '--disable-component-update', ...(opts.args ?? []), 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`chromium did not start:\n${err}`)), 30_000);
    proc.stderr!.on('data', (d: Buffer) => {
      err += d;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.once('exit', (code) => reject(new Error(`chromium exited ${code}:\n${err}`)));
  });
  const ws = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  let next = 0;
  const waiting = new Map<number, { resolve: (v: Params) => void; reject: (e: Error) => void; method: string }>();
  ws.on('message', (d) => {
    const msg = JSON.parse(d.toString()) as { id?: number; result?: Params; error?: { message: string } };
    const w = msg.id === undefined ? undefined : waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id!);
    if (msg.error) w.reject(new Error(`${w.method}: ${msg.error.message}`));
    else w.resolve(msg.result ?? {});
  });
  const send = <T>(method: string, params: Params = {}, sessionId?: string) =>
    new Promise<T>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve: resolve as (v: Params) => void, reject, method });
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });

  const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', newWindow: true, width: opts.width, height: opts.height });
  const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  const page: CdpPage = {
    send: (method, params) => send(method, params, sessionId),
    async evaluate<T>(expression: string): Promise<T> {
      const r = await send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
        'Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId,
      );
      if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
      return r.result.value as T;
    },
  };
  await page.send('Emulation.setDeviceMetricsOverride', { width: opts.width, height: opts.height, deviceScaleFactor: 1, mobile: false });
  return {
    proc,
    page,
    async close() {
      const gone = new Promise((r) => proc.once('exit', r));
      await send('Browser.close').catch(() => proc.kill('SIGTERM'));
      const stuck = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(stuck);
      ws.close();
      // Its helper processes may go on writing to the profile for a moment after it exits.
      for (let tries = 1; ; tries++) {
        try {
          rmSync(profile, { recursive: true, force: true });
          break;
        } catch (e) {
          if (tries >= 50) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
  };
}
