import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { scenarioCommand } from '../../cli/scenario/command.js';
import { loadScenario } from '../../cli/scenario/load-scenario.js';
import { tempDirs } from '../_helpers/temp-dir.js';

// Scenario files and the command line, before anything runs: a good file loads as written; each
// kind of bad file or bad usage is exit 2 with one line naming the file and the bad field's path.
const test = suite('scenario files');
const dirs = tempDirs(test, 'scenario-files');
const fixtures = join(import.meta.dirname, 'fixtures');

/** Runs the command in this process (what the CLI runs), capturing what it prints. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await scenarioCommand(args, (s) => void (out += s), (s) => void (err += s));
  return { code, out, err };
}

const HEAD = 'name: x\napp: {command: node, name: a}\n';
const CALL = 'calls: [{id: c, from: PJSIP/alice, to: "1000"}]\n';

test('the fixture scenario loads with every field as written', () => {
  const s = loadScenario(join(fixtures, 'ivr.yaml'));
  assert.is(s.name, 'ivr menu');
  assert.equal(s.app, { command: 'node', args: ['ivr-app.mjs'], name: 'ivr' });
  assert.equal(s.calls[0], {
    id: 'caller', from: 'PJSIP/alice', to: '1000@default',
    script: [{ wait_heard: 'sound:welcome' }, { dtmf: '1' }, { wait_heard: 'sound:press-1' }, { dtmf: '2' }, { wait_heard: 'sound:goodbye' }],
  });
  assert.equal(s.expect.events?.map((e) => e.type), ['StasisStart', 'ChannelDtmfReceived', 'PlaybackStarted', 'StasisEnd']);
  assert.equal(s.expect.events?.[0]?.match, { args: ['1000'], 'channel.state': 'Up' });
  assert.equal(s.expect.events?.[2]?.match, { 'playback.media_uri': { glob: 'sound:*' } });
  assert.equal(s.expect.variables, [{ call: 'caller', name: 'CHOICE', value: 1 }]);
});

test('JSON is read as well as YAML', () => {
  const f = join(dirs(), 'plain.json');
  writeFileSync(f, JSON.stringify({ name: 'j', app: { command: 'node', name: 'a' }, calls: [{ id: 'c', from: 'PJSIP/bob', to: 's' }], expect: { events: [{ type: 'StasisStart', count: '>=1' }] } }));
  const s = loadScenario(f);
  assert.equal(s.calls, [{ id: 'c', from: 'PJSIP/bob', to: 's' }]);
  assert.equal(s.expect.events, [{ type: 'StasisStart', count: '>=1' }]);
});

const BAD: Array<[string, string, string]> = [
  ['not YAML', 'name: [x\n', 'not valid YAML or JSON: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:'],
  ['a key twice', 'name: x\nname: y\n', 'not valid YAML or JSON: Map keys must be unique at line 2, column 1:'],
  ['no name', 'app: {command: node, name: a}\n' + CALL + 'expect: {}\n', 'name: missing'],
  ['a misspelt key', 'name: x\napp: {command: node, name: a, comand: y}\n' + CALL + 'expect: {}\n', 'app.comand: unknown key'],
  ['an app name with a comma', 'name: x\napp: {command: node, name: "a,b"}\n' + CALL + 'expect: {}\n', 'app.name: must be an ARI application name (1 to 73 characters, no commas or spaces)'],
  ['no calls', HEAD + 'calls: []\nexpect: {}\n', 'calls: Invalid length: Expected >=1 but received 0'],
  ['an endpoint without technology', HEAD + 'calls: [{id: c, from: alice, to: "1000"}]\nexpect: {}\n', 'calls[0].from: must be an endpoint such as PJSIP/alice'],
  ['a script step misspelt', HEAD + 'calls: [{id: c, from: PJSIP/alice, to: "1000", script: [{wait_ms: 5}, {wiat_ms: 3}]}]\nexpect: {}\n', "calls[0].script: script step 1: unknown key 'wiat_ms'"],
  ['answer in a caller\'s script', HEAD + 'calls: [{id: c, from: PJSIP/alice, to: "1000", script: [{answer: true}]}]\nexpect: {}\n', 'calls[0].script: script step 0: answer is for calls the far end receives; this far end places the call'],
  ['a call id twice', HEAD + 'calls: [{id: c, from: PJSIP/alice, to: "1"}, {id: c, from: PJSIP/bob, to: "1"}]\nexpect: {}\n', "calls[1].id: 'c' is used by an earlier call"],
  ['a count in words', HEAD + CALL + 'expect: {events: [{type: StasisStart}, {type: StasisEnd, count: about 3}]}\n', 'expect.events[1].count: must be a number or a bound such as ">=1" or "<=2"'],
  ['a regular expression', HEAD + CALL + 'expect: {events: [{type: StasisStart, match: {digit: {regex: ".*"}}}]}\n', 'expect.events[0].match.digit: must be a value, a list, {glob}, {one_of}, {gte, lte} or {absent: true}'],
  ['a glob that does not parse', HEAD + CALL + 'expect: {events: [{type: StasisStart, match: {channel.name: {glob: "[abc"}}}]}\n', 'expect.events[0].match.channel.name: bad glob: unclosed character class'],
  ['after a later expectation', HEAD + CALL + 'expect: {events: [{type: StasisStart, after: later}, {id: later, type: StasisEnd}]}\n', "expect.events[0].after: 'later' must be an earlier expectation"],
  ['after an unknown id', HEAD + CALL + 'expect: {events: [{type: StasisStart, after: nowhere}]}\n', "expect.events[0].after: no event expectation has the id 'nowhere'"],
  ['heard of an unknown call', HEAD + CALL + 'expect: {heard: [{call: nobody, items: []}]}\n', "expect.heard[0].call: no call has the id 'nobody'"],
  ['a heard order that does not exist', HEAD + CALL + 'expect: {heard: [{call: c, order: random, items: []}]}\n', 'expect.heard[0].order: Invalid type: Expected ("sequence" | "exact" | "contains") but received "random"'],
  ['a negative timeout', HEAD + CALL + 'expect: {timeout_ms: -5}\n', 'expect.timeout_ms: Invalid value: Expected >=0 but received -5'],
  ['an unknown clock', HEAD + 'clock: wall\n' + CALL + 'expect: {}\n', 'clock: Invalid type: Expected ("virtual" | "real") but received "wall"'],
];

for (const [what, text, message] of BAD) {
  test(`${what}: exit 2 naming the file and the path`, async () => {
    const f = join(dirs(), 'bad.yaml');
    writeFileSync(f, text);
    const r = await run([f]);
    assert.is(r.code, 2);
    assert.is(r.out, '');
    assert.is(r.err, `trunkline scenario: ${f}: ${message}\n`);
  });
}

test('a missing file and a bad one: both named, nothing runs (exit 2)', async () => {
  const bad = join(dirs(), 'bad.yaml');
  writeFileSync(bad, `${HEAD}calls: []\nexpect: {}\n`);
  const missing = join(dirs(), 'missing.yaml');
  const r = await run([join(fixtures, 'ivr.yaml'), missing, bad]);
  assert.is(r.code, 2);
  assert.is(r.out, '');
  assert.is(r.err, `trunkline scenario: ${missing}: cannot be read (ENOENT)\ntrunkline scenario: ${bad}: calls: Invalid length: Expected >=1 but received 0\n`);
});

test('usage: no file, an unknown option or --junit without a file are exit 2 with the usage; --help is exit 0', async () => {
  for (const [args, why] of [[[], 'no scenario file given'], [['--fast', 'x.yaml'], 'unknown option --fast'], [['x.yaml', '--junit'], '--junit needs a file name']] as const) {
    const r = await run([...args]);
    assert.is(r.code, 2, why);
    assert.ok(r.err.startsWith(`trunkline scenario: ${why}\n\nUsage: trunkline scenario FILE... [--junit FILE] [--verbose]\n`), r.err);
  }
  const help = await run(['--help']);
  assert.is(help.code, 0);
  assert.ok(help.out.startsWith('Usage: trunkline scenario FILE... [--junit FILE] [--verbose]\n'));
  assert.is(help.err, '');
});

test('a file over the size limit is refused before it is parsed', async () => {
  const f = join(dirs(), 'huge.yaml');
  writeFileSync(f, `name: x\n#${'y'.repeat(1024 * 1024)}\n`);
  const r = await run([f]);
  assert.is(r.code, 2);
  assert.is(r.err, `trunkline scenario: ${f}: ${1024 * 1024 + 10} bytes; a scenario file may have at most ${1024 * 1024}\n`);
});

test.run();
