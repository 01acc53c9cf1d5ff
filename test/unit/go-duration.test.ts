import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatGoDuration, parseGoDuration } from '../../server/util/go-duration.js';

// Expected values are Go 1.22's time.ParseDuration / Duration.String.
const test = suite('go duration');

test('parses Go duration strings', () => {
  const ok: [string, bigint][] = [
    ['0', 0n],
    ['0s', 0n],
    ['8h', 8n * 3600n * 1_000_000_000n],
    ['10m', 600n * 1_000_000_000n],
    ['1h30m', 5400n * 1_000_000_000n],
    ['1.5h', 5400n * 1_000_000_000n],
    ['-1.5s', -1_500_000_000n],
    ['+2m', 120n * 1_000_000_000n],
    ['.5s', 500_000_000n],
    ['1.s', 1_000_000_000n],
    ['300ms', 300_000_000n],
    ['2us', 2000n],
    ['2µs', 2000n],
    ['2μs', 2000n],
    ['7ns', 7n],
    ['9223372036854775807ns', 9223372036854775807n],
  ];
  for (const [s, ns] of ok) assert.equal(parseGoDuration(s), { ns }, s);
});

test('refuses what Go refuses, with Go\'s texts', () => {
  const bad: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['x', 'time: invalid duration "x"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1x', 'time: unknown unit "x" in duration "1x"'],
    ['1hh', 'time: unknown unit "hh" in duration "1hh"'],
    ['.s', 'time: invalid duration ".s"'],
    ['-', 'time: invalid duration "-"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
    ['1h 2m', 'time: unknown unit "h " in duration "1h 2m"'],
  ];
  for (const [s, error] of bad) assert.equal(parseGoDuration(s), { error }, s);
});

test('formats as Duration.String', () => {
  const cases: [bigint, string][] = [
    [0n, '0s'],
    [8n * 3600n * 1_000_000_000n, '8h0m0s'],
    [600n * 1_000_000_000n, '10m0s'],
    [90n * 1_000_000_000n, '1m30s'],
    [1_500_000_000n, '1.5s'],
    [2_000_000n, '2ms'],
    [1_500n, '1.5µs'],
    [7n, '7ns'],
    [-5400n * 1_000_000_000n, '-1h30m0s'],
    [3_723_000_000_001n, '1h2m3.000000001s'],
  ];
  for (const [ns, s] of cases) assert.is(formatGoDuration(ns), s, s);
});

test.run();
