import { createHash, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../_helpers/child.js';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { git, gitAsync } from '../_helpers/gitea.js';
import { basicAuth, request, type Reply } from '../_helpers/request.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { pollUntil, sleep, waitUntil } from '../_helpers/wait.js';

// Crash safety (decisions.md: "nothing acknowledged is lost when the process is killed"):
// a mixed load runs against the real process — ARI channel lifecycles with variables and
// hangups, recordings, contents-API commits from parallel writers to one branch per repository,
// push mirror records with sync_on_commit — and is cut by SIGKILL at a random moment. Every write
// whose 2xx answer (or announcing event) arrived before the kill must be there after a restart on
// the same DATA_DIR, in SQLite, in git and in the files; the database and every repository must be
// sound. Several kill/restart cycles, then one summary line.
const test = suite('reliability: crash safety');

const CYCLES = Number(process.env.CRASH_CYCLES ?? 8);
/**
 * `mixed` (default): every other cycle kills the server and all its git processes at once, as
 * when a container or cgroup is killed whole (a git killed between locking and committing a ref
 * leaves the lock: the server clears such locks at start); the other cycles SIGKILL the server
 * alone, as decisions.md words the promise. `process` / `group`: only one of the two.
 */
const KILL_MODE = (process.env.CRASH_KILL_MODE ?? 'mixed') as 'process' | 'group' | 'mixed';
const APP = 'crash';
const ADMIN_USER = 'root';
const ADMIN_PASS = 'root-password-1';
const BASIC_ADMIN = basicAuth(`${ADMIN_USER}:${ADMIN_PASS}`);
const BASIC_ARI = basicAuth('asterisk:asterisk');
/** Recording formats and their file extensions (fixtures/ari/formats.json). */
const REC_FORMATS = { wav: 'wav', slin: 'sln', ulaw: 'ulaw' } as const;

let tmp = '';
let dataDir = '';
let mirrorsDir = '';
let server: ChildServer | undefined;
let token = '';

// ---- what was acknowledged ---------------------------------------------------------------

interface Repo { name: string; id: number; branch: string; dir: string }
const repos: Repo[] = [];
/** Commits acknowledged (201) per repository: sha and the file it wrote. */
/** Order of acknowledgement across every kind of write (to tell which commits came after which mirror). */
let ackSeq = 0;
const commits = new Map<string, Array<{ sha: string; path: string; blob: string; seq: number }>>();
/** Push mirrors acknowledged (200): repository name → remote names; remote name → target directory. */
const mirrors = new Map<string, Set<string>>();
const mirrorTargets = new Map<string, { repo: string; dir: string; seq: number }>();
/** Channels whose creation was acknowledged (200), with the app membership and end seen. */
const channels = new Set<string>();
const endedChannels = new Set<string>(); // ChannelDestroyed received
const inApp = new Set<string>(); // StasisStart received
const vars: Array<{ id: string; variable: string; value: string }> = []; // setChannelVar 204
/** Stored recordings acknowledged by RecordingFinished (state done): name → format, file and its bytes' digest. */
const recordings = new Map<string, { format: string; file: string; sha256: string }>();
/** Answers that are not what the load expects (before the kill): a 5xx is a failure. */
const unexpected: string[] = [];
/** Checks made after the kills (each acknowledged write is checked after every later kill). */
let writesChecked = 0;
const commitCount = () => [...commits.values()].reduce((s, c) => s + c.length, 0);
/** Distinct acknowledged writes: commits, mirrors, channel creations, ends, variables, stored recordings. */
const totalWrites = () => commitCount() + mirrorTargets.size + channels.size + endedChannels.size + vars.length + recordings.size;

// ---- plumbing ----------------------------------------------------------------------------

class Killed extends Error {}
let killed = false;
let onKill: () => void = () => {};
let killedP: Promise<never> = new Promise<never>(() => {});

function armKill(): void {
  killed = false;
  killedP = new Promise<never>((_, reject) => (onKill = () => reject(new Killed('killed'))));
  killedP.catch(() => {});
}

/** A request; resolves only when the whole answer arrived. Throws Killed once the server is gone. */
async function req(method: string, path: string, opts: { json?: unknown; auth?: string; query?: Record<string, string | number | boolean> } = {}): Promise<Reply> {
  if (killed) throw new Killed('killed');
  try {
    // An answer that arrived in full counts as acknowledged, even if the kill came right after it.
    return await request(server!.url, method, path, { query: opts.query, json: opts.json, headers: { authorization: opts.auth ?? BASIC_ARI } });
  } catch (err) {
    if (killed) throw new Killed(String(err));
    throw err;
  }
}
const gitea = (method: string, path: string, json?: unknown) => req(method, `/api/v1${path}`, { auth: `token ${token}`, ...(json !== undefined ? { json } : {}) });

function expectStatus(what: string, r: { status: number; text: string }, ok: number): boolean {
  if (r.status === ok) return true;
  if (!killed) unexpected.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
  return false;
}

/** Waits for an event, or throws Killed when the server is killed meanwhile. */
function waitEvent(log: EventLog, pred: (e: AriEvent) => boolean, ms = 15_000): Promise<AriEvent> {
  return Promise.race([log.waitFor(pred, ms), killedP]);
}

const blobId = (content: Buffer) => createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function start(): Promise<void> {
  server = await spawnServer({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN_USER,
    ADMIN_PASSWORD: ADMIN_PASS,
    SIM_TIME_SCALE: '20',
    MIRROR_ALLOW_LOCAL_NETWORKS: 'true',
    NODE_ENV: 'test',
  });
}

/** Every process descended from `pid` (from /proc; Linux). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so parse from the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {} // gone meanwhile
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/**
 * SIGKILL. `process`: the server alone (its git children run on and finish by themselves, as
 * after an OOM kill of the node process); `group`: the server and every git process it started,
 * at once (a container or cgroup killed whole), which may leave git's lock files behind.
 */
async function kill(mode: 'process' | 'group'): Promise<number> {
  killed = true;
  const kids = mode === 'group' ? descendants(server!.proc.pid!) : [];
  server!.proc.kill('SIGKILL');
  for (const pid of kids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {} // already ended
  }
  onKill();
  assert.is(await server!.exited, 'SIGKILL');
  if (mode === 'group') clearRemoteLocks();
  return kids.length;
}

// ---- the load ----------------------------------------------------------------------------

/** (a) channel lifecycles: originate or call in, answer, variables, maybe hang up (acknowledged by ChannelDestroyed). */
async function channelLoop(cycle: number, loop: number, ev: EventLog, survivors: string[]): Promise<void> {
  for (let n = 0; !killed; n++) {
    // First the channels that outlived a previous kill: still controllable, then hung up.
    const old = survivors.shift();
    if (old) {
      // Acknowledged but killed before it entered the app (or before its StasisStart left): restored,
      // it enters once the app is back. Wait for that, as an app waits for StasisStart.
      if (!inApp.has(old)) await untilInApp(old);
      await setVar(old, `AFTER_${cycle}`, `restart-${cycle}`);
      await hangup(old, ev);
      continue;
    }
    const id = `ch-${cycle}-${loop}-${n}`;
    const inbound = n % 3 === 2;
    const r = inbound
      ? await req('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: '1001', channelId: id }, json: { variables: { STASIS_APP: APP } } })
      : await req('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP, channelId: id } });
    if (!expectStatus(`create ${id}`, r, 200)) continue;
    channels.add(id);
    await waitEvent(ev, (e) => e.type === 'StasisStart' && e.channel?.id === id);
    inApp.add(id);
    if (inbound) {
      const a = await req('POST', `/ari/channels/${id}/answer`);
      expectStatus(`answer ${id}`, a, 204);
    }
    for (let k = 0; k < 1 + (n % 3); k++) await setVar(id, `V${k}`, `${id}-value-${k}-${randomInt(1e9)}`);
    if (n % 2 === 0) await hangup(id, ev);
  }
}

/** Waits until a restored channel is in the app (a variable read no longer answers 409); it must get there. */
async function untilInApp(id: string): Promise<void> {
  const inside = async () => (await req('GET', `/ari/channels/${id}/variable`, { query: { variable: 'CHANNEL(state)' } })).status !== 409;
  await waitUntil(inside, `restored channel ${id} enters the app`, 30_000, 20);
  inApp.add(id);
}

async function setVar(id: string, variable: string, value: string): Promise<void> {
  const r = await req('POST', `/ari/channels/${id}/variable`, { query: { variable, value } });
  if (expectStatus(`setvar ${id}`, r, 204)) vars.push({ id, variable, value });
}

async function hangup(id: string, ev: EventLog): Promise<void> {
  const r = await req('DELETE', `/ari/channels/${id}`);
  if (!expectStatus(`hangup ${id}`, r, 204)) return;
  await waitEvent(ev, (e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  endedChannels.add(id);
}

/** (b) recordings: a channel hearing a tone, recorded for one simulated second; stored once RecordingFinished (done) arrives. */
async function recordingLoop(cycle: number, loop: number, ev: EventLog): Promise<void> {
  for (let n = 0; !killed; n++) {
    const id = `rec-${cycle}-${loop}-${n}`;
    const r = await req('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP, channelId: id } });
    if (!expectStatus(`create ${id}`, r, 200)) continue;
    channels.add(id);
    await waitEvent(ev, (e) => e.type === 'StasisStart' && e.channel?.id === id);
    inApp.add(id);
    expectStatus(`far audio ${id}`, await req('POST', `/sim/channels/${id}/audio`, { query: { source: 'tone', tone: String(300 + 100 * (n % 8)) } }), 204);
    const format = (Object.keys(REC_FORMATS) as Array<keyof typeof REC_FORMATS>)[n % 3]!;
    const name = n % 4 === 3 ? `crash/c${cycle}/r${loop}-${n}` : `crash-${cycle}-${loop}-${n}`;
    const rec = await req('POST', `/ari/channels/${id}/record`, { query: { name, format, maxDurationSeconds: 1 + (n % 2) } });
    if (expectStatus(`record ${name}`, rec, 201)) {
      const done = await waitEvent(ev, (e) => (e.type === 'RecordingFinished' || e.type === 'RecordingFailed') && e.recording?.name === name);
      if (done.type === 'RecordingFinished' && done.recording.state === 'done') {
        const file = join(dataDir, 'recordings', `${name}.${REC_FORMATS[format]}`);
        recordings.set(name, { format, file, sha256: sha256(readFileSync(file)) });
      } else if (!killed) unexpected.push(`recording ${name}: ${done.type} ${done.recording.state}`);
    }
    if (n % 2 === 0) await hangup(id, ev);
  }
}

/** (c) commits: one writer of several on one branch of one repository, each call one new file. */
async function commitLoop(cycle: number, repo: Repo, writer: number): Promise<void> {
  for (let n = 0; !killed; n++) {
    const path = `w${writer}/c${cycle}/f${n}.txt`;
    const content = Buffer.from(`${repo.name} ${repo.branch} cycle ${cycle} writer ${writer} #${n} ${randomInt(1e9)}\n`);
    const r = await gitea('POST', `/repos/${ADMIN_USER}/${repo.name}/contents/${path}`, { content: content.toString('base64'), message: `write ${path}`, branch: repo.branch });
    if (!expectStatus(`commit ${repo.name}/${path}`, r, 201)) continue;
    commits.get(repo.name)!.push({ sha: r.body.commit.sha, path, blob: blobId(content), seq: ++ackSeq });
  }
}

/** (d) push mirrors to bare repositories under the temp dir, sync_on_commit: every later commit queues a job for each. */
async function mirrorLoop(cycle: number): Promise<void> {
  for (let n = 0; !killed && n < 3; n++) {
    const repo = repos[(cycle + n) % repos.length]!;
    const target = join(mirrorsDir, `m-${cycle}-${n}.git`);
    await gitAsync(['init', '-q', '--bare', target]);
    const r = await gitea('POST', `/repos/${ADMIN_USER}/${repo.name}/push_mirrors`, { remote_address: `file://${target}`, interval: '0', sync_on_commit: true });
    if (expectStatus(`push mirror ${repo.name}`, r, 200)) {
      mirrors.get(repo.name)!.add(r.body.remote_name);
      mirrorTargets.set(r.body.remote_name, { repo: repo.name, dir: target, seq: ++ackSeq });
    }
    await Promise.race([sleep(100 + randomInt(200)), killedP]);
  }
}

// ---- checks ------------------------------------------------------------------------------

/** After the kill, before the restart: the SQLite file as the dead process left it. */
function checkDatabase(): { rows: number; jobs: number } {
  const db = new Database(join(dataDir, 'trunkline.db'), { readonly: true, fileMustExist: true });
  try {
    assert.is(db.pragma('integrity_check', { simple: true }), 'ok');
    const rows = new Map((db.prepare('SELECT id, ended_at, data FROM channels').all() as Array<{ id: string; ended_at: number | null; data: string }>).map((r) => [r.id, r]));
    assert.equal([...channels].filter((id) => !rows.has(id)), [], 'acknowledged channels missing from SQLite');
    assert.equal([...endedChannels].filter((id) => rows.get(id)?.ended_at == null), [], 'channels whose ChannelDestroyed was seen are not ended in SQLite');
    const lostVars = vars.filter((v) => (JSON.parse(rows.get(v.id)?.data ?? '{}') as { vars?: Record<string, string> }).vars?.[v.variable] !== v.value);
    assert.equal(lostVars, [], 'acknowledged channel variables missing from SQLite');
    const stored = new Map((db.prepare('SELECT name, state, format FROM recordings').all() as Array<{ name: string; state: string; format: string }>).map((r) => [r.name, r]));
    assert.equal([...recordings.keys()].filter((n) => stored.get(n)?.state !== 'stored'), [], 'acknowledged recordings not stored in SQLite');
    const names = new Set((db.prepare('SELECT remote_name FROM push_mirrors').all() as Array<{ remote_name: string }>).map((r) => r.remote_name));
    assert.equal([...mirrorTargets.keys()].filter((n) => !names.has(n)), [], 'acknowledged push mirrors missing from SQLite');
    const jobs = (db.prepare('SELECT count(*) AS n FROM mirror_jobs').get() as { n: number }).n;
    // sync_on_commit: a commit acknowledged after a mirror was is on that mirror already, or a sync job is queued for it.
    const queued = new Set((db.prepare("SELECT m.remote_name FROM mirror_jobs j JOIN push_mirrors m ON m.id = j.target_id WHERE j.kind = 'push'").all() as Array<{ remote_name: string }>).map((r) => r.remote_name));
    const unsynced: string[] = [];
    for (const [name, m] of mirrorTargets) {
      const later = commits.get(m.repo)!.filter((c) => c.seq > m.seq);
      if (!later.length || queued.has(name)) continue;
      const branch = repos.find((r) => r.name === m.repo)!.branch;
      const there = new Set(git(['--git-dir', m.dir, 'rev-list', `refs/heads/${branch}`], { allowFail: true }).stdout.trim().split('\n'));
      const missing = later.filter((c) => !there.has(c.sha));
      if (missing.length) unsynced.push(`${name} (${m.repo}): ${missing.length} commits neither pushed nor queued`);
    }
    assert.equal(unsynced, [], 'sync_on_commit jobs lost');
    return { rows: rows.size, jobs };
  } finally {
    db.close();
  }
}

/** Every acknowledged commit is on its branch, with the file it wrote; every repository passes fsck --strict. */
function checkGit(): void {
  for (const repo of repos) {
    const list = git(['--git-dir', repo.dir, 'rev-list', `refs/heads/${repo.branch}`], { allowFail: true });
    assert.is(list.status, 0, list.stderr);
    const onBranch = new Set(list.stdout.trim().split('\n'));
    const acked = commits.get(repo.name)!;
    assert.equal(acked.filter((c) => !onBranch.has(c.sha)).map((c) => c.sha), [], `acknowledged commits of ${repo.name} not reachable from ${repo.branch}`);
    if (acked.length) {
      const check = git(['--git-dir', repo.dir, 'cat-file', '--batch-check=%(objectname)'], { input: acked.map((c) => `${c.sha}:${c.path}\n`).join(''), allowFail: true });
      assert.equal(check.stdout.trim().split('\n'), acked.map((c) => c.blob), `files of acknowledged commits in ${repo.name}`);
    }
    const fsck = git(['--git-dir', repo.dir, 'fsck', '--strict', '--no-dangling', '--no-progress'], { allowFail: true });
    assert.is(fsck.status, 0, `git fsck ${repo.name}: ${fsck.stdout}${fsck.stderr}`);
    assert.not.match(fsck.stdout + fsck.stderr, /error|missing|broken|corrupt/i, `git fsck ${repo.name}`);
  }
}

/** Lock files git left under `dir` (a killed git holding a lock leaves it behind), as paths relative to `dir` prefixed by `rel`. */
function locksUnder(dir: string, rel: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (e.name !== 'objects') locksUnder(join(dir, e.name), `${rel}/${e.name}`, out);
    } else if (e.name.endsWith('.lock')) out.push(`${rel}/${e.name}`);
  }
  return out;
}

/** Lock files git left in the repositories the server owns. */
function lockFiles(): string[] {
  const out: string[] = [];
  for (const repo of repos) locksUnder(repo.dir, repo.name, out);
  return out;
}

/**
 * A file:// mirror's receiving git runs as a child of our git push, so a group kill kills the
 * "remote server" too and may leave its ref locks. A real remote is another machine that recovers
 * by itself; here the test plays its operator and clears them (the server never touches a remote's files).
 */
function clearRemoteLocks(): void {
  for (const lock of locksUnder(mirrorsDir, '')) rmSync(join(mirrorsDir, lock), { force: true });
}

/** After a restart every branch takes commits again (a crash must not wedge a branch). */
async function checkWritable(cycle: number, locks: string[]): Promise<void> {
  const failed: string[] = [];
  for (const repo of repos) {
    const path = `restart/after-kill-${cycle}.txt`;
    const content = Buffer.from(`written after kill ${cycle}\n`);
    const r = await gitea('POST', `/repos/${ADMIN_USER}/${repo.name}/contents/${path}`, { content: content.toString('base64'), branch: repo.branch });
    if (r.status === 201) commits.get(repo.name)!.push({ sha: r.body.commit.sha, path, blob: blobId(content), seq: ++ackSeq });
    else failed.push(`${repo.name}@${repo.branch}: ${r.status} ${r.text.slice(0, 200)}`);
  }
  assert.equal(failed, [], `branches not writable after the restart (lock files left by the kill: ${locks.join(', ') || 'none'})`);
}

/** After the restart, through the API: channels (live or in the history), variables, stored recordings and their files, push mirrors. */
async function checkApi(): Promise<string[]> {
  // Ended channels are in the history the server keeps (GET /sim/history, newest first, paged).
  const fetchHistory = async () => {
    const history = new Map<string, any>();
    for (let before: string | undefined; ; ) {
      const h = await req('GET', '/sim/history', { query: { limit: 1000, ...(before ? { before } : {}) } });
      assert.is(h.status, 200, h.text);
      for (const c of h.body as any[]) history.set(c.id, c);
      if ((h.body as any[]).length < 1000) break;
      before = (h.body as any[]).at(-1).id;
    }
    return history;
  };
  let history = await fetchHistory();
  const live = new Set<string>();
  let lost: string[] = [];
  for (const id of channels) {
    if (history.has(id)) continue;
    const r = await req('GET', `/ari/channels/${id}`);
    if (r.status === 200) live.add(id);
    else lost.push(id);
  }
  // A restored channel may end between the two reads (its dial timing out, say): then it is in the history now.
  if (lost.length) {
    history = await fetchHistory();
    lost = lost.filter((id) => !history.has(id));
  }
  assert.equal(lost, [], 'acknowledged channels neither live nor in the history');
  assert.equal([...endedChannels].filter((id) => !history.has(id)), [], 'ended channels missing from the history');
  const fromHistory = (v: { id: string; variable: string; value: string }) => history.get(v.id)?.variables?.[v.variable] === v.value;
  let badVars: Array<{ v: (typeof vars)[number]; why: string }> = [];
  for (const v of vars) {
    if (live.has(v.id)) {
      const r = await req('GET', `/ari/channels/${v.id}/variable`, { query: { variable: v.variable } });
      if (r.status !== 200 || r.body?.value !== v.value) badVars.push({ v, why: `${r.status} ${r.text}` });
    } else if (!fromHistory(v)) badVars.push({ v, why: `history: ${JSON.stringify(history.get(v.id)?.variables)}` });
  }
  if (badVars.length) {
    history = await fetchHistory();
    badVars = badVars.filter(({ v }) => !fromHistory(v));
  }
  assert.equal(badVars.map(({ v, why }) => `${v.id} ${v.variable}=${v.value}: ${why}`), [], 'acknowledged variables');
  const badRecs: string[] = [];
  for (const [name, rec] of recordings) {
    const r = await req('GET', `/ari/recordings/stored/${encodeURIComponent(name)}`);
    if (r.status !== 200 || r.body?.name !== name || r.body?.format !== rec.format) badRecs.push(`${name}: ${r.status} ${r.text}`);
    else if (!existsSync(rec.file) || sha256(readFileSync(rec.file)) !== rec.sha256) badRecs.push(`${name}: file changed or missing`);
    else {
      const file = await req('GET', `/ari/recordings/stored/${encodeURIComponent(name)}/file`);
      if (file.status !== 200 || sha256(file.bytes) !== rec.sha256) badRecs.push(`${name}: download ${file.status}, ${file.bytes.length} bytes`);
    }
  }
  assert.equal(badRecs, [], 'acknowledged stored recordings');
  for (const repo of repos) {
    const r = await gitea('GET', `/repos/${ADMIN_USER}/${repo.name}/push_mirrors?limit=50`);
    assert.is(r.status, 200, r.text);
    const listed = new Set((r.body as any[]).map((m) => m.remote_name));
    assert.equal([...mirrors.get(repo.name)!].filter((n) => !listed.has(n)), [], `acknowledged push mirrors of ${repo.name}`);
  }
  return [...live].filter((id) => !endedChannels.has(id));
}

// ---- the suite -----------------------------------------------------------------------------

test.before(() => {
  tmp = tempDir('crash');
  dataDir = join(tmp, 'data');
  mirrorsDir = join(tmp, 'mirrors');
  mkdirSync(mirrorsDir);
});

test.after(async () => {
  if (server && server.proc.exitCode === null && server.proc.signalCode === null) await kill('group');
  // Orphaned git children of a killed server may still be finishing inside tmp.
  rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

test(`SIGKILL at random moments under a mixed load, ${CYCLES} times: nothing acknowledged is lost`, async () => {
  await start();
  armKill();
  const tok = await req('POST', `/api/v1/users/${ADMIN_USER}/tokens`, { auth: BASIC_ADMIN, json: { name: 'crash', scopes: ['all'] } });
  assert.is(tok.status, 201, tok.text);
  token = tok.body.sha1;
  for (const [name, branch] of [['alpha', 'main'], ['beta', 'dev'], ['gamma', 'main']] as const) {
    const r = await gitea('POST', '/user/repos', { name, auto_init: true });
    assert.is(r.status, 201, r.text);
    if (branch !== 'main') {
      const b = await gitea('POST', `/repos/${ADMIN_USER}/${name}/contents/BRANCH`, { content: Buffer.from(`${branch}\n`).toString('base64'), new_branch: branch });
      assert.is(b.status, 201, b.text);
    }
    repos.push({ name, id: r.body.id, branch, dir: join(dataDir, 'git', `${r.body.id}.git`) });
    commits.set(name, []);
    mirrors.set(name, new Set());
  }

  let survivors: string[] = [];
  let kills = 0;
  const started = Date.now();
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    armKill();
    const ev = await connectEvents(server!.url, APP);
    const runFor = 300 + randomInt(1200);
    const loops: Array<Promise<void>> = [
      channelLoop(cycle, 0, ev, survivors),
      channelLoop(cycle, 1, ev, survivors),
      channelLoop(cycle, 2, ev, survivors),
      recordingLoop(cycle, 0, ev),
      recordingLoop(cycle, 1, ev),
      mirrorLoop(cycle),
    ];
    for (const repo of repos) for (let w = 0; w < 2; w++) loops.push(commitLoop(cycle, repo, w));
    const settled = Promise.allSettled(loops);
    await Promise.race([sleep(runFor), settled]);
    const mode = KILL_MODE === 'mixed' ? (cycle % 2 === 0 ? 'group' : 'process') : KILL_MODE;
    const gitKilled = await kill(mode);
    kills++;
    const results = await settled;
    const errors = results.filter((r) => r.status === 'rejected' && !(r.reason instanceof Killed)).map((r) => String((r as PromiseRejectedResult).reason?.stack ?? r));
    assert.equal(errors, [], 'load loops failed before the kill');
    await ev.close().catch(() => {});

    const db = checkDatabase();
    checkGit();
    const locks = lockFiles();
    await start();
    armKill();
    survivors = await checkApi();
    await checkWritable(cycle, locks);
    writesChecked += totalWrites();
    assert.equal(unexpected, [], 'unexpected answers before the kill');
    console.log(
      `  cycle ${cycle}: killed (${mode}${mode === 'group' ? `, ${gitKilled} git processes with it` : ''}) after ${runFor} ms; acknowledged so far: ${commitCount()} commits, ` +
        `${mirrorTargets.size} push mirrors, ${channels.size} channels (${endedChannels.size} ended, ${vars.length} variables), ${recordings.size} recordings; ` +
        `${db.rows} channel rows, ${db.jobs} mirror jobs queued at the kill; ${survivors.length} live channels carried over` +
        (locks.length ? `; lock files left: ${locks.join(', ')}` : ''),
    );
  }

  // The mirror queue survived the kills: one more commit per repository, and every acknowledged mirror catches up.
  for (const repo of repos) {
    const content = Buffer.from(`final ${repo.name}\n`);
    const r = await gitea('POST', `/repos/${ADMIN_USER}/${repo.name}/contents/final.txt`, { content: content.toString('base64'), branch: repo.branch });
    assert.is(r.status, 201, r.text);
    commits.get(repo.name)!.push({ sha: r.body.commit.sha, path: 'final.txt', blob: blobId(content), seq: ++ackSeq });
  }
  const behind = () =>
    [...mirrorTargets].filter(([, m]) => {
      const repo = repos.find((r) => r.name === m.repo)!;
      const src = git(['--git-dir', repo.dir, 'rev-parse', `refs/heads/${repo.branch}`], { allowFail: true }).stdout.trim();
      return git(['--git-dir', m.dir, 'rev-parse', '--verify', '-q', `refs/heads/${repo.branch}`], { allowFail: true }).stdout.trim() !== src;
    });
  await pollUntil(() => !behind().length, 20_000, 200);
  const stale = behind().map(([name, m]) => `${name} (${m.repo})`);
  console.log(`  mirrors: ${mirrorTargets.size - stale.length}/${mirrorTargets.size} acknowledged push mirrors caught up with their branch after the last restart`);
  if (stale.length) {
    const r = await Promise.all(repos.map((repo) => gitea('GET', `/repos/${ADMIN_USER}/${repo.name}/push_mirrors?limit=50`)));
    assert.equal(stale, [], `mirrors that never caught up: ${JSON.stringify(r.map((x) => x.body))}`);
  }

  await kill(KILL_MODE === 'process' ? 'process' : 'group');
  kills++;
  checkDatabase();
  checkGit();
  assert.equal(unexpected, [], 'unexpected answers before the kills');
  writesChecked += totalWrites();
  console.log(`crash safety: ${kills} kills, ${totalWrites()} writes checked, 0 lost (${writesChecked} checks after kills, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
});

test.run();
