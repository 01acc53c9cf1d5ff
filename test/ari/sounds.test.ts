import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useServer } from '../_helpers/suite.js';

// The sounds resource, checked against the catalogue file itself.
const test = suite('sounds');
const ctx = useServer(test, { events: {} });

type Catalogue = { sounds: Record<string, Record<string, string | { tone: string }>> };
const catalogue = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'ari', 'sounds.json'), 'utf8')) as Catalogue).sounds;
const ids = Object.keys(catalogue).sort();

/** What the catalogue says a sound should look like: English text (else the first spoken one; none for tones), one wav per language. */
function expected(id: string, lang?: string): Record<string, unknown> {
  const langs = catalogue[id]!;
  const spoken = typeof langs.en === 'string' ? langs.en : Object.values(langs).find((s): s is string => typeof s === 'string');
  const formats = Object.keys(langs).filter((l) => !lang || l === lang).map((language) => ({ language, format: 'wav' }));
  return { id, ...(spoken ? { text: spoken } : {}), formats };
}

test('GET /ari/sounds: every sound of the catalogue, sorted by id, with its text and a wav per language', async () => {
  const r = await ctx.t.http('GET', '/ari/sounds');
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), 'application/json');
  assert.equal(r.body.map((s: { id: string }) => s.id), ids);
  assert.equal(r.body, ids.map((id) => expected(id)));
  // Spot checks that do not go through the helper.
  const hello = r.body.find((s: { id: string }) => s.id === 'hello-world');
  assert.equal(hello, { id: 'hello-world', text: 'Hello world.', formats: [{ language: 'en', format: 'wav' }, { language: 'fr', format: 'wav' }] });
  const beep = r.body.find((s: { id: string }) => s.id === 'beep');
  assert.equal(beep, { id: 'beep', formats: [{ language: 'en', format: 'wav' }] }, 'a tone has no text');
  assert.ok(ids.length >= 70 && ids.includes('digits/5') && ids.includes('letters/z'));
});

test('GET /ari/sounds?lang=fr: only sounds that have French, each with only its French format', async () => {
  const r = await ctx.t.http('GET', '/ari/sounds', { query: { lang: 'fr' } });
  assert.is(r.status, 200);
  const fr = ids.filter((id) => catalogue[id]!.fr !== undefined);
  assert.equal(fr, ['digits/0', 'digits/1', 'digits/2', 'digits/3', 'digits/4', 'digits/5', 'digits/6', 'digits/7', 'digits/8', 'digits/9', 'goodbye', 'hello-world', 'press-1', 'welcome']);
  assert.equal(r.body, fr.map((id) => expected(id, 'fr')));
  // The text stays the English description.
  assert.equal(r.body.find((s: { id: string }) => s.id === 'goodbye'), { id: 'goodbye', text: 'Goodbye.', formats: [{ language: 'fr', format: 'wav' }] });
  const en = await ctx.t.http('GET', '/ari/sounds', { query: { lang: 'en' } });
  assert.is(en.status, 200);
  assert.equal(en.body, ids.map((id) => expected(id, 'en')));
});

test('GET /ari/sounds?format=wav lists everything; filters combine; no match is 404', async () => {
  const wav = await ctx.t.http('GET', '/ari/sounds', { query: { format: 'wav' } });
  assert.is(wav.status, 200);
  assert.equal(wav.body, ids.map((id) => expected(id)));
  const both = await ctx.t.http('GET', '/ari/sounds', { query: { lang: 'fr', format: 'wav' } });
  assert.is(both.status, 200);
  assert.equal(both.body.map((s: { id: string }) => s.id), ids.filter((id) => catalogue[id]!.fr !== undefined));
  for (const query of [{ lang: 'xx' }, { format: 'gsm' }, { lang: 'fr', format: 'gsm' }, { lang: 'FR' }]) {
    const r = await ctx.t.http('GET', '/ari/sounds', { query });
    assert.is(r.status, 404, JSON.stringify(query));
    assert.equal(r.body, { message: 'No sounds found that matched the query' }, JSON.stringify(query));
  }
});

test('GET /ari/sounds/{id}: one sound; ids with / are sent as %2F; unknown is 404', async () => {
  const hello = await ctx.t.http('GET', '/ari/sounds/hello-world');
  assert.is(hello.status, 200);
  assert.equal(hello.body, { id: 'hello-world', text: 'Hello world.', formats: [{ language: 'en', format: 'wav' }, { language: 'fr', format: 'wav' }] });
  const five = await ctx.t.http('GET', '/ari/sounds/digits%2F5');
  assert.is(five.status, 200);
  assert.equal(five.body, { id: 'digits/5', text: 'five', formats: [{ language: 'en', format: 'wav' }, { language: 'fr', format: 'wav' }] });
  const ten = await ctx.t.http('GET', '/ari/sounds/digits%2F10');
  assert.equal(ten.body, { id: 'digits/10', text: 'ten', formats: [{ language: 'en', format: 'wav' }] });
  for (const id of ids) {
    const r = await ctx.t.http('GET', `/ari/sounds/${encodeURIComponent(id)}`);
    assert.is(r.status, 200, id);
    assert.equal(r.body, expected(id), id);
  }
  for (const path of ['/ari/sounds/no-such-sound', '/ari/sounds/digits%2F99', '/ari/sounds/Hello-World']) {
    const r = await ctx.t.http('GET', path);
    assert.is(r.status, 404, path);
    assert.equal(r.body, { message: 'Sound not found' }, path);
  }
  // An unencoded / is another path, which does not exist.
  const raw = await ctx.t.http('GET', '/ari/sounds/digits/5');
  assert.is(raw.status, 404);
  assert.equal(raw.body, { message: 'Resource not found' });
});

test('sounds are read-only: other methods are 405 with Allow', async () => {
  const list = await ctx.t.http('POST', '/ari/sounds');
  assert.is(list.status, 405);
  assert.equal(list.body, { message: 'Invalid method' });
  const one = await ctx.t.http('DELETE', '/ari/sounds/hello-world');
  assert.is(one.status, 405);
  assert.equal(one.body, { message: 'Invalid method' });
  assert.match(one.headers.get('allow') ?? '', /GET/);
});

test.run();
