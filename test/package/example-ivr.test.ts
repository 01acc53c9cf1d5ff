import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCommand } from '../_helpers/npm.js';

// The example IVR's own node:test suite (examples/ivr/test/), run from the repository as its
// README says: `trunkline` resolves to this checkout's source through
// _helpers/trunkline-from-source.mjs, ari-client to the repository's node_modules, and each
// test file starts its own server and the app as a child process. The packed-and-installed
// run of the same files is in pack-install.test.ts.
const test = suite('package: the example IVR from the repository');
const root = join(import.meta.dirname, '..', '..');
const HOOK = join(root, 'test', '_helpers', 'trunkline-from-source.mjs');

test('node --test examples/ivr/test/: every test of the example passes', async () => {
  const env = { ...process.env } as Record<string, string>;
  const ran = await runCommand(process.execPath, ['--import', 'tsx', '--import', HOOK, '--test', join('examples', 'ivr', 'test')], root, env);
  assert.is(ran.code, 0, ran.output);
  assert.match(ran.output, /^# tests 12$/m);
  assert.match(ran.output, /^# pass 12$/m);
  assert.match(ran.output, /^# fail 0$/m);
});

test.run();
