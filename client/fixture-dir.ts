import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FixtureOptions } from './fixture-options.js';

// A fixtures directory of its own for one server: the bundled files copied, with
// the caller's endpoints, dialplan and sounds merged over them.

/** Sound ids: names and folders (digits/5), no way out of the sounds folder. */
const SOUND_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/;
const LANG = /^[a-z]{2,3}([_-][A-Za-z0-9]{2,8})?$/;

type Json = Record<string, any>;
const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;
const writeJson = (file: string, value: unknown) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** Plain objects only: a mistyped option is named rather than merged into something odd. */
function record(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`startTrunkline: ${what} must be an object`);
  return value as Record<string, unknown>;
}

function addSounds(ari: string, sounds: Record<string, unknown>): void {
  const catalogue = readJson(join(ari, 'sounds.json'));
  for (const [id, given] of Object.entries(sounds)) {
    if (!SOUND_ID.test(id) || id.includes('..')) throw new TypeError(`startTrunkline: fixtures.sounds: '${id}' is not a sound id (letters, digits, _ . - and / between folders)`);
    const byLang = typeof given === 'string' ? { en: given } : record(given, `fixtures.sounds.${id}`);
    for (const [lang, file] of Object.entries(byLang)) {
      if (!LANG.test(lang)) throw new TypeError(`startTrunkline: fixtures.sounds.${id}: '${lang}' is not a language code`);
      if (typeof file !== 'string') throw new TypeError(`startTrunkline: fixtures.sounds.${id}.${lang} must be the path of a WAV file`);
      const target = join(ari, 'sounds', lang, `${id}.wav`);
      mkdirSync(dirname(target), { recursive: true });
      try {
        copyFileSync(file, target);
      } catch (err) {
        throw new Error(`startTrunkline: fixtures.sounds.${id}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      catalogue.sounds[id] = { ...(typeof catalogue.sounds[id] === 'object' ? catalogue.sounds[id] : {}), [lang]: id };
    }
  }
  writeJson(join(ari, 'sounds.json'), catalogue);
}

/** Writes `<target>/ari/` from the bundled fixtures and the caller's additions. */
export function writeFixtures(bundledDir: string, target: string, o: FixtureOptions): void {
  const options = record(o, 'fixtures');
  const ari = join(target, 'ari');
  cpSync(join(bundledDir, 'ari'), ari, { recursive: true, filter: (src) => !src.endsWith('.ts') });

  const endpoints = readJson(join(ari, 'endpoints.json'));
  Object.assign(endpoints.endpoints, record(options.endpoints, 'fixtures.endpoints'));
  writeJson(join(ari, 'endpoints.json'), endpoints);

  const dialplan = record(options.dialplan, 'fixtures.dialplan');
  const plan = readJson(join(ari, 'dialplan.json'));
  Object.assign(plan.globals, record(dialplan.globals, 'fixtures.dialplan.globals'));
  for (const [name, extensions] of Object.entries(record(dialplan.contexts, 'fixtures.dialplan.contexts'))) {
    plan.contexts[name] = { ...plan.contexts[name], ...record(extensions, `fixtures.dialplan.contexts.${name}`) };
  }
  writeJson(join(ari, 'dialplan.json'), plan);

  addSounds(ari, record(options.sounds, 'fixtures.sounds'));
}
