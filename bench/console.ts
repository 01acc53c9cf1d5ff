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
// Target: a burst applied in well under a second with no long task near a second, and the
// server's event rate with the console open within 10% of the baseline.
import { chromium, type Page } from 'playwright-core';
import WebSocket from 'ws';
import { chromiumPath } from '../test/_helpers/browser.js';
import { AUTH, fmt, startTrunkline } from './_lib.js';

const COUNT = Number(process.env.BENCH_CHANNELS ?? 1000);
const IN_FLIGHT = 32;
const LOG_KEEPS = 5000;
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
const baseline = { hold: await burst('hold'), unhold: await burst('unhold'), var: await burst('var') };

const browser = await chromium.launch({ executablePath, headless: true, args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1', '--no-first-run'] });
const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
// Stamps each frame of the current burst the page's sockets receive (window.__marker names its
// event type), and every main-thread task over 50 ms. (Given as text: no DOM types here.)
await page.addInitScript({
  content: `
    window.__marker = '';
    window.__burst = [];
    window.__long = [];
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url, protocols) {
        super(url, protocols);
        this.addEventListener('message', (e) => {
          if (window.__marker && typeof e.data === 'string' && e.data.includes(window.__marker)) window.__burst.push(performance.now());
        });
      }
    };
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  `,
});

type G = { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }; __drawn: number };
/** Waits (checked on every animation frame) until `n` elements match `selector` (and contain `text`); the page notes the moment. */
const drawn = (selector: string, n: number, text = '') =>
  page.waitForFunction(
    ([sel, want, txt]) => {
      const g = globalThis as unknown as G;
      const all = g.document.querySelectorAll(sel);
      let count = 0;
      for (let i = 0; i < all.length; i++) if (!txt || all[i]!.textContent?.includes(txt)) count++;
      const ok = count >= want;
      if (ok) g.__drawn = performance.now();
      return ok;
    },
    [selector, n, text] as const,
    { timeout: 120_000 },
  );

const signInAt = performance.now();
await page.goto(`${server.url}/`);
await page.locator('input[name="ari-user"]').fill('asterisk');
await page.locator('input[name="ari-password"]').fill('asterisk');
await page.locator('#sign-in button[type="submit"]').click();
await page.locator('#tap-status[data-state="open"]').waitFor({ timeout: 60_000 });
await drawn('tr.channel', COUNT);
const shownIn = performance.now() - signInAt;

interface Measured {
  serverRate: number;
  applyMs: number;
  /** From the last burst frame received to every change drawn: how far the page lags behind the feed. */
  lagMs: number;
  frames: number;
  longestTaskMs: number;
}

/** A burst with the console open: the server's rate, and the page's time to draw all of it. */
async function withConsole(kind: Kind, done: () => Promise<unknown>): Promise<Measured> {
  await page.evaluate(`window.__marker = '"${BURSTS[kind].event}"'; window.__burst = []; window.__long = [];`);
  const serverRate = await burst(kind);
  await done();
  const r = (await page.evaluate('({ drawn: window.__drawn, first: window.__burst[0] ?? 0, last: window.__burst.at(-1) ?? 0, frames: window.__burst.length, long: Math.max(0, ...window.__long) })')) as { drawn: number; first: number; last: number; frames: number; long: number };
  return { serverRate, applyMs: r.drawn - r.first, lagMs: Math.max(0, r.drawn - r.last), frames: r.frames, longestTaskMs: r.long };
}

// The calls view: every row shows "on hold", then none does.
const calls: Measured[] = [];
for (let i = 0; i < 3; i++) {
  calls.push(await withConsole('hold', () => drawn('tr.channel td.state', COUNT, 'on hold')));
  calls.push(await withConsole('unhold', noneHeld));
}
/** Waits until no row shows "on hold"; the page notes the moment. */
async function noneHeld() {
  await page.waitForFunction(() => {
    const g = globalThis as unknown as G;
    const all = g.document.querySelectorAll('tr.channel td.state');
    for (let i = 0; i < all.length; i++) if (all[i]!.textContent?.includes('on hold')) return false;
    g.__drawn = performance.now();
    return true;
  }, undefined, { timeout: 120_000 });
}

// The event log: 1,000 more ChannelVarset rows each time (it keeps the newest 5,000 events).
await page.locator('#tab-events').click();
const log: Measured[] = [];
for (let i = 0; i < 3; i++) {
  const before = await page.locator('tr.log-entry[data-type="ChannelVarset"]').count();
  log.push(await withConsole('var', () => drawn('tr.log-entry[data-type="ChannelVarset"]', Math.min(before + COUNT, LOG_KEEPS))));
}
await browser.close();
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
console.log(`  frames the page received          ${[...calls, ...log].map((m) => m.frames).join('/')} (of ${COUNT} per burst)`);
const rateOpen = { hold: median(calls.filter((_, i) => i % 2 === 0).map((m) => m.serverRate)), unhold: median(calls.filter((_, i) => i % 2 === 1).map((m) => m.serverRate)), var: median(log.map((m) => m.serverRate)) };
for (const k of ['hold', 'unhold', 'var'] as const) {
  console.log(`  server ${BURSTS[k].event.padEnd(14)} rate       ${fmt(rateOpen[k], 0)} events/s console open, ${fmt(baseline[k], 0)} without (baseline, same run): ${fmt((rateOpen[k] / baseline[k]) * 100, 0)}% (target ≥ 90%)`);
}
process.exit(0);
