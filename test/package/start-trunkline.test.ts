import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTrunkline, TrunklineError, type Trunkline, type TrunklineOptions } from '../../client/index.js';
import { simOperations } from '../../protocol/sim/operations.js';
import { wavHeader } from '../../server/ari/media/wav.js';
import { violationsIn } from '../_helpers/child.js';
import { connectEvents, waitUntil } from '../_helpers/events.js';
import { ariHttp } from '../_helpers/http.js';
import { tempDirs } from '../_helpers/temp-dir.js';
import { reportViolations } from '../_helpers/violations.js';

// startTrunkline from the repository: a server of one's own in a child process (server/main.ts
// through tsx), its typed simulation client and its clock, as a user's test suite gets them.
const test = suite('package: startTrunkline');
const temp = tempDirs(test, 'start');
const started: Trunkline[] = [];
const T0 = '2025-01-01T00:00:00.000+0000';

/** Starts a server that is closed after the suite, its contract violations reported. */
async function start(options?: TrunklineOptions): Promise<Trunkline> {
  const pbx = await startTrunkline(options);
  started.push(pbx);
  return pbx;
}

test.after(async () => {
  for (const pbx of started) {
    reportViolations(`server ${pbx.pid}`, violationsIn(pbx.output()));
    await pbx.close();
  }
});

/** A WAV file of `ms` milliseconds of a 440 Hz tone, 8 kHz 16-bit mono. */
function toneWav(ms: number): string {
  const samples = (ms * 8000) / 1000;
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), i * 2);
  const file = join(temp(), 'chime.wav');
  writeFileSync(file, Buffer.concat([wavHeader(pcm.length, 8000), pcm]));
  return file;
}

let pbx: Trunkline;
test.before(async () => {
  pbx = await start();
});

test('virtual clock: a call into an ARI app hears what the app plays, at exact instants', async () => {
  assert.match(pbx.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(pbx.ari, { url: `${pbx.url}/ari`, username: 'asterisk', password: 'asterisk' });
  const ev = await connectEvents(pbx.url, 'greeter');
  const call = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'greeter' });
  assert.is(call.channel.state, 'Ring');
  const started = await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === call.id);
  assert.equal(started.args, ['1000']);
  const play = await ariHttp(pbx.url)('POST', `/ari/channels/${call.id}/play?media=sound:hello-world`);
  assert.is(play.status, 201);
  assert.is(await pbx.clock.now(), T0);
  assert.is(await pbx.clock.advance(1000), '2025-01-01T00:00:01.000+0000');
  const finished = await ev.waitFor('PlaybackFinished');
  assert.is(finished.timestamp, '2025-01-01T00:00:00.797+0000');
  assert.equal(await call.heard(), [{ at: T0, kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: 797, completed: true }]);
  await call.hangup();
  await ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === call.id);
  ev.ws.close();
});

test('clock.runUntilIdle: a scripted caller hangs up after its wait and no timer is left', async () => {
  const ev = await connectEvents(pbx.url, 'idle');
  const before = await pbx.clock.get();
  assert.is(before.mode, 'virtual');
  const call = await pbx.sim.call({ endpoint: 'PJSIP/bob', extension: '1000', app: 'idle', script: [{ wait_ms: 5000 }, { hangup: 16 }] });
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === call.id);
  assert.is(await pbx.clock.runUntilIdle(), '2025-01-01T00:00:06.000+0000');
  const end = await ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === call.id);
  assert.is(end.timestamp, '2025-01-01T00:00:06.000+0000');
  assert.equal(await pbx.clock.get(), { mode: 'virtual', now: '2025-01-01T00:00:06.000+0000', pending: 0 });
  ev.ws.close();
});

test('sim: one method per request operation\'s nickname (not the tap, a WebSocket); errors carry status and body', async () => {
  const nicknames = simOperations.map((o) => o.nickname);
  assert.is(new Set(nicknames).size, nicknames.length, 'nicknames are unique');
  const sim = pbx.sim as unknown as Record<string, unknown>;
  assert.equal(simOperations.filter((o) => !o.upgrade && typeof sim[o.nickname] !== 'function').map((o) => o.nickname), []);
  assert.equal(simOperations.filter((o) => o.upgrade).map((o) => [o.nickname, typeof sim[o.nickname]]), [['tapEvents', 'undefined']]);
  const err = await pbx.sim.getChannel({ channelId: 'nope' }).catch((e: unknown) => e);
  assert.instance(err, TrunklineError);
  const e = err as TrunklineError;
  assert.equal([e.operation, e.status, e.body, e.message], ['getChannel', 404, { message: 'Channel not found' }, 'GET /sim/channels/nope answered 404: Channel not found']);
  const typo = await pbx.sim.pressDtmf({ channelId: 'x', digits: '1' } as never).catch((x: unknown) => x);
  assert.instance(typo, TypeError);
  assert.match((typo as Error).message, /^pressDtmf: unknown argument 'digits'/);
  const fault = await pbx.sim.addFault({ kind: 'fail_requests', operation: 'originate', status: 503, count: 2 });
  assert.equal(await pbx.sim.listFaults(), [fault]);
  assert.is(await pbx.sim.removeFault({ faultId: fault.id }), undefined);
  assert.equal(await pbx.sim.listFaults(), []);
});

test('fixtures: an added endpoint, dialplan context, global and sound are what the call uses', async () => {
  const lab = await start({
    fixtures: {
      endpoints: { 'PJSIP/tester': { callerid: '"Tester" <555>', context: 'lab', answerAfterMs: 0 } },
      dialplan: { globals: { STASIS_APP: 'lab-app' }, contexts: { lab: { '7000': ['1,Answer()', 'n,Stasis(${STASIS_APP},seven)', 'n,Hangup()'] } } },
      sounds: { 'lab/chime': toneWav(500) },
    },
  });
  const ev = await connectEvents(lab.url, 'lab-app');
  const call = await lab.sim.call({ endpoint: 'PJSIP/tester', extension: '7000' });
  const started = await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === call.id);
  assert.equal([started.args, started.channel!.caller, started.channel!.dialplan.context], [['seven'], { name: 'Tester', number: '555' }, 'lab']);
  assert.is((await ariHttp(lab.url)('POST', `/ari/channels/${call.id}/play?media=sound:lab/chime`)).status, 201);
  await lab.clock.advance(1000);
  assert.equal(await call.heard(), [{ at: T0, kind: 'playback', media: 'sound:lab/chime', lang: 'en', duration_ms: 500, completed: true }]);
  // The bundled fixtures are still there beside the additions.
  assert.is((await ariHttp(lab.url)('GET', '/ari/endpoints/PJSIP/alice')).status, 200);
  ev.ws.close();
});

test('ariUsers: the clients act as the first writer; the others are the only users', async () => {
  const own = await start({ ariUsers: [{ username: 'watch', password: 'w1', readOnly: true }, { username: 'ops', password: 's3cret' }] });
  assert.equal(own.ari, { url: `${own.url}/ari`, username: 'ops', password: 's3cret' });
  const http = ariHttp(own.url);
  assert.is((await http('GET', '/ari/asterisk/info')).status, 401);
  assert.is((await http('GET', '/ari/asterisk/info', { auth: 'ops:s3cret' })).status, 200);
  const refused = await http('POST', '/ari/channels?endpoint=PJSIP/alice&app=x', { auth: 'watch:w1' });
  assert.equal([refused.status, refused.body], [403, { message: 'Write access denied' }]);
  assert.equal(await own.sim.listFaults(), []);
});

test('close(): the server process ends, its temporary directory goes, a second close() resolves', async () => {
  const gone = await startTrunkline();
  const root = dirname(gone.dataDir);
  assert.ok(existsSync(join(gone.dataDir, 'trunkline.db')));
  process.kill(gone.pid, 0); // alive
  await gone.close();
  assert.not.ok(existsSync(root), root);
  assert.throws(() => process.kill(gone.pid, 0), (e: NodeJS.ErrnoException) => e.code === 'ESRCH');
  await gone.close();
  const after = await fetch(`${gone.url}/ari/asterisk/ping`).then(() => 'answered', () => 'refused');
  assert.is(after, 'refused');
});

test('a process that never calls close() still exits by itself, and its server and directory go with it', async () => {
  const script = `import { startTrunkline } from ${JSON.stringify(join(import.meta.dirname, '..', '..', 'client', 'index.ts'))};
const pbx = await startTrunkline();
process.stdout.write(JSON.stringify({ pid: pbx.pid, dataDir: pbx.dataDir }));`;
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const code = await new Promise((resolve) => child.once('close', (c) => resolve(c)));
  assert.is(code, 0);
  const { pid, dataDir } = JSON.parse(out) as { pid: number; dataDir: string };
  assert.not.ok(existsSync(dirname(dataDir)), dataDir);
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await waitUntil(() => !alive(), `server ${pid} to be gone`);
});

test('real clock: it runs on its own, and advancing it is a TrunklineError 400', async () => {
  const real = await start({ clock: 'real', timeScale: 20 });
  assert.is((await real.clock.get()).mode, 'real');
  const err = (await real.clock.advance(10).catch((e: unknown) => e)) as TrunklineError;
  assert.instance(err, TrunklineError);
  assert.equal([err.operation, err.status], ['advanceClock', 400]);
});

test('a server that cannot start makes startTrunkline reject with its message', async () => {
  const err = (await startTrunkline({ fixtures: { endpoints: { 'PJSIP/lost': { context: 'nowhere' } } } }).catch((e: unknown) => e)) as Error;
  assert.instance(err, Error);
  assert.match(err.message, /^Trunkline did not start: the server exited with code 1:\n.*PJSIP\/lost: context "nowhere" is not in the dialplan/);
});

test('bad options reject before a server starts, naming the option', async () => {
  const cases: [unknown, RegExp][] = [
    [{ clock: 'fast' }, /^startTrunkline: clock must be 'virtual' or 'real' \(got "fast"\)$/],
    [{ timeScale: 20 }, /^startTrunkline: timeScale applies to the real clock only/],
    [{ clock: 'real', clockStart: '2025-06-01T00:00:00Z' }, /^startTrunkline: clockStart applies to the virtual clock only/],
    [{ clockStart: 'yesterday' }, /^startTrunkline: clockStart must be a Date or an ISO instant/],
    [{ env: { PORT: '8088' } }, /^startTrunkline: env\.PORT is set by startTrunkline itself/],
    [{ colour: 'blue' }, /^startTrunkline: unknown option 'colour'/],
    [{ ariUsers: [{ username: 'ro', password: 'x', readOnly: true }] }, /^startTrunkline: ariUsers needs at least one user who is not readOnly/],
    [{ ariUsers: [{ username: 'a:b', password: 'x' }] }, /^startTrunkline: each ariUsers entry needs a username without/],
    [{ logLevel: 'loud' }, /^startTrunkline: logLevel must be one of fatal, error/],
    [{ fixtures: { sounds: { '../escape': '/dev/null' } } }, /^startTrunkline: fixtures\.sounds: '\.\.\/escape' is not a sound id/],
    [{ fixtures: { sounds: { missing: '/nonexistent/x.wav' } } }, /^startTrunkline: fixtures\.sounds\.missing: cannot read \/nonexistent\/x\.wav \(ENOENT\)$/],
  ];
  for (const [options, message] of cases) {
    const err = (await startTrunkline(options as TrunklineOptions).catch((e: unknown) => e)) as Error;
    assert.instance(err, Error, JSON.stringify(options));
    assert.match(err.message, message);
  }
});

test.run();
