import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { USER_REGEXP_FLAGS, evaluate, userRegExp } from '../../server/ari/engine/expression.js';

// `$[a =~ b]` in dialplan expressions: Asterisk's regular-expression match (anchored at the
// start; the first group, else the length matched, else 0), with the pattern run on a
// linear-time engine since channel variables can put a caller's text in it.
const test = suite('expression =~');

test('Asterisk semantics: first group, else the length matched, else 0', () => {
  assert.is(evaluate('12345 =~ "1[0-9]"'), '2');
  assert.is(evaluate('12345 =~ "1([0-9]+)"'), '2345');
  assert.is(evaluate('abc =~ "b"'), '0'); // anchored at the start
  assert.is(evaluate('abc =~ "[a-z]*"'), '3');
});

test('user patterns run on the linear-time engine: (a+)+$ on a long run of a\'s answers at once', () => {
  assert.is(USER_REGEXP_FLAGS, 'l', 'this Node still offers V8\'s linear engine (else =~ would be refused, not exponential)');
  assert.ok(userRegExp('(a+)+$').flags.includes('l'));
  // About 2^60 backtracking steps for the ordinary engine.
  assert.is(evaluate(`${'a'.repeat(60)}b =~ "(a+)+$"`), '0');
  assert.is(evaluate(`${'a'.repeat(60)} =~ "(a+)+$"`), 'a'.repeat(60));
  // What the linear engine cannot run is no match rather than a backtracking run.
  assert.is(evaluate('aa =~ "(a)\\\\1"'), '0');
});

test.run();
