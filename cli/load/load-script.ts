import { checkScript, RECEIVING_STEPS, stepEntry, type ScriptStep } from '../../protocol/sim/script.js';
import { readYamlFile, YamlFileError } from '../yaml-file.js';

/**
 * What each caller does when no --script is given: waits a second (the app answers and starts
 * its greeting), presses 1, waits three seconds (the app's answer to the digit), and hangs up
 * with cause 16. The waits are simulated time.
 */
export const DEFAULT_LOAD_SCRIPT: ScriptStep[] = [{ wait_ms: 1000 }, { dtmf: '1' }, { wait_ms: 3000 }, { hangup: 16 }];

/** The largest script file read. */
const MAX_SCRIPT_FILE_BYTES = 1024 * 1024;

/** A script file that cannot be used; the message names the file and what is wrong. */
export class LoadScriptError extends Error {}

/**
 * Reads a caller script (YAML or JSON): a list of steps, or an object whose `script` is that
 * list, checked by the simulation API's own script check, so a bad step is named as the server
 * would name it (`script step 2: unknown key 'wiat_ms'`).
 */
export function readLoadScript(file: string): ScriptStep[] {
  let raw: unknown;
  try {
    raw = readYamlFile(file, MAX_SCRIPT_FILE_BYTES, 'a script file');
  } catch (e) {
    if (e instanceof YamlFileError) throw new LoadScriptError(e.message);
    throw e;
  }
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const keys = Object.keys(raw);
    if (keys.length !== 1 || keys[0] !== 'script') throw new LoadScriptError(`${file}: must be a list of steps, or an object with only a 'script' list`);
    raw = (raw as { script: unknown }).script;
  }
  const checked = checkScript(raw);
  if (!checked.ok) throw new LoadScriptError(`${file}: ${checked.message}`);
  for (const [i, step] of checked.steps.entries()) {
    const [key] = stepEntry(step);
    if (RECEIVING_STEPS.has(key)) throw new LoadScriptError(`${file}: script step ${i}: ${key} is for calls the far end receives; these callers place their calls`);
  }
  return checked.steps;
}
