import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const root = join(import.meta.dirname, '..');

export interface Proc {
  proc: ChildProcess;
  url: string;
  port: number;
  /** The server's DATA_DIR (Trunkline only). */
  dataDir?: string;
  /** With `inspect`: the server's inspector WebSocket (loopback), for heap figures after a forced GC. */
  inspectorUrl?: string;
  /** Resident set size of the process, MiB. */
  rssMiB(): number;
  /** CPU time (user + system) the process has used so far, ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

function waitForUrl(proc: ChildProcess, pattern: RegExp): Promise<{ url: string; port: number; out: () => string }> {
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, port: Number(m[2]), out: () => out });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d) => {
      out += d;
      if (process.env.BENCH_SERVER_STDERR) process.stderr.write(d);
    });
    proc.once('exit', (c) => reject(new Error(`exited ${c}:\n${out}`)));
  });
}

function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** Clock ticks per second of /proc's CPU times (Linux's USER_HZ). */
const CLK_TCK = 100;

/** CPU time (user + system) process `pid` has used so far, ms (10 ms steps). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // the command name may hold ") "
  return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
}

function wrap(proc: ChildProcess, url: string, port: number, cleanup = () => {}): Proc {
  return {
    proc,
    url,
    port,
    rssMiB: () => rss(proc.pid!),
    cpuMs: () => cpuMsOf(proc.pid!),
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => {
          cleanup();
          resolve();
        });
        proc.kill('SIGTERM');
      }),
  };
}

/** Trunkline as `npm start` runs it (one node process), on loopback, fresh data dir, contract checks off. */
export async function startTrunkline(env: Record<string, string> = {}, opts: { inspect?: boolean; dataDir?: string; keepDataDir?: boolean } = {}): Promise<Proc> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'trunkline-bench-'));
  const extra = process.env.BENCH_SERVER_NODE_ARGS ? process.env.BENCH_SERVER_NODE_ARGS.split(' ') : [];
  if (opts.inspect) extra.push('--inspect=127.0.0.1:0');
  const proc = spawn(process.execPath, [...extra, '--import', 'tsx', join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', CHECK_RESPONSES: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { url, port, out } = await waitForUrl(proc, /listening on (http:\/\/127\.0\.0\.1:(\d+))/);
  const inspectorUrl = opts.inspect ? /Debugger listening on (ws:\/\/\S+)/.exec(out())?.[1] : undefined;
  const cleanup = () => (opts.keepDataDir ? undefined : rmSync(dataDir, { recursive: true, force: true }));
  return { ...wrap(proc, url, port, cleanup), dataDir, ...(inspectorUrl ? { inspectorUrl } : {}) };
}

/** The baseline: a bare node:http server answering a fixed body from memory (given through a file: bodies can be large). */
export async function startBaseline(body: string | Buffer = '{"hello":"world"}', contentType = 'application/json'): Promise<Proc> {
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-baseline-'));
  const file = join(dir, 'body');
  writeFileSync(file, body);
  const code = `const http=require('http');const b=require('fs').readFileSync(${JSON.stringify(file)});http.createServer((q,s)=>{s.writeHead(200,{'content-type':${JSON.stringify(contentType)},'content-length':b.length});s.end(b)}).listen(0,'127.0.0.1',function(){console.log('listening on http://127.0.0.1:'+this.address().port)})`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { url, port } = await waitForUrl(proc, /listening on (http:\/\/127\.0\.0\.1:(\d+))/);
  return wrap(proc, url, port, () => rmSync(dir, { recursive: true, force: true }));
}

/** Requests per second for GET `url` (autocannon, loopback, bounded in time). */
export async function reqPerSec(url: string, opts: { connections?: number; seconds?: number; headers?: Record<string, string> } = {}): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  const r = await autocannon({ url, connections: opts.connections ?? 50, pipelining: 1, duration: opts.seconds ?? 8, headers: opts.headers ?? {} });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/**
 * A warm answer served by our server, then (with the server stopped) the same body from bare
 * `node:http`, each for `seconds` over 8 connections: req/s of both, and each server's CPU time
 * per answer (a figure the client's share of a busy machine does not move as much). A run with
 * any failed answer from ours is not a figure: it says so and exits 1.
 */
export async function warmAgainstBaseline(server: Proc, url: string, headers: Record<string, string>, body: string, seconds: number): Promise<{ ours: Warm; bare: Warm }> {
  const measure = async (p: Proc, target: string, h: Record<string, string>): Promise<Warm> => {
    const cpu0 = p.cpuMs();
    const r = await reqPerSec(target, { seconds, connections: 8, headers: h });
    return { ...r, cpuUsPerReq: ((p.cpuMs() - cpu0) * 1000) / Math.max(1, r.rps * seconds) };
  };
  const ours = await measure(server, url, headers);
  await server.stop();
  const baseline = await startBaseline(body);
  const bare = await measure(baseline, baseline.url, {});
  await baseline.stop();
  if (ours.non2xx || ours.errors) {
    console.log(`INVALID RUN: ${ours.non2xx} non-2xx answers, ${ours.errors} errors`);
    process.exit(1);
  }
  return { ours, bare };
}

/** What warmAgainstBaseline measures of one server. */
export type Warm = Awaited<ReturnType<typeof reqPerSec>> & { cpuUsPerReq: number };

/** The lines warmAgainstBaseline's figures print as, beside a benchmark's own. */
export function warmLines(ours: Warm, bare: Warm): string[] {
  return [
    `  node:http      ${fmt(bare.rps, 0)} req/s (same body from memory, same run)`,
    `  ratio          ${fmt((ours.rps / bare.rps) * 100, 1)}%`,
    `  server CPU     ${fmt(ours.cpuUsPerReq, 0)} µs per answer; node:http ${fmt(bare.cpuUsPerReq, 0)} µs (${fmt((bare.cpuUsPerReq / ours.cpuUsPerReq) * 100, 1)}%)`,
  ];
}

export const AUTH = `Basic ${Buffer.from('asterisk:asterisk').toString('base64')}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** A minimal keep-alive HTTP client (fetch adds more client-side cost than the server under test). */
export function request(url: string, method: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { authorization: AUTH } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const fmt = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
