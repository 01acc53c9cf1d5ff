import * as op from '../../../protocol/ari/operations/sounds.js';
import { notFound } from '../../errors.js';
import type { AriBinder } from '../http/bind.js';
import type { Sound } from '../fixtures.js';
import type { Telephony } from '../telephony.js';

/** Sounds from the catalogue. Every sound is stored as 8 kHz WAV, so `wav` is the format each language offers. */
export function mountSounds(b: AriBinder, t: Pick<Telephony, 'engine'>): void {
  const sounds = t.engine.fixtures.sounds;
  const model = (s: Sound, lang?: string, format?: string) => {
    const formats = [...s.audio.keys()].filter((l) => !lang || l === lang).map((language) => ({ language, format: 'wav' })).filter((f) => !format || f.format === format);
    return { id: s.id, ...(s.text ? { text: s.text } : {}), formats };
  };
  b.mount(op.listSounds, (a) => {
    const list = [...sounds.values()].map((s) => model(s, a.lang, a.format)).filter((s) => s.formats.length).sort((x, y) => x.id.localeCompare(y.id));
    if (!list.length) throw notFound('No sounds found that matched the query');
    return list;
  });
  b.mount(op.getSound, (a) => {
    const s = sounds.get(a.soundId);
    if (!s) throw notFound('Sound not found');
    return model(s);
  });
}
