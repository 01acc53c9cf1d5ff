import { checkScript, mediaOf, RECEIVING_STEPS, stepEntry, type ScriptCheck } from '../../../protocol/sim/script.js';
import { Tone, ToneError } from '../media/tones.js';

/** What the media a script names are checked against. */
export interface ScriptCatalogue {
  sounds: ReadonlyMap<string, unknown>;
  tonezones: { default: string; zones: Record<string, Record<string, string>> };
  /** Whether a stored recording exists; absent: recordings are not checked (fixtures load before storage). */
  recording?: (name: string) => boolean;
}

/** The tone list a `tone:` value stands for: an indication of the default tone zone (ring, busy, …), or a tone list as written. */
export function toneList(cat: ScriptCatalogue, spec: string): string {
  return cat.tonezones.zones[cat.tonezones.default]?.[spec] ?? spec;
}

/**
 * Checks a script's shape (protocol/sim/script.ts) and what can be checked
 * before it runs: the sounds it plays or waits for exist, the tones it plays
 * parse, the recordings it plays are stored. `places`: the far end places
 * the call (an inbound call), so there is nothing for it to answer or reject.
 */
export function checkScriptFor(raw: unknown, cat: ScriptCatalogue, places: boolean): ScriptCheck {
  const shape = checkScript(raw);
  if (!shape.ok) return shape;
  for (const [i, step] of shape.steps.entries()) {
    const [key, value] = stepEntry(step);
    const problem = (() => {
      if (places && RECEIVING_STEPS.has(key)) return `${key} is for calls the far end receives; this far end places the call`;
      if (key !== 'play' && key !== 'wait_heard') return null;
      const { scheme, id } = mediaOf(value as string);
      if (scheme === 'sound') return cat.sounds.has(id) ? null : `unknown sound '${id}'`;
      if (key === 'wait_heard') return null; // a tone or a recording made during the call may be played to it
      if (scheme === 'recording') return !cat.recording || cat.recording(id) ? null : `unknown recording '${id}'`;
      try {
        Tone.parse(toneList(cat, id));
        return null;
      } catch (err) {
        if (err instanceof ToneError) return `invalid tone: ${err.message}`;
        throw err;
      }
    })();
    if (problem) return { ok: false, message: `script step ${i}: ${problem}` };
  }
  return shape;
}
