import * as v from 'valibot';
import { checkScript, RECEIVING_STEPS, stepEntry } from '../../protocol/sim/script.js';

// A scenario file (YAML or JSON): the app under test, the calls the far ends place, and what
// must happen. Every object is strict, so a misspelt key is an error naming its path.

/** Bounds on what one file may ask for (a scenario is input the runner does not trust). */
export const SCENARIO_LIMITS = {
  /** Bytes of one scenario file. */
  fileBytes: 1024 * 1024,
  calls: 100,
  expectations: 500,
  /** Keys of one `match`. */
  matchKeys: 50,
  /** Entries of a `one_of`, items of one heard expectation. */
  listItems: 200,
  /** Simulated ms a run may last: one simulated day. */
  timeoutMs: 86_400_000,
} as const;

const name = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
const id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, _, . or -'));
const ms = (max: number) => v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(max));
const env = v.pipe(v.record(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')), v.string()), v.check((e) => Object.keys(e).length <= 200, 'at most 200 entries'));

/** A scalar compared exactly. */
const Scalar = v.union([v.string(), v.number(), v.boolean(), v.null()]);

/**
 * How one field of an event (or a heard item, or a variable) is matched: a scalar or a list
 * compared exactly, `{glob}` (`*` any run, `?` one character, `[abc]`, `{a,b}`: a linear
 * matcher, never a regular expression), `{one_of}` a list of scalars, `{gte, lte}` a number
 * range, `{absent: true}` the field must not be there.
 */
export const FieldMatcher = v.union([
  Scalar,
  v.pipe(v.array(v.unknown()), v.maxLength(SCENARIO_LIMITS.listItems)),
  v.strictObject({ glob: v.pipe(v.string(), v.maxLength(1024)) }),
  v.strictObject({ one_of: v.pipe(v.array(Scalar), v.minLength(1), v.maxLength(SCENARIO_LIMITS.listItems)) }),
  v.pipe(v.strictObject({ gte: v.optional(v.number()), lte: v.optional(v.number()) }), v.check((r) => r.gte !== undefined || r.lte !== undefined, 'a range needs gte or lte')),
  v.strictObject({ absent: v.literal(true) }),
], 'must be a value, a list, {glob}, {one_of}, {gte, lte} or {absent: true}');
export type FieldMatcher = v.InferOutput<typeof FieldMatcher>;

/** Fields by dotted path (`channel.state`, `args`, `digit`) and how each is matched. */
const Match = v.pipe(v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(200)), FieldMatcher), v.check((m) => Object.keys(m).length <= SCENARIO_LIMITS.matchKeys, `at most ${SCENARIO_LIMITS.matchKeys} fields`));

/** `3` exactly, `">=1"`, `"<=2"`, `">0"`, or `{min, max}`. */
const Count = v.union([
  v.pipe(v.number(), v.integer(), v.minValue(0)),
  v.pipe(v.string(), v.regex(/^(>=|<=|>|<|==)?\s*\d{1,9}$/, 'must be a number or a bound such as ">=1" or "<=2"')),
  v.pipe(v.strictObject({ min: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))), max: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))) }), v.check((c) => c.min !== undefined || c.max !== undefined, 'a count needs min or max')),
], 'must be a whole number, a bound such as ">=1" or "<=2", or {min, max}');
export type Count = v.InferOutput<typeof Count>;

const EventExpectation = v.strictObject({
  id: v.optional(id),
  type: v.pipe(v.string(), v.regex(/^[A-Za-z]{1,64}$/, 'must be an event type such as StasisStart')),
  call: v.optional(id),
  match: v.optional(Match),
  count: v.optional(Count),
  after: v.optional(id),
  within_ms: v.optional(ms(SCENARIO_LIMITS.timeoutMs)),
});
export type EventExpectation = v.InferOutput<typeof EventExpectation>;

/** One item of a call's heard list, by its fields (`kind`, `media`, `completed`, …). */
const HeardItemMatch = v.pipe(v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(64)), FieldMatcher), v.check((m) => Object.keys(m).length <= 20, 'at most 20 fields'));

const HeardExpectation = v.strictObject({
  id: v.optional(id),
  call: id,
  /** `sequence`: the items appear in this order, others may come between; `exact`: the list is exactly these; `contains`: each appears somewhere. */
  order: v.optional(v.picklist(['sequence', 'exact', 'contains'])),
  items: v.pipe(v.array(HeardItemMatch), v.maxLength(SCENARIO_LIMITS.listItems)),
});
export type HeardExpectation = v.InferOutput<typeof HeardExpectation>;

const VariableExpectation = v.strictObject({
  id: v.optional(id),
  call: id,
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  value: FieldMatcher,
});
export type VariableExpectation = v.InferOutput<typeof VariableExpectation>;

/** A far end's script, checked as POST /sim/calls checks it (answer and reject are for calls it receives). */
const Script = v.pipe(
  v.array(v.unknown()),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const r = checkScript(dataset.value);
    if (!r.ok) addIssue({ message: r.message });
    else {
      const i = r.steps.findIndex((s) => RECEIVING_STEPS.has(stepEntry(s)[0]));
      if (i >= 0) addIssue({ message: `script step ${i}: ${stepEntry(r.steps[i]!)[0]} is for calls the far end receives; this far end places the call` });
    }
  }),
);

const Call = v.strictObject({
  id,
  from: v.pipe(v.string(), v.regex(/^[A-Za-z]{1,32}\/[^\s/]{1,128}$/, 'must be an endpoint such as PJSIP/alice')),
  to: v.pipe(v.string(), v.regex(/^[^\s@]{1,128}(@[^\s@]{1,128})?$/, 'must be extension or extension@context, such as 1000@default')),
  variables: v.optional(env),
  script: v.optional(Script),
  at_ms: v.optional(ms(SCENARIO_LIMITS.timeoutMs)),
});
export type ScenarioCall = v.InferOutput<typeof Call>;

const App = v.strictObject({
  command: name,
  args: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(4096))), v.maxLength(100))),
  env: v.optional(env),
  cwd: v.optional(name),
  name: v.pipe(v.string(), v.regex(/^[^\s,]{1,73}$/, 'must be an ARI application name (1 to 73 characters, no commas or spaces)')),
  ready_timeout_ms: v.optional(ms(600_000)),
});

export const Scenario = v.strictObject({
  name,
  app: App,
  clock: v.optional(v.picklist(['virtual', 'real'])),
  /** Handed on untouched (what the server is started with is not yet configurable per file). */
  fixtures: v.optional(v.record(v.string(), v.unknown())),
  calls: v.pipe(v.array(Call), v.minLength(1), v.maxLength(SCENARIO_LIMITS.calls)),
  expect: v.strictObject({
    timeout_ms: v.optional(v.pipe(ms(SCENARIO_LIMITS.timeoutMs), v.minValue(1))),
    /** Wall milliseconds without a new event to the app after which it is taken to have reacted (see README, "Scenarios"). */
    settle_ms: v.optional(ms(10_000)),
    /** Simulated milliseconds the clock moves per step. */
    step_ms: v.optional(v.pipe(ms(60_000), v.minValue(1))),
    events: v.optional(v.pipe(v.array(EventExpectation), v.maxLength(SCENARIO_LIMITS.expectations))),
    heard: v.optional(v.pipe(v.array(HeardExpectation), v.maxLength(SCENARIO_LIMITS.expectations))),
    variables: v.optional(v.pipe(v.array(VariableExpectation), v.maxLength(SCENARIO_LIMITS.expectations))),
  }),
});
export type Scenario = v.InferOutput<typeof Scenario>;
