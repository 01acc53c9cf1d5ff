import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useGitea } from '../_helpers/gitea.js';

// GET /repos/{o}/{r}/languages: bytes per language on the default branch, largest first;
// prose, data, documentation, vendored code and dot folders are not counted.
const test = suite('gitea: languages');
const ctx = useGitea(test);

test('counts code by language, largest first, leaving out docs, vendored code, dot folders and data', async () => {
  const g = ctx.g;
  await g.repo('polyglot');
  await g.commit('root', 'polyglot', {
    'main.go': 'package main\n\nfunc main() { }\n',
    'web/app.ts': 'export const a = 1;\n',
    'web/view.tsx': 'export const V = () => null;\n',
    'web/util.js': 'x\n',
    'Makefile': 'all:\n',
    'docs/example.js': 'not counted\n',
    'node_modules/dep/index.js': 'not counted either\n',
    '.github/tool.py': 'print(1)\n',
    'config.json': '{}\n',
    'NOTES.md': '# notes\n',
    'lib/jquery.min.js': 'minified\n',
  });
  const r = await g.api('GET', '/api/v1/repos/root/polyglot/languages');
  assert.is(r.status, 200, r.text);
  // The body is an object whose key order is the order by size.
  assert.is(r.text, JSON.stringify({ Go: 30, TSX: 29, TypeScript: 20, Makefile: 5, JavaScript: 2 }));
  // Another branch does not count; an empty repository answers an empty object.
  await g.commit('root', 'polyglot', { 'more.go': 'package main\n' }, { newBranch: 'topic' });
  assert.is((await g.api('GET', '/api/v1/repos/root/polyglot/languages')).text, r.text);
  await g.repo('empty', { autoInit: false });
  const e = await g.api('GET', '/api/v1/repos/root/empty/languages');
  assert.is(e.status, 200);
  assert.equal(e.body, {});
  assert.is((await g.api('GET', '/api/v1/repos/root/nothing/languages')).status, 404);
});

test.run();
