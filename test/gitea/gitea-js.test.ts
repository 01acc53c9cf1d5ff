import { giteaApi } from 'gitea-js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { gitDirOf, useGitea } from '../_helpers/gitea.js';
import { b64, lsTree, revParse } from './_contents.js';

const test = suite('gitea-js');
const ctx = useGitea(test);

/** The real client, as an integrator would set it up: a base URL with a trailing slash (so it sends //api/v1/...). */
const client = () => giteaApi(`${ctx.g.url}/`, { token: ctx.g.admin.token });
const text = (s: string) => Buffer.from(s, 'base64').toString();

/** What gitea-js throws for a non-2xx answer: the Response itself, with the parsed body in `.error`. */
async function rejection(p: Promise<unknown>): Promise<Response & { error: unknown }> {
  try {
    await p;
  } catch (err) {
    // A fetch Response (not `instanceof` the global: @hono/node-server installs its own Response class).
    assert.is(Object.prototype.toString.call(err), '[object Response]', String(err));
    return err as Response & { error: unknown };
  }
  throw new Error('expected the call to throw');
}

let dir = '';

test.before(async () => {
  const repo = await ctx.g.repo('js');
  dir = gitDirOf(ctx.g, repo.id);
});

test('repoGet, repoCreateFile, repoGetContents, repoGetContentsList over //api/v1', async () => {
  const api = client();
  const repo = await api.repos.repoGet('root', 'js');
  assert.is(repo.status, 200);
  assert.is(repo.data.full_name, 'root/js');
  assert.is(repo.data.default_branch, 'main');

  const created = await api.repos.repoCreateFile('root', 'js', 'docs/hello.md', { content: b64('# Hello\n'), message: 'Add the hello page' });
  assert.is(created.status, 201);
  assert.is(created.data.content?.path, 'docs/hello.md');
  assert.is(created.data.content?.type, 'file');
  assert.is(text(created.data.content!.content!), '# Hello\n');
  assert.is(created.data.commit?.sha, revParse(dir, 'main'));
  assert.is(created.data.commit?.message, 'Add the hello page\n');
  assert.equal(created.data.verification, { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' });

  const got = await api.repos.repoGetContents('root', 'js', 'docs/hello.md', { ref: 'main' });
  assert.is(got.status, 200);
  const file = got.data as { sha: string; content: string; encoding: string; last_commit_sha: string; download_url: string };
  assert.is(file.sha, lsTree(dir, 'main', 'docs/hello.md')!.sha);
  assert.is(file.encoding, 'base64');
  assert.is(text(file.content), '# Hello\n');
  assert.is(file.last_commit_sha, created.data.commit?.sha);
  assert.is(file.download_url, `${ctx.g.url}/root/js/raw/branch/main/docs/hello.md`);

  // A directory through repoGetContents is a list (gitea-js types it as one object; the wire has an array).
  const docs = await api.repos.repoGetContents('root', 'js', 'docs');
  assert.ok(Array.isArray(docs.data));
  assert.equal((docs.data as unknown as { name: string }[]).map((e) => e.name), ['hello.md']);

  const root = await api.repos.repoGetContentsList('root', 'js', { ref: 'main' });
  assert.is(root.status, 200);
  assert.equal(root.data.map((e) => [e.name, e.type]), [['README.md', 'file'], ['docs', 'dir']]);
  assert.ok(root.data.every((e) => e.content === null && e.encoding === null));
});

test('repoUpdateFile, repoChangeFiles and repoDeleteFile', async () => {
  const api = client();
  const sha = lsTree(dir, 'main', 'docs/hello.md')!.sha;
  const updated = await api.repos.repoUpdateFile('root', 'js', 'docs/hello.md', { content: b64('# Hello again\n'), sha, author: { name: 'Ann', email: 'ann@example.com' } });
  assert.is(updated.status, 200);
  assert.is(updated.data.commit?.author?.name, 'Ann');
  assert.is(updated.data.commit?.committer?.email, 'ann@example.com');
  assert.is(updated.data.commit?.message, 'Update docs/hello.md\n');
  assert.is(text(updated.data.content!.content!), '# Hello again\n');

  const changed = await api.repos.repoChangeFiles('root', 'js', {
    branch: 'main',
    new_branch: 'js-branch',
    files: [
      { operation: 'create', path: 'a.txt', content: b64('a\n') },
      { operation: 'update', path: 'docs/hello.md', content: b64('# Third\n'), sha: updated.data.content!.sha! },
      { operation: 'delete', path: 'README.md', sha: lsTree(dir, 'main', 'README.md')!.sha },
    ],
  });
  assert.is(changed.status, 201);
  assert.equal(changed.data.files?.map((f) => f?.path ?? null), ['a.txt', 'docs/hello.md', null]);
  assert.is(changed.data.commit?.message, 'Add a.txt\nUpdate docs/hello.md\nDelete README.md\n');
  assert.is(changed.data.files?.[0]?.url, `${ctx.g.url}/api/v1/repos/root/js/contents/a.txt?ref=js-branch`);
  assert.is(revParse(dir, 'js-branch'), changed.data.commit?.sha);
  assert.ok(lsTree(dir, 'main', 'README.md'), 'main is untouched');

  const deleted = await api.repos.repoDeleteFile('root', 'js', 'a.txt', { sha: lsTree(dir, 'js-branch', 'a.txt')!.sha, branch: 'js-branch', message: 'Remove a' });
  assert.is(deleted.status, 200);
  assert.is(deleted.data.content, null);
  assert.is(deleted.data.commit?.message, 'Remove a\n');
  assert.is(lsTree(dir, 'js-branch', 'a.txt'), undefined);
});

test('errors: gitea-js throws the Response with .error = {message, url}', async () => {
  const api = client();
  const missing = await rejection(api.repos.repoGetContents('root', 'js', 'nope.txt'));
  assert.is(missing.status, 404);
  assert.equal(missing.error, apiError(ctx.g, 'object does not exist [id: , rel_path: nope.txt]'));

  const exists = await rejection(api.repos.repoCreateFile('root', 'js', 'docs/hello.md', { content: b64('x') }));
  assert.is(exists.status, 422);
  assert.equal(exists.error, apiError(ctx.g, 'repository file already exists [path: docs/hello.md]'));

  const mismatch = await rejection(api.repos.repoUpdateFile('root', 'js', 'docs/hello.md', { content: b64('x'), sha: '0'.repeat(40) }));
  assert.is(mismatch.status, 422);
  assert.equal(mismatch.error, apiError(ctx.g, `sha does not match [given: ${'0'.repeat(40)}, expected: ${lsTree(dir, 'main', 'docs/hello.md')!.sha}]`));

  const noRepo = await rejection(api.repos.repoGet('root', 'no-such-repo'));
  assert.is(noRepo.status, 404);
  assert.equal(noRepo.error, apiError(ctx.g, 'not found'));

  const anonymous = giteaApi(`${ctx.g.url}/`);
  const unauth = await rejection(anonymous.repos.repoCreateFile('root', 'js', 'x.txt', { content: b64('x') }));
  assert.is(unauth.status, 401);
  assert.equal(unauth.error, apiError(ctx.g, 'token is required'));
  const wrong = await rejection(giteaApi(`${ctx.g.url}/`, { token: 'f'.repeat(40) }).repos.repoGet('root', 'js'));
  assert.is(wrong.status, 401);
  assert.equal(wrong.error, apiError(ctx.g, 'invalid username, password or token'));
});

test('repoGetRawFile, repoGetEditorConfig and repoGetArchive', async () => {
  const api = client();
  await ctx.g.commit('root', 'js', { '.editorconfig': 'root = true\n\n[*.md]\nindent_style = space\nindent_size = 2\n' });
  {
    const raw = await api.repos.repoGetRawFile('root', 'js', 'docs/hello.md', { ref: 'main' }, { format: 'text' });
    assert.is(raw.status, 200);
    assert.is(raw.data as unknown as string, '# Hello again\n');
    assert.is(raw.headers.get('x-gitea-object-type'), 'file');
    const gone = await rejection(api.repos.repoGetRawFile('root', 'js', 'nope.md', {}, { format: 'text' }));
    assert.is(gone.status, 404);
  }
  {
    const ec = await api.repos.repoGetEditorConfig('root', 'js', 'hello.md', { ref: 'main' });
    assert.is(ec.status, 200);
    assert.equal(ec.data as unknown, { indent_style: 'space', indent_size: '2' });
  }
  {
    const zip = await api.repos.repoGetArchive('root', 'js', 'main.zip', { format: 'arrayBuffer' });
    assert.is(zip.status, 200);
    const bytes = Buffer.from(zip.data as unknown as ArrayBuffer);
    assert.equal([...bytes.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04], 'a zip file');
    assert.match(zip.headers.get('content-disposition') ?? '', /^attachment; filename="?js-main\.zip"?$/);
  }
});

test('accounts, repositories, collaborators and protections through gitea-js', async () => {
  const api = client();
  const user = await api.admin.adminCreateUser({ username: 'jsuser', email: 'jsuser@example.com', password: 'jsuser-password-1', must_change_password: false });
  assert.is(user.status, 201);
  assert.is(user.data.login, 'jsuser');
  // Tokens are made with Basic auth (as Gitea requires); creating a repository needs write:user and write:repository.
  const basic = giteaApi(`${ctx.g.url}/`, { customFetch: (url: Parameters<typeof fetch>[0], init?: RequestInit) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Basic ${Buffer.from('jsuser:jsuser-password-1').toString('base64')}` } }) });
  const tok = await basic.users.userCreateToken('jsuser', { name: 'js', scopes: ['write:repository', 'write:user'] });
  assert.is(tok.status, 201);
  assert.match(tok.data.sha1 ?? '', /^[0-9a-f]{40}$/);
  const asUser = giteaApi(`${ctx.g.url}/`, { token: tok.data.sha1 });

  const repo = await asUser.user.createCurrentUserRepo({ name: 'jsrepo', auto_init: true, private: true, default_branch: 'trunk' });
  assert.is(repo.status, 201);
  assert.equal([repo.data.full_name, repo.data.private, repo.data.default_branch, repo.data.empty], ['jsuser/jsrepo', true, 'trunk', false]);
  assert.equal((await asUser.repos.repoListBranches('jsuser', 'jsrepo')).data.map((b) => b.name), ['trunk']);

  // The admin can see it; a collaborator with read access can read but not write.
  const reader = await ctx.g.user('jsreader');
  assert.is((await asUser.repos.repoAddCollaborator('jsuser', 'jsrepo', 'jsreader', { permission: 'read' })).status, 204);
  const perm = await asUser.repos.repoGetRepoPermissions('jsuser', 'jsrepo', 'jsreader');
  assert.is(perm.data.permission, 'read');
  const asReader = giteaApi(`${ctx.g.url}/`, { token: reader.token });
  assert.is((await asReader.repos.repoGetContents('jsuser', 'jsrepo', 'README.md')).status, 200);
  const denied = await rejection(asReader.repos.repoCreateFile('jsuser', 'jsrepo', 'x.txt', { content: b64('x') }));
  assert.is(denied.status, 403);

  // A protected file stops even the owner's API write.
  const rule = await asUser.repos.repoCreateBranchProtection('jsuser', 'jsrepo', { rule_name: 'trunk', protected_file_patterns: 'README.md' });
  assert.is(rule.status, 201);
  assert.is(rule.data.rule_name, 'trunk');
  const readme = (await asUser.repos.repoGetContents('jsuser', 'jsrepo', 'README.md')).data as { sha: string };
  const blocked = await rejection(asUser.repos.repoUpdateFile('jsuser', 'jsrepo', 'README.md', { content: b64('new\n'), sha: readme.sha }));
  assert.is(blocked.status, 403);

  const archived = await asUser.repos.repoEdit('jsuser', 'jsrepo', { archived: true });
  assert.is(archived.data.archived, true);
  const refused = await rejection(asUser.repos.repoCreateFile('jsuser', 'jsrepo', 'y.txt', { content: b64('y') }));
  assert.is(refused.status, 403);
  assert.equal(refused.error, apiError(ctx.g, 'repo is not allowed to edit'));
});

test.run();
