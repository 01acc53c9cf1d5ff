import * as v from 'valibot';
import { readYamlFile, YamlFileError } from '../yaml-file.js';
import { compileMatcher } from './matchers.js';
import { Scenario, SCENARIO_LIMITS, type FieldMatcher } from './scenario-schema.js';

/** A file that cannot be run: unreadable, not YAML/JSON, or off the schema (the message names the field's path). */
export class ScenarioFileError extends Error {}

/** A valibot issue's path as the file writes it: `calls[0].script`, `expect.events[2].match`. */
function pathOf(issue: v.BaseIssue<unknown>): string {
  let out = '';
  for (const item of issue.path ?? []) {
    const key = (item as { key: unknown }).key;
    out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  }
  return out || '(top level)';
}

/** What is wrong, in words that fit after the path: unknown and missing keys said plainly. */
function messageOf(issue: v.BaseIssue<unknown>): string {
  if (issue.type === 'strict_object' && issue.expected === 'never') return 'unknown key';
  if (issue.type === 'strict_object' && issue.received === 'undefined') return 'missing';
  return issue.message;
}

/** Ids that must refer to something declared elsewhere in the file. */
function checkReferences(s: Scenario): string | null {
  const calls = new Set<string>();
  for (const [i, c] of s.calls.entries()) {
    if (calls.has(c.id)) return `calls[${i}].id: '${c.id}' is used by an earlier call`;
    calls.add(c.id);
  }
  const ids = new Set<string>();
  const events = s.expect.events ?? [];
  const groups = [['events', events], ['heard', s.expect.heard ?? []], ['variables', s.expect.variables ?? []]] as const;
  for (const [group, list] of groups) {
    for (const [i, e] of list.entries()) {
      if (e.id !== undefined) {
        if (ids.has(e.id)) return `expect.${group}[${i}].id: '${e.id}' is used by an earlier expectation`;
        ids.add(e.id);
      }
      if (e.call !== undefined && !calls.has(e.call)) return `expect.${group}[${i}].call: no call has the id '${e.call}'`;
    }
  }
  const eventIds = new Map(events.flatMap((e, i) => (e.id === undefined ? [] : [[e.id, i] as const])));
  for (const [i, e] of events.entries()) {
    if (e.after === undefined) continue;
    const target = eventIds.get(e.after);
    if (target === undefined) return `expect.events[${i}].after: no event expectation has the id '${e.after}'`;
    // Only earlier expectations may be referred to, so `after` chains can never go round in a circle.
    if (target >= i) return `expect.events[${i}].after: '${e.after}' must be an earlier expectation`;
  }
  return null;
}

/** Compiles every matcher once, so a glob that does not parse is a file error naming its path. */
function checkMatchers(s: Scenario): string | null {
  const all: Array<[string, FieldMatcher]> = [];
  for (const [i, e] of (s.expect.events ?? []).entries()) for (const [k, m] of Object.entries(e.match ?? {})) all.push([`expect.events[${i}].match.${k}`, m]);
  for (const [i, h] of (s.expect.heard ?? []).entries()) for (const [j, item] of h.items.entries()) for (const [k, m] of Object.entries(item)) all.push([`expect.heard[${i}].items[${j}].${k}`, m]);
  for (const [i, x] of (s.expect.variables ?? []).entries()) all.push([`expect.variables[${i}].value`, x.value]);
  for (const [path, m] of all) {
    try {
      compileMatcher(m);
    } catch (err) {
      return `${path}: bad glob: ${(err as Error).message}`;
    }
  }
  return null;
}

/** Reads, parses and checks one scenario file; throws ScenarioFileError naming the file and what is wrong. */
export function loadScenario(file: string): Scenario {
  let raw: unknown;
  try {
    raw = readYamlFile(file, SCENARIO_LIMITS.fileBytes, 'a scenario file');
  } catch (err) {
    if (err instanceof YamlFileError) throw new ScenarioFileError(err.message);
    throw err;
  }
  const r = v.safeParse(Scenario, raw);
  if (!r.success) {
    const issue = r.issues[0];
    throw new ScenarioFileError(`${file}: ${pathOf(issue)}: ${messageOf(issue)}`);
  }
  const wrong = checkReferences(r.output) ?? checkMatchers(r.output);
  if (wrong) throw new ScenarioFileError(`${file}: ${wrong}`);
  return r.output;
}
