import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnswerMemo, Offer } from '../../server/http/answer-memo.js';
import { createReplay } from '../../server/gitea/http/replay.js';
import type { Authenticated } from '../../server/gitea/services/accounts.js';

// When a repository read may be kept to be sent again: never when what it was built from
// changed while it was built (provoked here between `begin` and `offer`, where the handler
// awaits git), never for a password session, and only while nothing it depends on moves.
const test = suite('replay offers');

function world() {
  const state = { generation: 1, epoch: 7, current: true };
  const offered: Offer[] = [];
  const memo = { offer: (res: Response, o: Offer) => (offered.push(o), res) } as unknown as AnswerMemo;
  const replay = createReplay({
    memo,
    accounts: { stillCurrent: () => state.current },
    accountsGeneration: () => state.generation,
    refsEpoch: () => state.epoch,
  });
  return { state, offered, replay };
}
const tokenCaller = { user: { id: 2, name: 'owen' }, token: { id: 5 }, scopes: null } as unknown as Authenticated;
const passwordCaller = { user: { id: 2, name: 'owen' }, token: null, scopes: null } as unknown as Authenticated;
const body = new Uint8Array([123, 125]);

test('an answer built while nothing moved is offered, and holds until something does', () => {
  for (const move of ['generation', 'epoch', 'current'] as const) {
    const { state, offered, replay } = world();
    const stamp = replay.begin();
    replay.repository(stamp, '/repos/owen/site.git');
    replay.offer(new Response(body), body, tokenCaller, stamp);
    assert.is(offered.length, 1);
    assert.is(offered[0]!.user, 'owen');
    assert.ok(offered[0]!.holds());
    if (move === 'current') state.current = false;
    else state[move]++;
    assert.not.ok(offered[0]!.holds(), `after ${move} moved`);
  }
});

test('an answer built across a change is not offered', () => {
  for (const move of ['generation', 'epoch'] as const) {
    const { state, offered, replay } = world();
    const stamp = replay.begin();
    replay.repository(stamp, '/repos/owen/site.git');
    state[move]++; // as a commit landing while the handler awaited git
    replay.offer(new Response(body), body, tokenCaller, stamp);
    assert.is(offered.length, 0, move);
  }
});

test('anonymous answers are offered; password sessions are not', () => {
  const { offered, replay } = world();
  replay.offer(new Response(body), body, null, replay.begin());
  assert.is(offered.length, 1);
  assert.is(offered[0]!.user, undefined);
  replay.offer(new Response(body), body, passwordCaller, replay.begin());
  assert.is(offered.length, 1);
});

test.run();
