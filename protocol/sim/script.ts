import { defineModel, f, optional } from '../model.js';

// Scripted far ends: a list of steps the far end of a call carries out in
// order (wait, answer, press digits, speak, hang up, …). This file holds the
// shape of a script and its check; what each step does lives in the engine
// (server/ari/engine/far-end-script.ts).

/** The most steps one script may have. */
export const MAX_SCRIPT_STEPS = 200;
/** The longest single wait_ms / wait_silence_ms: one simulated day. */
export const MAX_SCRIPT_WAIT_MS = 86_400_000;
/** The most digits one dtmf step may press. */
export const MAX_SCRIPT_DIGITS = 100;

/** Every key a step may have; a step has exactly one of them. */
export const SCRIPT_STEP_KEYS = ['wait_ms', 'wait_heard', 'wait_silence_ms', 'answer', 'reject', 'dtmf', 'play', 'talk', 'hold', 'hangup'] as const;
export type ScriptStepKey = (typeof SCRIPT_STEP_KEYS)[number];

/** One step of a script, as validated. */
export type ScriptStep =
  | { wait_ms: number }
  | { wait_heard: string }
  | { wait_silence_ms: number }
  | { answer: true }
  | { reject: number }
  | { dtmf: string }
  | { play: string }
  | { talk: boolean }
  | { hold: boolean }
  | { hangup: number };

/** Steps that only make sense on a call the far end receives (one we place to it). */
export const RECEIVING_STEPS: ReadonlySet<ScriptStepKey> = new Set(['answer', 'reject']);

/** Media URI schemes wait_heard and play accept. */
const MEDIA = /^(sound|tone|recording):(.+)$/;
const DTMF = /^[0-9A-Da-d*#]+$/;

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);

/** Checks one step's value; returns what is wrong with it, or null. */
function checkValue(key: ScriptStepKey, value: unknown): string | null {
  switch (key) {
    case 'wait_ms':
      return isInt(value) && value >= 0 && value <= MAX_SCRIPT_WAIT_MS ? null : `wait_ms must be an integer from 0 to ${MAX_SCRIPT_WAIT_MS}`;
    case 'wait_silence_ms':
      return isInt(value) && value > 0 && value <= MAX_SCRIPT_WAIT_MS ? null : `wait_silence_ms must be an integer from 1 to ${MAX_SCRIPT_WAIT_MS}`;
    case 'wait_heard':
    case 'play':
      return typeof value === 'string' && MEDIA.test(value) ? null : `${key} must be a media URI (sound:, tone: or recording:)`;
    case 'answer':
      return value === true ? null : 'answer must be true';
    case 'reject':
    case 'hangup':
      return isInt(value) && value >= 1 && value <= 127 ? null : `${key} must be a Q.850 cause code from 1 to 127`;
    case 'dtmf':
      return typeof value === 'string' && DTMF.test(value) && value.length <= MAX_SCRIPT_DIGITS ? null : `dtmf must be 1 to ${MAX_SCRIPT_DIGITS} digits among 0-9, A-D, * and #`;
    case 'talk':
    case 'hold':
      return typeof value === 'boolean' ? null : `${key} must be true or false`;
  }
}

/** The outcome of checking a script: its steps, or a message naming the first bad step. */
export type ScriptCheck = { ok: true; steps: ScriptStep[] } | { ok: false; message: string };

/**
 * Checks a script's shape: a non-empty list of at most MAX_SCRIPT_STEPS
 * objects of exactly one known key each, with a value of the right type.
 * Messages name the step by its index from 0 (`script step 3: …`).
 */
export function checkScript(raw: unknown): ScriptCheck {
  if (!Array.isArray(raw)) return { ok: false, message: 'script must be a list of steps' };
  if (raw.length === 0) return { ok: false, message: 'script must have at least one step' };
  if (raw.length > MAX_SCRIPT_STEPS) return { ok: false, message: `script has ${raw.length} steps; at most ${MAX_SCRIPT_STEPS} are allowed` };
  const steps: ScriptStep[] = [];
  for (let i = 0; i < raw.length; i++) {
    const step: unknown = raw[i];
    const fail = (what: string): ScriptCheck => ({ ok: false, message: `script step ${i}: ${what}` });
    if (step === null || typeof step !== 'object' || Array.isArray(step)) return fail('must be an object with exactly one key');
    const keys = Object.keys(step);
    if (keys.length !== 1) return fail(`must be an object with exactly one key (it has ${keys.length})`);
    const key = keys[0]!;
    if (!(SCRIPT_STEP_KEYS as readonly string[]).includes(key)) return fail(`unknown key '${key.length > 40 ? `${key.slice(0, 40)}…` : key}'`);
    const value = (step as Record<string, unknown>)[key];
    const wrong = checkValue(key as ScriptStepKey, value);
    if (wrong) return fail(wrong);
    steps.push({ [key]: key === 'dtmf' ? (value as string).toUpperCase() : value } as ScriptStep);
  }
  return { ok: true, steps };
}

/** A step's key and value. */
export function stepEntry(step: ScriptStep): [ScriptStepKey, unknown] {
  const [key, value] = Object.entries(step)[0]!;
  return [key as ScriptStepKey, value];
}

/** The media URI of a wait_heard or play value, split at its scheme. */
export function mediaOf(uri: string): { scheme: 'sound' | 'tone' | 'recording'; id: string } {
  const m = MEDIA.exec(uri)!;
  return { scheme: m[1] as 'sound' | 'tone' | 'recording', id: m[2]! };
}

export const SCRIPT_STATES = ['running', 'waiting', 'done', 'ended'] as const;

const stepsDoc = 'The steps, in order, as given: each an object with one key (wait_ms, wait_heard, wait_silence_ms, answer, reject, dtmf, play, talk, hold, hangup).';

export const SimScript = defineModel('SimScript', 'The script the far end of a channel follows, and how far it has got.', {
  steps: f.list(f.object(), stepsDoc),
  position: f.int('Index (from 0) of the step under way; the number of steps once done.'),
  state: f.oneOf(SCRIPT_STATES, 'running: a step is being carried out (digits being pressed, a sound being spoken); waiting: a wait_* step waits for its moment; done: every step was carried out; ended: a step could not be carried out (the call ended, or it made no sense in the call\'s state), and the rest were dropped.'),
  waiting_for: optional(f.string('While waiting: what for ("2500 ms", the media URI of wait_heard, "1000 ms of silence").')),
  reason: optional(f.string('When ended: why the step at position could not be carried out.')),
});

export const SimEndpointScript = defineModel('SimEndpointScript', 'The script calls we place to an endpoint follow.', {
  script: f.list(f.object(), stepsDoc),
  calls: optional(f.int('How many more calls follow it before the endpoint goes back to its fixture\'s behaviour; absent: every call.')),
  source: f.oneOf(['api', 'fixture'] as const, 'api: set through PUT …/script; fixture: the endpoint\'s default script from endpoints.json.'),
});
