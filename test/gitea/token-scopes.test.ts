import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GITEA_OPERATIONS } from '../../protocol/gitea/index.js';
import { useGitea } from '../_helpers/gitea.js';

// Token scopes on every operation, generated from protocol/gitea: a token without the operation's
// scope categories is refused with Gitea's 403 text before anything else happens (before the
// repository lookup, before the body is read), and a read token cannot write.
const test = suite('gitea: token scopes on every operation');
const ctx = useGitea(test);

const READ = new Set(['GET', 'HEAD']);
/** Path parameters filled with plausible values (nothing has to exist: scopes are checked first). */
const fill = (path: string) => path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'owner' || name === 'username' ? 'root' : name === 'repo' ? 'scoped' : `x-${name}`));

test('a token without the scope: 403 with the required scope named, for every scoped operation', async () => {
  const g = ctx.g;
  await g.repo('scoped');
  const token = await g.token(g.admin, ['read:notification']);
  let checked = 0;
  for (const op of GITEA_OPERATIONS) {
    if (!op.scopes.length) continue;
    const level = READ.has(op.method) ? 'read' : 'write';
    const r = await g.api(op.method, `/api/v1${fill(op.path)}`, { auth: { token }, ...(op.body ? { json: {} } : {}) });
    assert.is(r.status, 403, `${op.operationId}: ${r.text}`);
    assert.equal(r.body, { message: `token does not have at least one of required scope(s), required=[${level}:${op.scopes[0]}], token scope=read:notification`, url: `${g.url}/api/swagger` }, op.operationId);
    checked++;
  }
  assert.ok(checked >= 30, `${checked} operations`);
});

test('a read-only token cannot write: every non-GET scoped operation is 403 for write:<category>', async () => {
  const g = ctx.g;
  const token = await g.token(g.admin, ['read:repository', 'read:user', 'read:admin', 'read:misc']);
  for (const op of GITEA_OPERATIONS) {
    if (!op.scopes.length || READ.has(op.method)) continue;
    const r = await g.api(op.method, `/api/v1${fill(op.path)}`, { auth: { token }, ...(op.body ? { json: {} } : {}) });
    assert.is(r.status, 403, `${op.operationId}: ${r.text}`);
    assert.match(r.body.message, /^token does not have at least one of required scope\(s\), required=\[write:/, op.operationId);
  }
});

test.run();
