import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EDITORCONFIG_STEPS } from '../../server/gitea/services/editorconfig.js';
import { useGitea, type Account, type Auth, type GiteaWorld } from '../_helpers/gitea.js';
import { A40, HOSTILE_GLOB, hostileWithPing } from '../_helpers/hostile.js';

// /editorconfig/{filepath} (repoGetEditorConfig): the root .editorconfig's sections matched with EditorConfig globs,
// later sections winning, only Gitea's four properties; 404 when nothing applies.
const test = suite('gitea: editorconfig');
const ctx = useGitea(test);

let g: GiteaWorld;
let alice: Account;

const EDITORCONFIG = `root = true

[*]
indent_style = Space
indent_size = 4
end_of_line = LF
charset = UTF-8
trim_trailing_whitespace = true
insert_final_newline = true
tab_width = 8

[*.{js,ts}]
indent_size = 2

[Makefile]
indent_style = TAB
indent_size = tab

[lib/**.js]
charset = latin1

[**/vendor/*.c]
end_of_line = CRLF

[file[0-9].txt]
indent_size = 3

[file[!0-9].txt]
indent_size = 5

[/root-only.md]
indent_size = 7

[docs/*.md]
indent_size = 6

[{a,b}.cfg]
indent_style = tab

[{1..3}.num]
indent_size = 9

[*.py]
Indent_Size = 11
END_OF_LINE = CRLF

[*.ts]
indent_size = 12
`;

async function def(path: string, opts: { repo?: string; owner?: string; ref?: string; auth?: Auth } = {}) {
  const q = opts.ref ? `?ref=${encodeURIComponent(opts.ref)}` : '';
  return g.api('GET', `/api/v1/repos/${opts.owner ?? 'root'}/${opts.repo ?? 'ec'}/editorconfig/${path}${q}`, opts.auth === undefined ? {} : { auth: opts.auth });
}

async function expectDef(path: string, want: Record<string, string>, opts: Parameters<typeof def>[1] = {}) {
  const r = await def(path, opts);
  assert.is(r.status, 200, `${path}: ${r.text}`);
  assert.equal(r.body, want, path);
  assert.is(r.text, JSON.stringify(want), `${path}: key order`);
}

async function expectError(path: string, status: number, message: string, opts: Parameters<typeof def>[1] = {}) {
  const r = await def(path, opts);
  assert.is(r.status, status, `${path}: ${r.text}`);
  assert.equal(r.body, { message, url: `${g.url}/api/swagger` }, path);
}

test.before(async () => {
  g = ctx.g;
  alice = await g.user('alice');
  await g.repo('ec');
  await g.commit('root', 'ec', { '.editorconfig': EDITORCONFIG, 'sub/.editorconfig': '[*]\nindent_size = 1\n' });
  await g.commit('root', 'ec', { '.editorconfig': '[*.md]\nindent_style = tab\n' }, { newBranch: 'other' });
});

const BASE = { charset: 'utf-8', indent_style: 'space', indent_size: '4', end_of_line: 'lf' };

test('[*] applies everywhere, values lowercased, only charset/indent_style/indent_size/end_of_line', async () => {
  await expectDef('README', BASE);
  await expectDef('deep/down/notes.txt', BASE);
  await expectDef('.hidden', BASE);
});

test('later sections win; a path may have several segments', async () => {
  await expectDef('app.js', { ...BASE, indent_size: '2' });
  await expectDef('src/app.ts', { ...BASE, indent_size: '12' }); // the last matching section wins
  await expectDef('Makefile', { ...BASE, indent_style: 'tab', indent_size: 'tab' });
  await expectDef('sub/dir/Makefile', { ...BASE, indent_style: 'tab', indent_size: 'tab' }); // a section without / matches at any depth
  await expectDef('x.py', { ...BASE, indent_size: '11', end_of_line: 'crlf' }); // property names are case-insensitive
});

test('globs: **, {a,b}, [...], [!...], {n..m}, anchored sections', async () => {
  await expectDef('lib/a.js', { ...BASE, charset: 'latin1', indent_size: '2' });
  await expectDef('lib/x/y/z.js', { ...BASE, charset: 'latin1', indent_size: '2' }); // ** crosses directories
  await expectDef('src/lib/a.js', { ...BASE, indent_size: '2' }); // a section with / is anchored at the root
  await expectDef('vendor/x.c', { ...BASE, end_of_line: 'crlf' });
  await expectDef('a/b/vendor/x.c', { ...BASE, end_of_line: 'crlf' });
  await expectDef('vendor/sub/x.c', BASE); // * does not cross /
  await expectDef('file1.txt', { ...BASE, indent_size: '3' });
  await expectDef('filex.txt', { ...BASE, indent_size: '5' });
  await expectDef('root-only.md', { ...BASE, indent_size: '7' });
  await expectDef('x/root-only.md', BASE);
  await expectDef('docs/guide.md', { ...BASE, indent_size: '6' });
  await expectDef('docs/sub/guide.md', BASE);
  await expectDef('a.cfg', { ...BASE, indent_style: 'tab' });
  await expectDef('b.cfg', { ...BASE, indent_style: 'tab' });
  await expectDef('c.cfg', BASE);
  await expectDef('2.num', { ...BASE, indent_size: '9' });
  await expectDef('4.num', BASE);
});

test('only the root .editorconfig counts; ?ref picks the commit (unknown refs fall back to the default branch)', async () => {
  await expectDef('sub/file.txt', BASE); // sub/.editorconfig is ignored
  await expectDef('notes.md', { indent_style: 'tab' }, { ref: 'other' });
  await expectError('notes.txt', 404, 'not found', { ref: 'other' });
  await expectDef('README', BASE, { ref: 'no-such-branch' });
  await expectError('README', 404, 'unable to find a git ref', { ref: 'f'.repeat(40) });
});

test('404: no matching section, no .editorconfig, empty repository, private repository', async () => {
  await g.repo('plain');
  await g.commit('root', 'plain', { '.editorconfig': 'root = true\n\n[*.md]\nindent_size = 2\n' });
  await expectError('main.go', 404, 'not found', { repo: 'plain' });
  await expectDef('README.md', { indent_size: '2' }, { repo: 'plain' });
  await g.repo('none');
  await expectError('README.md', 404, 'object does not exist [id: , rel_path: .editorconfig]', { repo: 'none' });
  await g.repo('empty', { autoInit: false });
  await expectError('README.md', 404, 'repository is empty', { repo: 'empty' });
  await g.repo('secret', { owner: alice, private: true });
  await g.commit('alice', 'secret', { '.editorconfig': '[*]\nindent_size = 2\n' }, { auth: alice.auth });
  await expectDef('x', { indent_size: '2' }, { owner: 'alice', repo: 'secret', auth: alice.auth });
  await expectError('x', 404, 'not found', { owner: 'alice', repo: 'secret', auth: null });
});

test('a hostile section ([**a**a…b]) answers correctly in bounded work while a ping is served', async () => {
  // Anyone who can commit could freeze the server for everyone: 74 s for this request before.
  await g.repo('hostile');
  await g.commit('root', 'hostile', { '.editorconfig': `[*]\nindent_size = 2\n\n[${HOSTILE_GLOB}]\nindent_style = tab\n` });
  const miss = await hostileWithPing(g, () => def(A40, { repo: 'hostile', auth: null }));
  assert.is(miss.reply.status, 200, miss.reply.text);
  assert.is(miss.reply.text, '{"indent_size":"2"}');
  assert.ok(miss.steps <= EDITORCONFIG_STEPS, `${miss.steps} steps`);
  const hit = await hostileWithPing(g, () => def(`${A40}b`, { repo: 'hostile', auth: null }));
  assert.is(hit.reply.text, '{"indent_style":"tab","indent_size":"2"}');
  assert.ok(hit.steps <= EDITORCONFIG_STEPS, `${hit.steps} steps`);
  // Past the budget (many such sections, a long path) the rest match nothing: still an answer, still bounded.
  const many = Array.from({ length: 400 }, (_, i) => `[${HOSTILE_GLOB}${i}]\nindent_style = tab\n`).join('');
  await g.commit('root', 'hostile', { '.editorconfig': `[*]\nindent_size = 2\n${many}` });
  const long = await hostileWithPing(g, () => def('a'.repeat(2000), { repo: 'hostile', auth: null }));
  assert.is(long.reply.text, '{"indent_size":"2"}');
  assert.ok(long.steps <= EDITORCONFIG_STEPS + 4096, `${long.steps} steps`); // overshoot: one text position
});

test.run();
