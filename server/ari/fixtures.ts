import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { parseDialplan, type Dialplan } from './engine/dialplan.js';
import { RATE } from './media/pcm.js';
import { wavToSlin } from './media/wav.js';
import type { ScriptStep } from '../../protocol/sim/script.js';
import { checkScriptFor } from './engine/script-check.js';

const ms = v.pipe(v.number(), v.integer(), v.minValue(0));

const EndpointSchema = v.strictObject({
  callerid: v.optional(v.string(), ''),
  context: v.optional(v.string(), 'default'),
  language: v.optional(v.string(), 'en'),
  accountcode: v.optional(v.string(), ''),
  state: v.optional(v.picklist(['online', 'offline', 'unknown']), 'online'),
  /** When the far end starts ringing after we dial it; null = never signals ringing. */
  ringAfterMs: v.optional(v.nullable(ms), null),
  /** When it answers; absent = never answers by itself (noanswer / manual). */
  answerAfterMs: v.optional(v.nullable(ms), null),
  /** When it rejects the call, with rejectCause. */
  rejectAfterMs: v.optional(v.nullable(ms), null),
  rejectCause: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(127)), 21),
  /** With this many calls in use the endpoint's device state is BUSY (PJSIP's device_state_busy_at); 0: never. */
  deviceStateBusyAt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  /** The network the endpoint's RTP crosses: what rtp_statistics reports for it. */
  rtp: v.optional(
    v.strictObject({
      jitterMs: v.optional(v.pipe(v.number(), v.minValue(0)), 2),
      lossPercent: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(100)), 0),
      rttMs: v.optional(v.pipe(v.number(), v.minValue(0)), 20),
    }),
    {},
  ),
  /** Who carries out transfers its far end asks for (PJSIP's transfer_handling): the server, or the application (ChannelTransfer). */
  transferHandling: v.optional(v.picklist(['core', 'ari-only']), 'core'),
  /** How the far end answers a transfer we ask of it (REFER from Transfer()): the SIP status of its final report; 2xx is success. */
  referStatus: v.optional(v.pipe(v.number(), v.integer(), v.minValue(200), v.maxValue(699)), 200),
  /** The codec its RTP carries (for octet counts). */
  codec: v.optional(v.picklist(['ulaw', 'alaw', 'slin', 'slin16']), 'ulaw'),
  /** The script calls we place to it follow by default (checked in loadFixtures, once the sounds are known). */
  script: v.optional(v.array(v.unknown())),
});
export type EndpointFixture = Omit<v.InferOutput<typeof EndpointSchema>, 'script'> & { tech: string; resource: string; key: string; script?: ScriptStep[] };

/**
 * An endpoint built from the same fields as an endpoints.json entry (absent ones take their
 * defaults): how configuration objects made at run time become endpoints of the simulation.
 * Throws a FixtureError naming the first bad field.
 */
export function endpointFromFields(tech: string, resource: string, fields: Record<string, unknown>): EndpointFixture {
  const r = v.safeParse(EndpointSchema, fields);
  if (!r.success) throw new FixtureError(r.issues[0]!.path?.map((p) => String(p.key)).join('.') ?? 'endpoint');
  const { script: _, ...fixture } = r.output; // scripts come only from endpoints.json
  return { ...fixture, tech, resource, key: `${tech}/${resource}` };
}

const EndpointsFile = v.object({
  endpoints: v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_]+\/[^/@;]+$/, 'endpoint keys look like TECH/resource')), EndpointSchema),
});
const DialplanFile = v.object({
  globals: v.optional(v.record(v.string(), v.string()), {}),
  contexts: v.record(v.string(), v.record(v.string(), v.array(v.string()))),
});
const SoundsFile = v.object({
  sounds: v.record(
    v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_/-]*$/i, 'sound ids are letters, digits, _ - and /'), v.check((s) => !s.split('/').includes('..'), 'sound ids cannot contain ..')),
    v.record(v.string(), v.union([v.string(), v.object({ tone: v.string() })])),
  ),
});
const MohFile = v.object({ classes: v.record(v.string(), v.object({ description: v.string(), tones: v.string() })) });
const FormatsFile = v.object({
  formats: v.record(v.string(), v.object({
    sampleRate: v.pipe(v.number(), v.integer(), v.minValue(8000)),
    encoding: v.picklist(['pcm16', 'ulaw', 'alaw']),
    extension: v.string(),
    contentType: v.string(),
    container: v.optional(v.picklist(['riff'])),
  })),
});
const TonezonesFile = v.object({ default: v.string(), zones: v.record(v.string(), v.record(v.string(), v.string())) });

export interface Sound {
  id: string;
  /** language → 8 kHz slin samples (from sounds/<lang>/<id>.wav) */
  audio: Map<string, Int16Array>;
  /** The words spoken, in English when there is an English version. */
  text: string;
}

/** A sound's samples in a language, falling back to English as Asterisk falls back to its default language. */
export function soundAudio(sound: Sound | undefined, lang: string): Int16Array | undefined {
  return sound?.audio.get(lang) ?? sound?.audio.get('en');
}

/** Duration of a sound in simulated ms. */
export const audioMs = (samples: Int16Array) => (samples.length * 1000) / RATE;

export interface Fixtures {
  endpoints: Map<string, EndpointFixture>;
  dialplan: Dialplan;
  globals: Record<string, string>;
  sounds: Map<string, Sound>;
  mohClasses: Map<string, { description: string; tones: string }>;
  formats: Map<string, v.InferOutput<typeof FormatsFile>['formats'][string]>;
  tonezones: v.InferOutput<typeof TonezonesFile>;
}

export class FixtureError extends Error {}

function load<S extends v.GenericSchema>(dir: string, file: string, schema: S): v.InferOutput<S> {
  const path = join(dir, file);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new FixtureError(`fixture ${path}: ${(err as Error).message}`);
  }
  const r = v.safeParse(schema, json);
  if (!r.success) {
    const issue = r.issues[0]!;
    const at = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    throw new FixtureError(`fixture ${path}: ${at ? `${at}: ` : ''}${issue.message}`);
  }
  return r.output;
}

/** Loads and validates `<dir>/ari/*.json`; a bad file throws a FixtureError naming the file and the key. */
export function loadFixtures(dir: string): Fixtures {
  const ari = join(dir, 'ari');
  const eps = load(ari, 'endpoints.json', EndpointsFile);
  const dp = load(ari, 'dialplan.json', DialplanFile);
  const snd = load(ari, 'sounds.json', SoundsFile);
  const moh = load(ari, 'moh.json', MohFile);
  const formats = load(ari, 'formats.json', FormatsFile);
  const tonezones = load(ari, 'tonezones.json', TonezonesFile);

  const endpoints = new Map<string, EndpointFixture>();
  for (const [key, e] of Object.entries(eps.endpoints)) {
    const [tech, resource] = key.split('/') as [string, string];
    const { script: _, ...fixture } = e;
    endpoints.set(key.toLowerCase(), { ...fixture, tech, resource, key });
  }
  let dialplan: Dialplan;
  try {
    dialplan = parseDialplan(dp.contexts);
  } catch (err) {
    throw new FixtureError(`fixture ${join(ari, 'dialplan.json')}: ${(err as Error).message}`);
  }
  for (const e of endpoints.values()) {
    if (!dialplan.contexts.has(e.context)) throw new FixtureError(`fixture ${join(ari, 'endpoints.json')}: ${e.key}: context "${e.context}" is not in the dialplan`);
  }
  const sounds = new Map<string, Sound>();
  for (const [id, langs] of Object.entries(snd.sounds)) {
    const audio = new Map<string, Int16Array>();
    for (const lang of Object.keys(langs)) {
      const file = join(ari, 'sounds', lang, `${id}.wav`);
      if (!existsSync(file)) throw new FixtureError(`fixture ${file} is missing (run: npx tsx fixtures/ari/generate-sounds.ts)`);
      try {
        audio.set(lang, wavToSlin(readFileSync(file), RATE));
      } catch (err) {
        throw new FixtureError(`fixture ${file}: ${(err as Error).message}`);
      }
    }
    const spoken = Object.entries(langs).find(([l, s]) => l === 'en' && typeof s === 'string') ?? Object.entries(langs).find(([, s]) => typeof s === 'string');
    sounds.set(id, { id, audio, text: spoken ? (spoken[1] as string) : '' });
  }
  for (const [key, e] of Object.entries(eps.endpoints)) {
    if (e.script === undefined) continue;
    const checked = checkScriptFor(e.script, { sounds, tonezones }, false);
    if (!checked.ok) throw new FixtureError(`fixture ${join(ari, 'endpoints.json')}: ${key}: ${checked.message}`);
    endpoints.get(key.toLowerCase())!.script = checked.steps;
  }
  if (!moh.classes.default) throw new FixtureError(`fixture ${join(ari, 'moh.json')}: a "default" class is required`);
  if (!tonezones.zones[tonezones.default]) throw new FixtureError(`fixture ${join(ari, 'tonezones.json')}: default zone "${tonezones.default}" is not defined`);
  return {
    endpoints,
    dialplan,
    globals: dp.globals,
    sounds,
    mohClasses: new Map(Object.entries(moh.classes)),
    formats: new Map(Object.entries(formats.formats)),
    tonezones,
  };
}
