import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { originateInApp } from '../_helpers/ari.js';
import { connectEvents, type EventLog } from '../_helpers/events.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';

// Recordings without maxDurationSeconds had no bound on disk. Now every recording is at most
// RECORDING_MAX_SECONDS long, and all recording files together at most RECORDINGS_MAX_BYTES: a
// recording that finds no room for a second of audio is refused (409), one that runs out of room
// fails as Asterisk fails a recording (RecordingFailed with a cause), keeping what was written.

const test = suite('recording-quota');
const ENV = { RECORDINGS_MAX_BYTES: '90000', RECORDING_MAX_SECONDS: '2' };
const WAV_SECOND = 16000; // 8 kHz, 16-bit
let t: TestServer;
let ev: EventLog;

test.before(async () => {
  t = await startTestServer(ENV);
  ev = await connectEvents(t.url, 'app1');
});
test.after(async () => {
  await ev.close();
  await t.close();
});

const record = (id: string, name: string, maxDurationSeconds: number) =>
  t.http('POST', `/ari/channels/${id}/record`, { query: { name, format: 'wav', maxDurationSeconds, ifExists: 'overwrite' } });
const ended = (name: string) => ev.waitFor((e) => (e.type === 'RecordingFinished' || e.type === 'RecordingFailed') && e.recording?.name === name, 10000);
const diskUsed = (dir: string) => readdirSync(join(dir, 'recordings')).reduce((n, f) => n + statSync(join(dir, 'recordings', f)).size, 0);

test('RECORDING_MAX_SECONDS caps recordings with and without maxDurationSeconds; a running one that fills RECORDINGS_MAX_BYTES fails with a cause; then 409', async () => {
  const { id } = await originateInApp(t, ev, { app: 'app1', id: 'quota-ch' });

  assert.is((await record(id, 'q-a', 0)).status, 201);
  const a = await ended('q-a');
  assert.equal([a.type, a.recording.state, a.recording.duration], ['RecordingFinished', 'done', 2], 'no maxDurationSeconds: capped at 2 s');
  assert.is((await record(id, 'q-b', 30)).status, 201);
  const b = await ended('q-b');
  assert.equal([b.type, b.recording.duration], ['RecordingFinished', 2], 'maxDurationSeconds=30: capped at 2 s');
  assert.is(diskUsed(t.dataDir), 2 * (44 + 2 * WAV_SECOND));

  // 64,088 bytes used: room for a second (16,044) but not for two (32,044).
  assert.is((await record(id, 'q-c', 0)).status, 201);
  const c = await ended('q-c');
  assert.is(c.type, 'RecordingFailed');
  assert.is(c.recording.state, 'failed');
  assert.is(c.recording.cause, 'Recordings quota exceeded');
  assert.ok(diskUsed(t.dataDir) <= 90000, `${diskUsed(t.dataDir)} bytes on disk`);
  // What fitted is kept, as a stored recording.
  assert.equal((await t.http('GET', '/ari/recordings/stored/q-c')).body, { name: 'q-c', format: 'wav' });

  // No room for another second: refused before anything starts; a copy too.
  const mark = ev.events.length;
  const d = await record(id, 'q-d', 1);
  assert.is(d.status, 409);
  assert.equal(d.body, { message: 'Recordings quota exceeded' });
  const copy = await t.http('POST', '/ari/recordings/stored/q-a/copy', { query: { destinationRecordingName: 'q-copy' } });
  assert.equal([copy.status, copy.body], [409, { message: 'Recordings quota exceeded' }]);
  assert.is((await t.http('GET', '/ari/recordings/live/q-d')).status, 404);
  assert.is((await t.http('GET', '/ari/recordings/stored/q-copy')).status, 404);
  assert.not.ok(ev.events.slice(mark).some((e) => e.recording?.name === 'q-d'));
  t.assertNoViolations();
});

test('the quota is counted from the files at start, and deleting a stored recording makes room', async () => {
  await ev.close();
  await t.close({ keepData: true });
  t = await startTestServer(ENV, t.dataDir);
  ev = await connectEvents(t.url, 'app1');
  const { id } = await originateInApp(t, ev, { app: 'app1', id: 'quota-ch2' });
  const refused = await record(id, 'q-d', 1);
  assert.equal([refused.status, refused.body], [409, { message: 'Recordings quota exceeded' }]);
  assert.is((await t.http('DELETE', '/ari/recordings/stored/q-a')).status, 204);
  assert.is((await record(id, 'q-d', 1)).status, 201);
  const d = await ended('q-d');
  assert.equal([d.type, d.recording.duration], ['RecordingFinished', 1]);
  assert.ok(diskUsed(t.dataDir) <= 90000);
  t.assertNoViolations();
});

test.run();
