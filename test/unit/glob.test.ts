import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_MATCH_STEPS, GLOB_LIMITS, GlobBudgetError, GlobSyntaxError, compileGlob, globCounters, type GlobDialect } from '../../server/util/glob/glob.js';

// The non-backtracking glob matcher behind branch rules, protected file patterns, .editorconfig
// sections and .gitattributes: what each dialect means (tables from the EditorConfig spec and its
// core tests, gobwas/glob as Gitea uses it, git's wildmatch), and that the work of a match is
// bounded by the program's size times the text's length, counted in steps.
const test = suite('glob matcher');

/** Steps one match took (the counter is global; the suite runs alone in its process). */
function stepsOf(run: () => unknown): number {
  const before = globCounters.steps;
  try {
    run();
  } catch (e) {
    if (!(e instanceof GlobBudgetError)) throw e;
  }
  return globCounters.steps - before;
}

const ec = (section: string, file: string) => compileGlob(section, 'editorconfig').test(`/${file}`);

test('editorconfig: the spec and its core tests', () => {
  const table: [string, string, boolean][] = [
    ['*', 'README', true],
    ['*', 'deep/down/notes.txt', true], // no `/`: the name at any depth
    ['*', '.hidden', true],
    ['*.{js,ts}', 'app.js', true],
    ['*.{js,ts}', 'src/app.ts', true],
    ['*.{js,ts}', 'app.tsx', false],
    ['*.js', 'a.js/b.txt', false],
    ['a*z.c', 'a/z.c', false], // * stops at /
    ['a**z.c', 'a/b/z.c', true], // ** does not
    ['a**z.c', 'amnz.c', true],
    ['a/**/z.c', 'a/z.c', true], // /**/ may be no level at all
    ['a/**/z.c', 'a/b/c/z.c', true],
    ['a/**/z.c', 'az.c', false],
    ['lib/**.js', 'lib/a.js', true],
    ['lib/**.js', 'lib/x/y/z.js', true],
    ['lib/**.js', 'src/lib/a.js', false], // a section with / is anchored at the root
    ['**/vendor/*.c', 'vendor/x.c', true],
    ['**/vendor/*.c', 'a/b/vendor/x.c', true],
    ['**/vendor/*.c', 'vendor/sub/x.c', false],
    ['/root-only.md', 'root-only.md', true],
    ['/root-only.md', 'x/root-only.md', false],
    ['docs/*.md', 'docs/guide.md', true],
    ['docs/*.md', 'docs/sub/guide.md', false],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['a?c', 'ac', false],
    ['file[0-9].txt', 'file1.txt', true],
    ['file[0-9].txt', 'filex.txt', false],
    ['file[!0-9].txt', 'filex.txt', true],
    ['file[!0-9].txt', 'file1.txt', false],
    ['[abc].d', 'b.d', true],
    ['a[!x]b', 'a/b', false], // a class never matches /
    ['ab[e/]cd.i', 'ab[e/]cd.i', true], // a class holding / is literal
    ['ab[e/]cd.i', 'abecd.i', false],
    ['[unclosed.j', '[unclosed.j', true],
    ['{a,b}.cfg', 'a.cfg', true],
    ['{a,b}.cfg', 'c.cfg', false],
    ['{single}.b', '{single}.b', true], // no comma: literal
    ['{single}.b', 'single.b', false],
    ['{}.c', '{}.c', true],
    ['{.h', '{.h', true],
    ['{word,{also},this}.g', 'word.g', true],
    ['{word,{also},this}.g', '{also}.g', true],
    ['{word,{also},this}.g', 'also.g', false],
    ['{a,{b,c}d}.e', 'cd.e', true],
    ['{\\},b}.h', '}.h', true],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['{1..3}.num', '2.num', true],
    ['{1..3}.num', '4.num', false],
    ['{3..120}', '60', true],
    ['{3..120}', '120', true],
    ['{3..120}', '121', false],
    ['{3..120}', '060', false],
    ['{-5..5}.n', '-3.n', true],
    ['{-5..5}.n', '-6.n', false],
    ['{01..10}', '05', true], // padded as brace expansion pads
    ['{01..10}', '5', false],
    ['Makefile', 'sub/dir/Makefile', true],
    ['Makefile', 'sub/dir/Makefile.am', false],
  ];
  for (const [section, file, want] of table) assert.is(ec(section, file), want, `[${section}] ${file}`);
});

const gw = (pattern: string, text: string, seps = '/') => compileGlob(pattern, 'gobwas', seps).test(text);

test('gobwas (Gitea): branch rule names with / and file patterns with . and /', () => {
  const branches: [string, string, boolean][] = [
    ['release', 'release', true],
    ['feature/*', 'feature/a', true],
    ['feature/*', 'feature/b/c', false],
    ['hot/**', 'hot/a/b', true],
    ['hot/**', 'hotter', false],
    ['v?', 'v1', true],
    ['v?', 'v10', false],
    ['v?', 'v/', false],
    ['x-[ab]', 'x-a', true],
    ['x-[ab]', 'x-c', false],
    ['x-[!ab]', 'x-c', true],
    ['x-[a-c]', 'x-b', true],
    ['x-[!a-c]', 'x-b', false],
    ['[/]', '/', true], // classes ignore separators
    ['{a,b}', 'b', true],
    ['{a,{b,c}d}', 'cd', true],
    ['{main,release/*}', 'release/1', true],
    ['{}x', 'x', true],
    ['esc\\*', 'esc*', true],
    ['esc\\*', 'escx', false],
    ['a,b}', 'a,b}', true], // , and } are plain outside braces
    ['a]', 'a]', true],
    ['***', 'a/b', true],
  ];
  for (const [p, t, want] of branches) assert.is(gw(p, t), want, `${p} ~ ${t}`);
  const files: [string, string, boolean][] = [
    ['*.lock', 'yarn.lock', true],
    ['*.lock', 'sub/yarn.lock', false],
    ['*.lock', 'a.yarn.lock', false], // `.` separates too
    ['**.lock', 'a/b.yarn.lock', true],
    ['secrets/**', 'secrets/a/b.txt', true],
    ['docs/*', 'docs/a.md', false],
    ['docs/*.md', 'docs/a.md', true],
  ];
  for (const [p, t, want] of files) assert.is(gw(p, t, './'), want, `${p} ~ ${t} (file)`);
  for (const bad of ['{a,b', '[ab', '[]', 'a\\', '[a-', '[a-bc]']) assert.throws(() => compileGlob(bad, 'gobwas'), (e: unknown) => e instanceof GlobSyntaxError, bad);
});

const wm = (pattern: string, text: string) => compileGlob(pattern, 'wildmatch').test(text);

test('wildmatch (.gitattributes): ** only as a whole component, classes, escapes', () => {
  const table: [string, string, boolean][] = [
    ['*.bin', 'a.bin', true],
    ['*.bin', 'd/a.bin', false],
    ['assets/**', 'assets/a/b', true],
    ['**/x', 'x', true],
    ['**/x', 'a/b/x', true],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['a**b', 'a/b', false], // elsewhere ** is a plain *
    ['a**b', 'axxb', true],
    ['My[[:space:]]File.psd', 'My File.psd', true], // what `git lfs track` writes for spaces
    ['[[:digit:]]x', '7x', true],
    ['[]a]', ']', true],
    ['[!a]', 'b', true],
    ['[^a]', 'a', false],
    ['[!a]', '/', false],
    ['a[', 'a[', true],
    ['\\*', '*', true],
  ];
  for (const [p, t, want] of table) assert.is(wm(p, t), want, `${p} ~ ${t}`);
});

/** gobwas semantics written as a regular expression: a reference for small, random cases only. */
function reference(pattern: string, seps: string): RegExp {
  const not = `[^${seps.replace(/[\\\]^-]/g, '\\$&')}]`;
  let re = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += pattern[i + 1] === '*' ? (i++, '.*') : `${not}*`;
    else if (c === '?') re += not;
    else if (c === '{') (re += '(?:'), depth++;
    else if (c === '}' && depth) (re += ')'), depth--;
    else if (c === ',' && depth) re += '|';
    else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

test('gobwas agrees with a regular-expression reference on random small cases', () => {
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const atoms = ['a', 'b', '/', '.', '*', '**', '?', '{a,b/}', '{,.}'];
  for (let k = 0; k < 3000; k++) {
    const pattern = Array.from({ length: 1 + rnd(5) }, () => atoms[rnd(atoms.length)]).join('');
    const text = Array.from({ length: rnd(7) }, () => 'ab/.'[rnd(4)]).join('');
    for (const seps of ['/', './']) assert.is(gw(pattern, text, seps), reference(pattern, seps).test(text), `${pattern} ~ ${text} (${seps})`);
  }
});

test('pathological patterns: the steps stay within 2 × program size × (text length + 1)', () => {
  const cases: [GlobDialect, string, string][] = [
    ['editorconfig', '**a**a**a**a**a**a**a**a**a**a**b', `/${'a'.repeat(40)}`], // the reported attack: 74 s before
    ['editorconfig', '**a**a**a**a**a**a**a**a**a**a**b', `/${'a'.repeat(4000)}`],
    ['editorconfig', '{a,aa,aaa,aaaa}{a,aa,aaa,aaaa}{a,aa,aaa,aaaa}{a,aa,aaa,aaaa}b', `/${'a'.repeat(200)}`],
    ['editorconfig', '{0..99999}{0..99999}{0..99999}x', `/${'1'.repeat(300)}`],
    ['gobwas', '**a**a**a**a**a**a**a**a**a**a**b', 'a'.repeat(2000)],
    ['gobwas', '*a*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(2000)],
    ['gobwas', `${'?'.repeat(60)}b`, 'a'.repeat(2000)],
    ['wildmatch', '*a*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(2000)],
    ['wildmatch', '**/a/**/a/**/a/**/a/**/b', 'a/'.repeat(1000)],
  ];
  for (const [dialect, pattern, text] of cases) {
    const glob = compileGlob(pattern, dialect);
    let got: boolean | undefined;
    const steps = stepsOf(() => (got = glob.test(text, { steps: Number.MAX_SAFE_INTEGER })));
    const n = [...text].length;
    assert.is(got, false, `${pattern} does not match`);
    assert.ok(steps <= 2 * glob.size * (n + 1) + 20 * n, `${pattern} on ${n} characters: ${steps} steps, program ${glob.size}`);
  }
  // A large class costs its ranges on every character it is tried against: counted too.
  const members = Array.from({ length: 400 }, (_, i) => String.fromCodePoint(0x100 + i)).join('');
  const klass = compileGlob(`*[${members}]*b`, 'gobwas');
  const text = 'a'.repeat(2000);
  const steps = stepsOf(() => klass.test(text, { steps: Number.MAX_SAFE_INTEGER }));
  assert.ok(steps >= 200 * text.length, `the class's comparisons are counted (${steps} steps)`);
  assert.ok(steps <= (2 * klass.size + 400) * (text.length + 1), `${steps} steps`);
  // The attack itself, in absolute terms: a few thousand steps.
  const attack = compileGlob('**a**a**a**a**a**a**a**a**a**a**b', 'editorconfig');
  assert.ok(stepsOf(() => attack.test(`/${'a'.repeat(40)}`)) < 5000);
  assert.is(attack.test(`/${'a'.repeat(40)}b`), true);
});

test('a budget stops a match early: GlobBudgetError, never a long run', () => {
  const glob = compileGlob(`${'**a'.repeat(60)}b`, 'gobwas');
  const text = 'a'.repeat(100_000);
  assert.throws(() => glob.test(text), (e: unknown) => e instanceof GlobBudgetError);
  const spent = stepsOf(() => glob.test(text));
  assert.ok(spent <= DEFAULT_MATCH_STEPS + 2 * glob.size, `${spent} steps`); // overshoot: at most one text position
  const shared = { steps: 1000 };
  assert.throws(() => glob.test('a'.repeat(100), shared), (e: unknown) => e instanceof GlobBudgetError);
  assert.ok(shared.steps < 0);
});

test('limits: length, wildcards, braces, nesting', () => {
  assert.throws(() => compileGlob('a'.repeat(GLOB_LIMITS.length + 1), 'gobwas'), (e: unknown) => e instanceof GlobSyntaxError);
  assert.throws(() => compileGlob('*'.repeat(GLOB_LIMITS.wildcards * 2 + 2), 'gobwas'), (e: unknown) => e instanceof GlobSyntaxError);
  assert.throws(() => compileGlob('{a,b}'.repeat(GLOB_LIMITS.braces + 1), 'editorconfig'), (e: unknown) => e instanceof GlobSyntaxError);
  assert.throws(() => compileGlob(`${'{a,'.repeat(GLOB_LIMITS.depth + 1)}${'}'.repeat(GLOB_LIMITS.depth + 1)}`, 'gobwas'), (e: unknown) => e instanceof GlobSyntaxError);
  assert.ok(compileGlob('*'.repeat(GLOB_LIMITS.wildcards), 'gobwas'));
});

test.run();
