import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { giteaApi } from 'gitea-js';
import { useGitea } from '../_helpers/gitea.js';

// GET /settings/{api,repository,ui,attachment}: what clients read before they page or pick
// features. Anyone may ask (no token, any token scope); the numbers are the limits the server
// really applies, which the last test checks against a list answer.
const test = suite('gitea: instance settings');
const ctx = useGitea(test, { API_MAX_BLOB_SIZE: '4096' });

const API = { max_response_items: 50, default_paging_num: 30, default_git_trees_per_page: 1000, default_max_blob_size: 4096, default_max_response_size: 104857600 };
const REPO = { mirrors_disabled: false, http_git_disabled: false, migrations_disabled: false, stars_disabled: true, time_tracking_disabled: true, lfs_disabled: false };

test('api and repository settings, anonymously and with a token of an unrelated scope', async () => {
  const g = ctx.g;
  const token = await g.token(g.admin, ['read:notification']);
  for (const auth of [null, { token }]) {
    const api = await g.api('GET', '/api/v1/settings/api', { auth });
    assert.is(api.status, 200, api.text);
    assert.equal(api.body, API);
    assert.is(api.headers.get('content-type'), 'application/json;charset=utf-8');
    const repo = await g.api('GET', '/api/v1/settings/repository', { auth });
    assert.is(repo.status, 200, repo.text);
    assert.equal(repo.body, REPO);
  }
});

test('ui and attachment settings', async () => {
  const g = ctx.g;
  const ui = await g.api('GET', '/api/v1/settings/ui', { auth: null });
  assert.is(ui.status, 200);
  assert.equal(ui.body, {
    default_theme: 'gitea-auto',
    allowed_reactions: ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'],
    custom_emojis: ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs'],
  });
  const att = await g.api('GET', '/api/v1/settings/attachment', { auth: null });
  assert.is(att.status, 200);
  assert.equal(att.body, { enabled: true, allowed_types: '', max_size: 2048, max_files: 5 });
});

test('the advertised page limits are the ones lists apply: limit=1000 answers max_response_items entries', async () => {
  const g = ctx.g;
  await g.repo('paged');
  const names = Array.from({ length: 55 }, (_, i) => `b${String(i).padStart(2, '0')}`);
  for (const n of names) {
    const r = await g.api('POST', '/api/v1/repos/root/paged/branches', { json: { new_branch_name: n } });
    assert.is(r.status, 201, r.text);
  }
  const big = await g.api('GET', '/api/v1/repos/root/paged/branches?limit=1000');
  assert.is(big.body.length, API.max_response_items);
  const dflt = await g.api('GET', '/api/v1/repos/root/paged/branches');
  assert.is(dflt.body.length, API.default_paging_num);
  assert.is(dflt.headers.get('x-total-count'), '56');
});

test('gitea-js reads them with its own methods', async () => {
  const api = giteaApi(`${ctx.g.url}/`, {});
  assert.equal((await api.settings.getGeneralApiSettings()).data, API);
  assert.equal((await api.settings.getGeneralRepositorySettings()).data, REPO);
});

test.run();

const off = suite('gitea: instance settings with mirrors and LFS switched off');
const offCtx = useGitea(off, { MIRROR_ENABLED: 'false', LFS_ENABLED: 'false' });

off('the switches follow MIRROR_ENABLED and LFS_ENABLED', async () => {
  const r = await offCtx.g.api('GET', '/api/v1/settings/repository', { auth: null });
  assert.is(r.status, 200);
  assert.equal(r.body, { ...REPO, mirrors_disabled: true, lfs_disabled: true });
});

off.run();
