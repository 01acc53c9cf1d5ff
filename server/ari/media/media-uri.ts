import { badRequest } from '../../errors.js';
import { soundAudio, type Fixtures } from '../fixtures.js';
import { Tone, ToneError } from './tones.js';

/** Audio a playback item resolves to: finite samples, or a tone (which may last forever). */
export type ItemAudio = Int16Array | Tone;

const SCHEMES = ['sound', 'recording', 'number', 'digits', 'characters', 'tone'] as const;

/** English number words as sound ids (say_number's grammar: "one hundred forty two"). */
function numberSounds(n: number): string[] {
  if (n < 0) return ['digits/minus', ...numberSounds(-n)];
  if (n === 0) return ['digits/0'];
  const out: string[] = [];
  const group = (x: number) => {
    if (x >= 100) {
      out.push(`digits/${Math.floor(x / 100)}`, 'digits/hundred');
      x %= 100;
    }
    if (x >= 20) {
      out.push(`digits/${Math.floor(x / 10) * 10}`);
      x %= 10;
    }
    if (x > 0) out.push(`digits/${x}`);
  };
  for (const [size, word] of [[1_000_000, 'million'], [1000, 'thousand']] as const) {
    if (n >= size) {
      group(Math.floor(n / size));
      out.push(`digits/${word}`);
      n %= size;
    }
  }
  group(n);
  return out;
}

const DIGIT_SOUNDS: Record<string, string> = { '*': 'digits/star', '#': 'digits/pound', '-': 'digits/minus' };
const CHARACTER_SOUNDS: Record<string, string> = {
  '.': 'letters/dot', '-': 'letters/dash', '@': 'letters/at', '/': 'letters/slash', ' ': 'letters/space',
  '+': 'letters/plus', '=': 'letters/equals', $: 'letters/dollar',
};

/**
 * Checks a media URI when a play is requested: an unknown scheme, a
 * `number:` that is not an integer or a `tone:` that does not parse is a 400
 * (Asterisk accepts them and then silently drops the playback's events).
 */
export function checkMediaUri(uri: string, fixtures: Fixtures): void {
  const colon = uri.indexOf(':');
  const scheme = colon > 0 ? uri.slice(0, colon) : '';
  const rest = uri.slice(colon + 1);
  if (!(SCHEMES as readonly string[]).includes(scheme)) throw badRequest(`Invalid media URI '${uri}': the scheme must be one of ${SCHEMES.join(', ')}`);
  if (!rest) throw badRequest(`Invalid media URI '${uri}': nothing after the scheme`);
  if (scheme === 'number' && !/^-?\d{1,9}$/.test(rest)) throw badRequest(`Invalid media URI '${uri}': number: takes an integer`);
  if (scheme === 'tone') resolveTone(rest, fixtures);
}

function resolveTone(spec: string, fixtures: Fixtures): Tone {
  const [name = '', ...opts] = spec.split(';');
  let zone = fixtures.tonezones.default;
  for (const o of opts) {
    const m = /^tonezone=(.+)$/.exec(o);
    if (!m) throw badRequest(`Invalid tone option '${o}' (only tonezone= is known)`);
    zone = m[1]!;
    if (!fixtures.tonezones.zones[zone]) throw badRequest(`Unknown tone zone '${zone}'`);
  }
  const list = fixtures.tonezones.zones[zone]?.[name] ?? name;
  try {
    return Tone.parse(list);
  } catch (err) {
    if (err instanceof ToneError) throw badRequest(`Invalid tone '${name}': ${err.message}`);
    throw err;
  }
}

/**
 * Resolves one media URI to audio in a language, when its turn comes;
 * undefined means the item fails (a sound or recording that does not exist).
 */
export function resolveMedia(uri: string, lang: string, fixtures: Fixtures, recording: (name: string) => Int16Array | undefined): ItemAudio | undefined {
  const colon = uri.indexOf(':');
  const scheme = uri.slice(0, colon);
  const rest = uri.slice(colon + 1);
  const sounds = (ids: string[]): Int16Array | undefined => {
    const parts: Int16Array[] = [];
    for (const id of ids) {
      const a = soundAudio(fixtures.sounds.get(id), lang);
      if (a) parts.push(a);
    }
    if (!parts.length) return undefined;
    const out = new Int16Array(parts.reduce((a, p) => a + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  };
  switch (scheme) {
    case 'sound':
      return soundAudio(fixtures.sounds.get(rest), lang);
    case 'recording':
      return recording(rest);
    case 'number':
      return sounds(numberSounds(Number(rest)));
    case 'digits':
      return sounds([...rest].map((c) => (/[0-9]/.test(c) ? `digits/${c}` : DIGIT_SOUNDS[c] ?? '')).filter(Boolean));
    case 'characters':
      return sounds([...rest.toLowerCase()].map((c) => (/[a-z]/.test(c) ? `letters/${c}` : /[0-9]/.test(c) ? `digits/${c}` : CHARACTER_SOUNDS[c] ?? '')).filter(Boolean));
    case 'tone':
      return resolveTone(rest, fixtures);
    default:
      return undefined;
  }
}

export { numberSounds };
