import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cloneUrl, commitFiles, gitAsync, useGitea, type Account } from '../_helpers/gitea.js';
import { tempDirs } from '../_helpers/temp-dir.js';
import { WAIT_MS } from '../_helpers/wait.js';
import { SCREENSHOTS, signIn, updateScreenshots, useBrowser } from './_console.js';

// Repositories in the console: branches, recent commits linking to their pages, push and pull
// mirrors with their recorded last sync, and a live status from /api/v1/events that changes when
// a commit made through the API is mirrored (sync_on_commit), or when "Sync now" is pressed.
const test = suite('browser: console repositories');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });
const b = useBrowser(test);
const workDir = tempDirs(test, 'console-repos');
let alice: Account;
let remoteName = '';

test.before(async () => {
  const g = ctx.g;
  alice = await g.user('alice');
  await g.repo('pub', { owner: alice });
  await g.repo('target', { owner: alice, autoInit: false });
  const made = await g.api('POST', '/api/v1/repos/alice/pub/push_mirrors', {
    json: { remote_address: `${g.url}/alice/target.git`, remote_username: 'alice', remote_password: alice.token, interval: '0', sync_on_commit: true },
    auth: alice.auth,
  });
  assert.is(made.status, 200, made.text);
  remoteName = made.body.remote_name;
});

test("a push mirror's status changes live after a commit made through the API; Sync now syncs again", async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.g.url, [], { token: alice.token });
    await w.page.locator('#tab-repos').click();
    await w.page.locator('#repo-events-state[data-state="open"]').waitFor({ timeout: WAIT_MS });
    await w.page.locator('[data-repo="alice/pub"] > button.link').click();
    const mirror = w.page.locator(`[data-repo="alice/pub"] [data-push-mirror="${remoteName}"]`);
    await mirror.locator('[data-mirror-state="recorded"]').waitFor({ timeout: WAIT_MS });
    assert.is(await mirror.locator('.mirror-state').textContent(), 'last sync never');

    const made = await ctx.g.commit('alice', 'pub', { 'news.txt': 'from the API\n' }, { auth: alice.auth, message: 'news from the API' });
    await mirror.locator('[data-mirror-state="synced"]').waitFor({ timeout: WAIT_MS });
    assert.match((await mirror.locator('.mirror-state').textContent()) ?? '', /^synced at \d{4}-\d\d-\d\dT/);
    // The mirror really has the commit, and the page lists it, linking to its web page.
    const target = await ctx.g.api('GET', '/api/v1/repos/alice/target/branches/main', { auth: alice.auth });
    assert.is(target.body.commit.id, made.commit.sha);
    const link = w.page.locator(`[data-repo="alice/pub"] .commits a[href="${made.commit.html_url}"]`);
    await link.waitFor({ timeout: WAIT_MS });
    assert.is(await link.textContent(), made.commit.sha.slice(0, 10));

    await w.page.locator('#sync-push-pub').click();
    await w.page.locator('[data-repo="alice/pub"] .repo-detail p', { hasText: 'push mirrors synced' }).waitFor({ timeout: WAIT_MS });
    await mirror.locator('[data-mirror-state="synced"]').waitFor({ timeout: WAIT_MS });
    if (updateScreenshots()) await w.screenshot(join(SCREENSHOTS, 'console-repositories.png'));
  });
});

test('a failing push mirror shows the failure live, with the reason', async ({ __test__ }) => {
  const bad = await ctx.g.api('POST', '/api/v1/repos/alice/pub/push_mirrors', {
    json: { remote_address: `${ctx.g.url}/alice/missing.git`, remote_username: 'alice', remote_password: alice.token, interval: '0', sync_on_commit: false },
    auth: alice.auth,
  });
  assert.is(bad.status, 200, bad.text);
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.g.url, [], { token: alice.token });
    await w.page.locator('#tab-repos').click();
    await w.page.locator('#repo-events-state[data-state="open"]').waitFor({ timeout: WAIT_MS });
    await w.page.locator('[data-repo="alice/pub"] > button.link').click();
    await w.page.locator('#sync-push-pub').click();
    const failed = w.page.locator(`[data-push-mirror="${bad.body.remote_name}"] [data-mirror-state="failed"]`);
    await failed.waitFor({ timeout: WAIT_MS });
    assert.match((await failed.textContent()) ?? '', /^failed at .+: .+/);
    // The sync request itself answered 500 naming the remote (Gitea's rule): the page says so.
    await w.page.locator('[data-repo="alice/pub"] .repo-detail p', { hasText: /^500: / }).waitFor({ timeout: WAIT_MS });
    assert.equal(w.errors, [`console: Failed to load resource: the server responded with a status of 500 (Internal Server Error) (${ctx.g.url}/api/v1/repos/alice/pub/push_mirrors-sync)`]);
    w.errors.length = 0;
  });
});

test('signed in with a user and password: the repositories and their mirrors, and a note that live status needs a token', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.g.url, [], { user: 'alice', password: alice.password });
    await w.page.locator('#tab-repos').click();
    const state = w.page.locator('#repo-events-state[data-state="off"]');
    await state.waitFor({ timeout: WAIT_MS });
    assert.is(await state.textContent(), 'sign in with a token for live mirror status');
    await w.page.locator('[data-repo="alice/pub"] > button.link').click();
    await w.page.locator(`[data-repo="alice/pub"] [data-push-mirror="${remoteName}"] .mirror-state`).waitFor({ timeout: WAIT_MS });
    const names = await w.page.locator('.repos > li > button.link').allTextContents();
    assert.equal(names, ['alice/pub', 'alice/target']);
  });
});

test('without repository credentials the public repositories are listed', async ({ __test__ }) => {
  await ctx.g.repo('hidden', { owner: alice, private: true });
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.g.url, []);
    await w.page.locator('#tab-repos').click();
    await w.page.locator('.repos > li').first().waitFor({ timeout: WAIT_MS });
    const names = await w.page.locator('.repos > li > button.link').allTextContents();
    assert.not.ok(names.includes('alice/hidden'), 'a private repository is not listed');
    assert.ok(names.includes('alice/pub'));
  });
});

// Last in the file: it adds repositories to alice's list, which a test above lists exactly.
test('a pull mirror: Sync now after a push to its source shows the sync live and the new commit', async ({ __test__ }) => {
  const g = ctx.g;
  await g.repo('source', { owner: alice, private: true });
  await g.commit('alice', 'source', { 'a.txt': 'first\n' }, { auth: alice.auth, message: 'first' });
  // A mirror of another repository on this server (local addresses allowed, as in pull-mirrors.test.ts).
  const migrated = await g.api('POST', '/api/v1/repos/migrate', {
    json: { clone_addr: `${g.url}/alice/source.git`, auth_username: 'alice', auth_password: alice.token, repo_name: 'copy', mirror: true },
    auth: alice.auth,
  });
  assert.is(migrated.status, 201, migrated.text);
  assert.is(migrated.body.mirror, true);

  await b.onPage(__test__, async (w) => {
    await signIn(w, g.url, [], { token: alice.token });
    await w.page.locator('#tab-repos').click();
    await w.page.locator('#repo-events-state[data-state="open"]').waitFor({ timeout: WAIT_MS });
    await w.page.locator('[data-repo="alice/copy"] > button.link').click();
    const pull = w.page.locator('[data-repo="alice/copy"] [data-pull-mirror="alice/copy"]');
    await pull.locator('[data-mirror-state="recorded"]').waitFor({ timeout: WAIT_MS });
    assert.match((await pull.textContent()) ?? '', /^Pull mirrorevery 8h0m0s · last sync /);
    // The mirror's history as migrated (the source's initial commit and "first"), newest first.
    const commits = w.page.locator('[data-repo="alice/copy"] .commits li');
    await commits.nth(1).waitFor({ timeout: WAIT_MS });
    const before = (await g.api('GET', '/api/v1/repos/alice/copy/commits?limit=5', { auth: alice.auth })).body as { sha: string }[];
    assert.is(before.length, 2);
    assert.equal(await commits.locator('a').allTextContents(), before.map((c) => c.sha.slice(0, 10)));

    // A push to the source, with git: the mirror does not have it until it syncs.
    const dir = `${workDir()}/source`;
    await gitAsync(['clone', '-q', cloneUrl(g, 'alice', 'source', { name: 'alice', token: alice.token }), dir]);
    const pushed = commitFiles(dir, { 'b.txt': 'second\n' }, 'pushed to the source');
    await gitAsync(['push', '-q', 'origin', 'main'], { cwd: dir });
    assert.is.not((await g.api('GET', '/api/v1/repos/alice/copy/branches/main', { auth: alice.auth })).body.commit.id, pushed, 'not mirrored yet');

    await pull.locator('button', { hasText: 'Sync now' }).click();
    await w.page.locator('[data-repo="alice/copy"] .repo-detail p', { hasText: 'pull mirror sync queued' }).waitFor({ timeout: WAIT_MS });
    // The live status comes from mirror_sync_finished; the new commit is listed, linking to the mirror's page of it.
    const synced = pull.locator('[data-mirror-state="synced"]');
    await synced.waitFor({ timeout: WAIT_MS });
    assert.match((await synced.textContent()) ?? '', /^synced at \d{4}-\d\d-\d\dT/);
    const link = w.page.locator(`[data-repo="alice/copy"] .commits a[href="${g.url}/alice/copy/commit/${pushed}"]`);
    await link.waitFor({ timeout: WAIT_MS });
    assert.is(await link.textContent(), pushed.slice(0, 10));
    assert.match((await link.locator('xpath=..').textContent()) ?? '', /pushed to the source/);
    assert.is((await g.api('GET', '/api/v1/repos/alice/copy/branches/main', { auth: alice.auth })).body.commit.id, pushed);
  });
});

test.run();
