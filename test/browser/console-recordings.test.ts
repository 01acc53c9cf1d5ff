import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { WatchedPage } from '../_helpers/browser.js';
import { useServer } from '../_helpers/suite.js';
import { WAIT_MS } from '../_helpers/wait.js';
import { signIn, useBrowser, waitForState } from './_console.js';

// Audio in the page: a stored recording and what a far end heard are fetched with the
// session's credentials into blob: URLs and play in <audio> elements, with the durations
// their WAV files hold.
const test = suite('browser: console audio (stored recordings, heard.wav)');
const ctx = useServer(test, { events: { ev: 'demo' } });
const b = useBrowser(test);

/** Seconds of audio a PCM WAV holds, read from its header (byte rate) and data chunk. */
function wavSeconds(wav: Buffer): number {
  assert.is(wav.toString('latin1', 0, 4), 'RIFF');
  assert.is(wav.toString('latin1', 8, 12), 'WAVE');
  const byteRate = wav.readUInt32LE(28);
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = wav.toString('latin1', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'data') return size / byteRate;
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

async function inboundCall(): Promise<string> {
  const r = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000' }, json: { variables: { STASIS_APP: 'demo' } } });
  assert.is(r.status, 200, r.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === r.body.id);
  return r.body.id;
}

/**
 * Clicks a player's load button; returns the bytes the server sent the page (taken on their
 * way, as the page's own request is answered) and what its <audio> element then reports.
 */
async function playIn(w: WatchedPage, player: string, fileUrl: string): Promise<{ bytes: Buffer; duration: number; src: string }> {
  let bytes: Buffer | undefined;
  await w.page.route(fileUrl, async (route) => {
    const res = await route.fetch();
    bytes = await res.body();
    await route.fulfill({ response: res, body: bytes });
  });
  await w.page.locator(`${player} button`).click();
  const audio = w.page.locator(`${player} audio`);
  await audio.waitFor({ timeout: WAIT_MS });
  await w.page.waitForFunction((el) => (el as unknown as { readyState: number }).readyState >= 1, await audio.elementHandle(), { timeout: WAIT_MS });
  const { duration, src } = await audio.evaluate((el) => ({ duration: (el as unknown as { duration: number }).duration, src: (el as unknown as { src: string }).src }));
  await w.page.unroute(fileUrl);
  assert.ok(bytes, `the page fetched ${fileUrl}`);
  return { bytes: bytes!, duration, src };
}

test('a stored recording plays in the page: blob: URL, the WAV the API serves, its duration', async ({ __test__ }) => {
  const id = await inboundCall();
  const rec = await ctx.t.http('POST', `/ari/channels/${id}/record`, { query: { name: 'console-greeting', format: 'wav', maxDurationSeconds: 2 } });
  assert.is(rec.status, 201, rec.text);
  await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === 'console-greeting');
  const direct = await fetch(`${ctx.t.url}/ari/recordings/stored/console-greeting/file`, { headers: { authorization: `Basic ${Buffer.from('asterisk:asterisk').toString('base64')}` } });
  assert.is(direct.status, 200);
  const wav = Buffer.from(await direct.arrayBuffer());
  const seconds = wavSeconds(wav);
  assert.ok(seconds >= 2, `the recording holds its 2 s (${seconds})`);

  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo']);
    await w.page.locator('#tab-recordings').click();
    const player = '[data-player="console-greeting"]';
    await w.page.locator(player).waitFor({ timeout: WAIT_MS });
    const played = await playIn(w, player, `${ctx.t.url}/ari/recordings/stored/console-greeting/file`);
    assert.ok(played.bytes.equals(wav), 'the page fetched exactly the stored WAV');
    assert.match(played.src, /^blob:http:\/\/127\.0\.0\.1:\d+\//);
    assert.ok(Math.abs(played.duration - seconds) < 0.01, `audio duration ${played.duration} s is the recording's ${seconds} s`);
  });
});

test("the far end's heard list and heard.wav, in the channel's far-end panel", async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo']);
    const id = await inboundCall();
    await waitForState(w, id, 'Up');
    const play = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'sound:hello-world' } });
    assert.is(play.status, 201, play.text);
    await ctx.ev.waitFor((e) => e.type === 'PlaybackFinished' && e.playback?.id === play.body.id);
    await w.page.locator(`tr.channel[data-channel="${id}"] button.details`).click();
    const panel = `[data-far-end="${id}"]`;
    await w.page.locator(`${panel} [data-action="heard"]`).click();
    const rows = w.page.locator(`${panel} .heard-items tr`);
    await rows.first().waitFor({ timeout: WAIT_MS });
    const heard = (await ctx.t.http('GET', `/sim/channels/${id}/heard`)).body.items as { kind: string; media?: string }[];
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [...(tr as unknown as { children: { textContent: string }[] }).children].map((td) => td.textContent)));
    assert.equal(shown.map((r) => [r[1], r[2]]), heard.map((i) => [i.kind, i.media ?? '']).slice(0, shown.length));
    assert.ok(shown.some((r) => r[1] === 'playback' && r[2] === 'sound:hello-world'));
    const played = await playIn(w, `${panel} .player`, `${ctx.t.url}/sim/channels/${id}/heard.wav`);
    assert.match(played.src, /^blob:/);
    assert.ok(Math.abs(played.duration - wavSeconds(played.bytes)) < 0.01, 'the element plays the whole of heard.wav');
  });
});

test.run();
