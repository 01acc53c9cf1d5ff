// Soak: a steady mix for BENCH_SECONDS (default 300) against one server — channel
// lifecycles with events over the app's WebSocket, file commits, raw and contents
// reads, push mirror syncs, and a WebSocket consumer that stops reading — sampling
// the server's RSS, open file descriptors and git processes every 10 s. Baseline:
// the same figures after warm-up, in the same run. Holds when RSS and fds stay flat,
// no git process is left behind, and the stalled consumer is cut off without
// slowing the others. Load goes to 127.0.0.1 only and is bounded in time.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { fmt, percentile, request, startTrunkline } from './_lib.js';
import { BENCH_ADMIN, call, setupRepo } from './_gitea.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const SAMPLE_MS = 10_000;

const work = mkdtempSync(join(tmpdir(), 'trunkline-soak-'));
// History is bounded by CHANNEL_HISTORY_LIMIT; a small one shows leaks rather than the history filling up.
const server = await startTrunkline({ ...BENCH_ADMIN, MIRROR_ALLOW_LOCAL_NETWORKS: 'true', WS_MAX_BUFFERED_BYTES: String(1024 * 1024), CHANNEL_HISTORY_LIMIT: '1000' }, { inspect: true });

/**
 * The server's heap and external memory after a full GC, through its inspector
 * (loopback): RSS follows V8's heap sizing under load, these follow what is kept.
 */
async function memoryAfterGc(): Promise<{ heap: number; external: number }> {
  const ws = new WebSocket(server.inspectorUrl!);
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  let id = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<any>((resolve) => {
      const my = ++id;
      const onMessage = (d: WebSocket.RawData) => {
        const m = JSON.parse(String(d));
        if (m.id === my) {
          ws.off('message', onMessage);
          resolve(m.result);
        }
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id: my, method, params }));
    });
  await call('HeapProfiler.collectGarbage');
  const r = await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
  ws.close();
  const m = JSON.parse(r.result.value) as { heapUsed: number; external: number };
  return { heap: m.heapUsed / 1048576, external: m.external / 1048576 };
}
const pid = server.proc.pid!;
const fds = () => readdirSync(`/proc/${pid}/fd`).length;
/** git processes whose parent is the server, excluding the long-lived readers (cat-file, update-ref --stdin). */
function gitChildren(): { all: number; transient: number } {
  let all = 0;
  let transient = 0;
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ');
      if (!cmd.startsWith('git')) continue;
      all++;
      if (!/cat-file|update-ref .*--stdin/.test(cmd)) transient++;
    } catch {}
  }
  return { all, transient };
}

try {
  const { auth, owner, repo } = await setupRepo(server.url, 'soak');
  const api = `${server.url}/api/v1/repos/${owner}/${repo}`;
  const target = join(work, 'mirror.git');
  execFileSync('git', ['init', '-q', '--bare', target]);
  await call(`${api}/push_mirrors`, 'POST', auth, { remote_address: `file://${target}`, interval: '0', sync_on_commit: true });

  const events = new WebSocket(`${server.url.replace('http', 'ws')}/ari/events?app=soak&api_key=asterisk:asterisk`);
  await new Promise((r) => events.once('open', r));
  // A consumer that never reads: the server must cut it off, not buffer for it forever.
  const stalled = new WebSocket(`${server.url.replace('http', 'ws')}/ari/events?app=soak-stalled&api_key=asterisk:asterisk`);
  await new Promise((r) => stalled.once('open', r));
  (stalled as unknown as { _socket: { pause(): void } })._socket.pause();
  let stalledClosed = false;
  stalled.on('close', () => (stalledClosed = true));

  const latencies: number[] = [];
  const counts = { lifecycles: 0, commits: 0, reads: 0, errors: 0 };
  let stop = false;
  const loop = async (fn: (i: number) => Promise<void>) => {
    for (let i = 0; !stop; i++) {
      try {
        await fn(i);
      } catch {
        counts.errors++;
      }
    }
  };
  const channels = loop(async (i) => {
    const t0 = performance.now();
    // Every other channel goes to the stalled consumer's app, so its backlog grows.
    const app = i % 2 ? 'soak-stalled' : 'soak';
    const r = await request(`${server.url}/ari/channels?endpoint=PJSIP/instant&app=${app}&channelId=soak-${i}`, 'POST');
    if (r.status !== 200) throw new Error(String(r.status));
    await request(`${server.url}/ari/channels/soak-${i}`, 'DELETE');
    latencies.push(performance.now() - t0);
    counts.lifecycles++;
  });
  const commits = loop(async (i) => {
    const r = await call(`${api}/contents/soak/${i % 200}.txt`, i < 200 ? 'POST' : 'PUT', auth, { content: Buffer.from(`${i}\n`).toString('base64') });
    if (r.status >= 300) throw new Error(String(r.status));
    counts.commits++;
    await new Promise((res) => setTimeout(res, 50));
  });
  const reads = loop(async (i) => {
    const r = await call(i % 2 ? `${api}/raw/README.md` : `${api}/contents/soak`, 'GET', auth);
    if (r.status !== 200 && r.status !== 404) throw new Error(String(r.status));
    counts.reads++;
  });

  const samples: { t: number; rss: number; heap: number; external: number; fds: number; git: number; transient: number }[] = [];
  const t0 = Date.now();
  const sample = async () => {
    const gc = gitChildren();
    const rss = server.rssMiB();
    const mem = await memoryAfterGc();
    samples.push({ t: (Date.now() - t0) / 1000, rss, ...mem, fds: fds(), git: gc.all, transient: gc.transient });
  };
  await new Promise((r) => setTimeout(r, Math.min(SAMPLE_MS, SECONDS * 100)));
  await sample(); // baseline after warm-up
  while (Date.now() - t0 < SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, SAMPLE_MS));
    await sample();
  }
  stop = true;
  await Promise.all([channels, commits, reads]);
  // Let mirror syncs and channel teardown settle, then look for leftovers.
  await new Promise((r) => setTimeout(r, 3000));
  // The stalled reader reads again: if the server cut it off, its close arrives once the backlog is read.
  (stalled as unknown as { _socket: { resume(): void } })._socket.resume();
  for (let i = 0; i < 100 && !stalledClosed; i++) await new Promise((r) => setTimeout(r, 50));
  const after = gitChildren();
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const peakRss = Math.max(...samples.map((s) => s.rss));
  latencies.sort((a, b) => a - b);
  events.close();

  console.log(`Soak: ${SECONDS} s of mixed load (channel lifecycles, commits with a sync_on_commit mirror, raw/contents reads)`);
  console.log(`  done           ${fmt(counts.lifecycles, 0)} lifecycles (p50 ${fmt(percentile(latencies, 50))} ms, p99 ${fmt(percentile(latencies, 99))} ms), ${fmt(counts.commits, 0)} commits, ${fmt(counts.reads, 0)} reads, ${counts.errors} errors`);
  console.log(`  RSS            ${fmt(first.rss, 0)} MiB after warm-up → ${fmt(last.rss, 0)} MiB at the end (peak ${fmt(peakRss, 0)})`);
  console.log(`  open fds       ${first.fds} → ${last.fds}`);
  console.log(`  git processes  ${after.all} after the load (${after.transient} besides the long-lived readers)`);
  console.log(`  stalled socket ${stalledClosed ? 'cut off' : 'STILL OPEN'}`);
  for (const s of samples) console.log(`    t=${fmt(s.t, 0)}s rss=${fmt(s.rss, 0)} MiB heap=${fmt(s.heap, 1)} MiB external=${fmt(s.external, 1)} MiB fds=${s.fds} git=${s.git}`);
  // Caches fill during the first half; "flat" means memory kept after a full GC climbs no
  // higher in the second half than in the first (RSS is shown, but it follows V8's heap sizing).
  const half = samples.slice(0, Math.max(1, Math.ceil(samples.length / 2)));
  const rest = samples.slice(half.length);
  const peak = (xs: typeof samples, f: (s: (typeof samples)[number]) => number) => Math.max(...xs.map(f), 0);
  const kept = (s: (typeof samples)[number]) => s.heap + s.external;
  const flat = peak(rest, kept) <= peak(half, kept) * 1.05 + 2 && last.fds <= first.fds + 16 && after.transient === 0 && stalledClosed;
  console.log(`  kept memory    heap + external after a full GC: ${fmt(kept(first), 1)} MiB after warm-up, peaks ${fmt(peak(half, kept), 1)} MiB (first half) and ${fmt(peak(rest, kept), 1)} MiB (second half), ${fmt(kept(last), 1)} MiB at the end`);
  console.log(`  verdict        ${flat ? 'OK (kept memory and fds flat, nothing left behind, slow consumer cut off)' : 'CHECK the figures above'}`);
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
