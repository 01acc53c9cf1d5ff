import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addressKey, LoginThrottle } from '../../server/gitea/services/login-throttle.js';

// The failed-password throttle on its own, with a clock the test moves.
const test = suite('unit: login throttle');

function throttle(failures = 3, windowMs = 60_000) {
  const t = new LoginThrottle({ failures, windowMs });
  let now = 1_000_000;
  t.clock = () => now;
  return { t, advance: (ms: number) => (now += ms) };
}

test('addresses: IPv4 as is, IPv4-mapped IPv6 as its IPv4, IPv6 by its /64', () => {
  assert.is(addressKey('203.0.113.9'), '203.0.113.9');
  assert.is(addressKey('::ffff:203.0.113.9'), '203.0.113.9');
  assert.is(addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.is(addressKey('2001:db8:1:2::9'), '2001:db8:1:2::/64');
  assert.is(addressKey('2001:0DB8:0001:0002:ffff::1'), '2001:db8:1:2::/64');
  assert.is(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.is(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.is.not(addressKey('2001:db8:1:3::1'), addressKey('2001:db8:1:2::1'));
  assert.is(addressKey(''), '');
});

test('per address: N failures allowed, then refused until the window ends, with the seconds left', () => {
  const { t, advance } = throttle();
  for (let i = 0; i < 3; i++) {
    assert.is(t.check('a', '10.0.0.1'), 0);
    t.failed('a', '10.0.0.1');
  }
  assert.is(t.check('a', '10.0.0.1'), 60);
  assert.is(t.check('b', '10.0.0.1'), 60, 'whatever the account');
  assert.is(t.check('a', '10.0.0.2'), 0, 'another address');
  advance(59_001);
  assert.is(t.check('a', '10.0.0.1'), 1);
  advance(999);
  assert.is(t.check('a', '10.0.0.1'), 0, 'the window is over');
  // A success does not reset the count (an attacker could reset it with an account of their own).
  t.failed('a', '10.0.0.1');
  t.failed('a', '10.0.0.1');
  t.succeeded('mine', '10.0.0.1');
  t.failed('a', '10.0.0.1');
  assert.ok(t.check('a', '10.0.0.1') > 0);
});

test('IPv6 addresses of one /64 share their count', () => {
  const { t } = throttle();
  for (let i = 1; i <= 3; i++) t.failed('a', `2001:db8:1:2::${i}`);
  assert.ok(t.check('a', '2001:db8:1:2::ffff') > 0);
  assert.is(t.check('a', '2001:db8:1:3::1'), 0);
});

test('per account: 5 × N failures close it to unfamiliar addresses only; names are case-insensitive', () => {
  const { t, advance } = throttle();
  t.succeeded('Vera', '10.1.0.1');
  for (let i = 0; i < 15; i++) t.failed('vera', `10.2.0.${i}`);
  assert.is(t.check('vera', '10.3.0.1'), 60);
  assert.is(t.check('VERA', '10.3.0.1'), 60);
  assert.is(t.check('vera', '10.1.0.1'), 0, 'the address she signed in from');
  assert.is(t.check('other', '10.3.0.1'), 0);
  advance(60_000);
  assert.is(t.check('vera', '10.3.0.1'), 0);
});

test('0 failures: no limit at all', () => {
  const { t } = throttle(0);
  for (let i = 0; i < 100; i++) t.failed('a', '10.0.0.1');
  assert.is(t.check('a', '10.0.0.1'), 0);
});

test.run();
