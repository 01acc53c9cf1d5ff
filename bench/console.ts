// The console with many live channels: 1,000 answered channels in a Stasis app, the console
// open on them in headless chromium, then bursts of 1,000 events (32 requests in flight):
//  - on the calls view, the far end of every channel puts it on hold, then takes it off
//    (ChannelHold / ChannelUnhold: every channel's row changes);
//  - on the event log, a channel variable set on every channel (ChannelVarset: 1,000 rows).
//    Figures, in the browser: how long the page takes to apply a burst (from the first burst
//    frame its event tap receives to the moment every change is drawn), and the longest
//    main-thread task meanwhile (what a person clicking would wait for).
//    On the server: each burst's event rate as the application receives it.
//    Baseline (same run): the same bursts' event rate with no console open.
//    CPU per burst of the server, of this script (which sends the requests) and of every
//    chromium process, and the renderer's main thread as chromium counts it: on 2 cores the
//    server's rate falls by whatever the browser takes, so these say where the time went.
//    The event log draws only the lines in view: it counts as drawn when every frame of the
//    burst has arrived and the last line drawn is the newest frame.
//    BENCH_PAGE_PROFILE=dir saves a CPU profile of the page's script for each burst.
// Target: a burst applied in well under a second with no long task near a second, and the
// server's event rate with the console open within 10% of the baseline.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { chromiumPath } from '../test/_helpers/browser.js';
import { launchCdp } from './_cdp.js';
import { AUTH, cpuMsOf, fmt, startTrunkline } from './_lib.js';

const COUNT = Number(process.env.BENCH_CHANNELS ?? 1000);
const IN_FLIGHT = 32;
const executablePath = chromiumPath();
if (!executablePath) {
  console.log('SKIP bench/console.ts (install chromium)');
  process.exit(0);
}

type Kind = 'hold' | 'unhold' | 'var';
/** What each burst sends for channel i, and the event type it makes. */
const BURSTS: Record<Kind, { method: string; path: (i: number, round: number) => string; event: string }> = {
  hold: { method: 'POST', path: (i) => `/sim/channels/con-${i}/hold`, event: 'ChannelHold' },
  unhold: { method: 'DELETE', path: (i) => `/sim/channels/con-${i}/hold`, event: 'ChannelUnhold' },
  var: { method: 'POST', path: (i, round) => `/ari/channels/con-${i}/variable?variable=BENCH_BURST&value=${round}`, event: 'ChannelVarset' },
};

const server = await startTrunkline();
const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ari/events?app=bench-console&api_key=asterisk:asterisk`);
await new Promise((r) => ws.once('open', r));
let started = 0;
const seen = new Map<string, { n: number; last: number }>();
ws.on('message', (d) => {
  const type = /^\{"type":"(\w+)"/.exec(d.toString())?.[1] ?? '';
  if (type === 'StasisStart') started++;
  const s = seen.get(type) ?? { n: 0, last: 0 };
  s.n++;
  s.last = performance.now();
  seen.set(type, s);
});

/** CPU time (user + system, ms) a process has used, from /proc (0 once it has gone). */
function cpuMs(pid: number): number {
  try {
    return cpuMsOf(pid);
  } catch {
    return 0;
  }
}

/** The processes this script started other than the server (chromium's own, its renderer, GPU and utility processes), by kind. */
function browserPids(): Map<number, string> {
  const parent = new Map<number, number>();
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      parent.set(Number(p), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  const kinds = new Map<number, string>();
  for (const pid of parent.keys()) {
    if (pid === server.proc.pid || !under(pid)) continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {}
    kinds.set(pid, /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser');
  }
  return kinds;
}

/** CPU (ms) the server and the browser (in all and by process kind) use while `body` runs. */
async function cpuDuring<T>(body: () => Promise<T>): Promise<{ result: T; serverMs: number; clientMs: number; browserMs: number; byKind: Record<string, number> }> {
  const pids = browserPids();
  const before = new Map([...pids.keys()].map((p) => [p, cpuMs(p)]));
  const server0 = cpuMs(server.proc.pid!);
  const client0 = process.cpuUsage();
  const result = await body();
  const client = process.cpuUsage(client0);
  const clientMs = (client.user + client.system) / 1000;
  const serverMs = cpuMs(server.proc.pid!) - server0;
  const byKind: Record<string, number> = {};
  for (const [p, kind] of pids) byKind[kind] = (byKind[kind] ?? 0) + cpuMs(p) - before.get(p)!;
  return { result, serverMs, clientMs, browserMs: Object.values(byKind).reduce((a, b) => a + b, 0), byKind };
}

async function send(method: string, path: string): Promise<void> {
  const r = await fetch(`${server.url}${path}`, { method, headers: { authorization: AUTH } });
  await r.arrayBuffer();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status}`);
}

async function inFlight(count: number, one: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < count) await one(next++);
  }));
}

async function until(what: string, ok: () => boolean, ms = 120_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let round = 0;
/** One burst; its events' rate as the application receives them (all COUNT of them). */
async function burst(kind: Kind): Promise<number> {
  const b = BURSTS[kind];
  seen.delete(b.event);
  round++;
  const t0 = performance.now();
  await inFlight(COUNT, (i) => send(b.method, b.path(i, round)));
  await until(`${COUNT} ${b.event} at the application`, () => (seen.get(b.event)?.n ?? 0) >= COUNT);
  return COUNT / ((seen.get(b.event)!.last - t0) / 1000);
}

await inFlight(COUNT, (i) => send('POST', `/ari/channels?endpoint=PJSIP/instant&app=bench-console&channelId=con-${i}`));
await until('every StasisStart', () => started >= COUNT);

// Baseline: each burst kind with no console open (after one warm-up round).
for (const k of ['hold', 'unhold', 'var'] as const) await burst(k);
const baseCpu: number[] = [];
const baseClientCpu: number[] = [];
/** A baseline burst, noting the server's CPU (and this script's, which sends the requests) for it. */
async function baseBurst(kind: Kind): Promise<number> {
  const { result, serverMs, clientMs } = await cpuDuring(() => burst(kind));
  baseCpu.push(serverMs);
  baseClientCpu.push(clientMs);
  return result;
}
const baseline = { hold: await baseBurst('hold'), unhold: await baseBurst('unhold'), var: await baseBurst('var') };

// The page runs in chromium driven over DevTools with only Runtime, Page and Performance on
// (bench/_cdp.ts: under Playwright, chromium would copy every WebSocket frame to the driver).
const chrome = await launchCdp(executablePath, { width: 1280, height: 800, args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
const page = chrome.page;
await page.send('Page.enable');
// The renderer's main thread, as chromium counts it (script, layout, style, and its tasks in all).
await page.send('Performance.enable');
const MAIN_THREAD = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'] as const;
type MainThread = Record<(typeof MAIN_THREAD)[number], number>;
async function mainThread(): Promise<MainThread> {
  const { metrics } = await page.send<{ metrics: { name: string; value: number }[] }>('Performance.getMetrics');
  return Object.fromEntries(MAIN_THREAD.map((k) => [k, (metrics.find((m) => m.name === k)?.value ?? 0) * 1000])) as MainThread;
}
// BENCH_PAGE_PROFILE=dir: a CPU profile of the page's script for each burst (load it in chromium's DevTools).
const profileDir = process.env.BENCH_PAGE_PROFILE;
if (profileDir) {
  mkdirSync(profileDir, { recursive: true });
  await page.send('Profiler.enable');
}
// Stamps each frame of the current burst the page's sockets receive (window.__marker names its
// event type), counts the tap's frames, and notes every main-thread task over 50 ms.
await page.send('Page.addScriptToEvaluateOnNewDocument', {
  source: `
    window.__marker = '';
    window.__burst = [];
    window.__burstEvents = 0;
    window.__long = [];
    window.__tapFrames = 0;
    // A batched tap message holds several events: they are counted by their markers.
    const count = (text, what) => { let n = 0; for (let i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + what.length)) n++; return n; };
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url, protocols) {
        super(url, protocols);
        const tap = String(url).includes('/sim/events');
        this.addEventListener('message', (e) => {
          if (typeof e.data !== 'string') return;
          if (tap) window.__tapFrames += count(e.data, '{"app":');
          const n = window.__marker ? count(e.data, window.__marker) : 0;
          if (n) {
            window.__burst.push(performance.now());
            window.__burstEvents += n;
          }
        });
      }
    };
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  `,
});

/** Waits until `condition` (an expression in the page) holds, checked at every animation frame; the page notes the moment. */
const drawn = (condition: string) =>
  page.evaluate(`new Promise((resolve, reject) => {
    const t0 = performance.now();
    const check = () => {
      if (${condition}) {
        window.__drawn = performance.now();
        resolve(true);
      } else if (performance.now() - t0 > 120000) reject(new Error('timed out waiting for ' + ${JSON.stringify(condition)}));
      else requestAnimationFrame(check);
    };
    check();
  })`);
/** How many channel rows show `text` in their state cell. */
const statesWith = (text: string) => `[...document.querySelectorAll('tr.channel td.state')].filter((td) => td.textContent.includes(${JSON.stringify(text)})).length`;

const signInAt = performance.now();
await page.send('Page.navigate', { url: `${server.url}/` });
for (let ready = false; !ready; ) {
  ready = await page.evaluate<boolean>(`!!document.querySelector('input[name="ari-password"]')`).catch(() => false);
  if (!ready) await new Promise((r) => setTimeout(r, 20));
}
await page.evaluate(`(() => {
  const fill = (sel, value) => {
    const el = document.querySelector(sel);
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  };
  fill('input[name="ari-user"]', 'asterisk');
  fill('input[name="ari-password"]', 'asterisk');
})()`);
// After the inputs' renders, so the form submits what was typed.
await page.evaluate(`new Promise((r) => requestAnimationFrame(r)).then(() => document.querySelector('#sign-in button[type="submit"]').click())`);
await drawn(`document.querySelector('#tap-status[data-state="open"]') && document.querySelectorAll('tr.channel').length >= ${COUNT}`);
const shownIn = performance.now() - signInAt;
// Rows just drawn are still being laid out, painted and timed (durations); the bursts start after.
await new Promise((r) => setTimeout(r, 2000));

interface Measured {
  serverRate: number;
  applyMs: number;
  /** From the last burst frame received to every change drawn: how far the page lags behind the feed. */
  lagMs: number;
  frames: number;
  /** WebSocket messages they came in (a batched tap sends several events in one). */
  messages: number;
  longestTaskMs: number;
  /** CPU the server and the browser used from the burst's first request to every change drawn. */
  serverCpuMs: number;
  clientCpuMs: number;
  browserCpuMs: number;
  browserByKind: Record<string, number>;
  /** The renderer's main thread meanwhile (ms): all its tasks, and script, layout and style within them. */
  main: MainThread;
}

/** A burst with the console open: the server's rate, and the page's time to draw all of it. */
async function withConsole(kind: Kind, done: () => Promise<unknown>): Promise<Measured> {
  await page.evaluate(`window.__marker = '"${BURSTS[kind].event}"'; window.__burst = []; window.__burstEvents = 0; window.__long = [];`);
  let serverRate = 0;
  const main0 = await mainThread();
  if (profileDir) await page.send('Profiler.start');
  const cpu = await cpuDuring(async () => {
    serverRate = await burst(kind);
    await done();
  });
  if (profileDir) writeFileSync(join(profileDir, `${kind}-${round}.cpuprofile`), JSON.stringify((await page.send<{ profile: unknown }>('Profiler.stop')).profile));
  const main1 = await mainThread();
  const main = Object.fromEntries(MAIN_THREAD.map((k) => [k, main1[k] - main0[k]])) as Measured['main'];
  const r = (await page.evaluate('({ drawn: window.__drawn, first: window.__burst[0] ?? 0, last: window.__burst.at(-1) ?? 0, frames: window.__burstEvents, messages: window.__burst.length, long: Math.max(0, ...window.__long) })')) as { drawn: number; first: number; last: number; frames: number; messages: number; long: number };
  return { serverRate, applyMs: r.drawn - r.first, lagMs: Math.max(0, r.drawn - r.last), frames: r.frames, messages: r.messages, longestTaskMs: r.long, serverCpuMs: cpu.serverMs, clientCpuMs: cpu.clientMs, browserCpuMs: cpu.browserMs, browserByKind: cpu.byKind, main };
}

// The calls view: every row shows "on hold", then none does.
const calls: Measured[] = [];
for (let i = 0; i < 3; i++) {
  calls.push(await withConsole('hold', () => drawn(`${statesWith('on hold')} >= ${COUNT}`)));
  calls.push(await withConsole('unhold', () => drawn(`${statesWith('on hold')} === 0`)));
}

// The event log: 1,000 more ChannelVarset lines each time (it keeps the newest 5,000 events and
// draws only the lines in view, following the newest): drawn once the burst's every frame has
// arrived and the last line in the page is the newest frame the tap received.
const tailDrawn = () =>
  drawn(`(() => {
    const lines = document.querySelectorAll('tr.log-entry');
    const last = lines[lines.length - 1];
    return window.__burstEvents >= ${COUNT} && !!last && Number(last.dataset.seq) === window.__tapFrames && last.dataset.type === 'ChannelVarset';
  })()`);
await page.evaluate(`document.querySelector('#tab-events').click()`);
const log: Measured[] = [];
for (let i = 0; i < 3; i++) log.push(await withConsole('var', tailDrawn));
await chrome.close().catch((e: Error) => console.error(`chromium's profile not removed: ${e.message}`));
ws.close();
await server.stop();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const list = (xs: number[], unit: string) => xs.map((x) => `${fmt(x, 0)}${unit}`).join(', ');
console.log(`console with ${fmt(COUNT, 0)} live channels (answered, in a Stasis app); bursts of ${fmt(COUNT, 0)} events, ${IN_FLIGHT} requests in flight`);
console.log(`  every channel shown               ${fmt(shownIn, 0)} ms after sign-in`);
console.log(`  calls view: hold/unhold applied   ${list(calls.map((m) => m.applyMs), ' ms')} (first tap frame → every row drawn)`);
console.log(`  calls view: lag behind the feed   ${list(calls.map((m) => m.lagMs), ' ms')} (last tap frame → every row drawn)`);
console.log(`  calls view: longest task          ${list(calls.map((m) => m.longestTaskMs), ' ms')}`);
console.log(`  event log: ${fmt(COUNT, 0)} rows applied ${list(log.map((m) => m.applyMs), ' ms')}`);
console.log(`  event log: lag behind the feed    ${list(log.map((m) => m.lagMs), ' ms')}`);
console.log(`  event log: longest task           ${list(log.map((m) => m.longestTaskMs), ' ms')}`);
console.log(`  events the page received          ${[...calls, ...log].map((m) => m.frames).join('/')} (of ${COUNT} per burst), in ${[...calls, ...log].map((m) => m.messages).join('/')} messages`);
console.log(`  server CPU per burst              ${list([...calls, ...log].map((m) => m.serverCpuMs), ' ms')} console open; ${list(baseCpu, ' ms')} without (hold/unhold/var)`);
console.log(`  bench client CPU per burst        ${list([...calls, ...log].map((m) => m.clientCpuMs), ' ms')} console open; ${list(baseClientCpu, ' ms')} without (this script: requests, the app's socket, driving the page)`);
console.log(`  browser CPU per burst             ${list([...calls, ...log].map((m) => m.browserCpuMs), ' ms')} (every chromium process)`);
const kinds = [...new Set([...calls, ...log].flatMap((m) => Object.keys(m.browserByKind)))].sort();
for (const k of kinds) console.log(`    ${k.padEnd(31)} ${list([...calls, ...log].map((m) => m.browserByKind[k] ?? 0), ' ms')}`);
for (const k of MAIN_THREAD) console.log(`  page main thread: ${k.replace('Duration', '').padEnd(15)} ${list([...calls, ...log].map((m) => m.main[k]), ' ms')}`);
const rateOpen = { hold: median(calls.filter((_, i) => i % 2 === 0).map((m) => m.serverRate)), unhold: median(calls.filter((_, i) => i % 2 === 1).map((m) => m.serverRate)), var: median(log.map((m) => m.serverRate)) };
for (const k of ['hold', 'unhold', 'var'] as const) {
  console.log(`  server ${BURSTS[k].event.padEnd(14)} rate       ${fmt(rateOpen[k], 0)} events/s console open, ${fmt(baseline[k], 0)} without (baseline, same run): ${fmt((rateOpen[k] / baseline[k]) * 100, 0)}% (target ≥ 90%)`);
}
process.exit(0);
