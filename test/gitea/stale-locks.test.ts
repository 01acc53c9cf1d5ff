import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { giteaWorld } from '../_helpers/gitea.js';
import { startTestServer } from '../_helpers/server.js';

// A git killed between locking a ref and committing it leaves the lock behind (when the whole
// process group dies with the server); the branch must not stay unwritable.
const test = suite('gitea: stale ref locks');

const b64 = (s: string) => Buffer.from(s).toString('base64');
const anHourAgo = () => new Date(Date.now() - 3_600_000);

test('locks left by the previous run are cleared at start; a stale lock met at runtime is cleared too', async () => {
  const t1 = await startTestServer({});
  const dataDir = t1.dataDir;
  try {
    let gitDir: string;
    try {
      const w1 = await giteaWorld(t1);
      const repo = await w1.repo('locked');
      gitDir = join(dataDir, 'git', `${repo.id}.git`);
      t1.assertNoViolations();
    } finally {
      await t1.close({ keepData: true });
    }

    // What a SIGKILLed update-ref leaves: the branch's lock and HEAD's (HEAD points at main).
    for (const lock of ['HEAD.lock', 'refs/heads/main.lock']) {
      writeFileSync(join(gitDir, lock), 'x'.repeat(40));
      utimesSync(join(gitDir, lock), anHourAgo(), anHourAgo());
    }
    const t2 = await startTestServer({}, dataDir);
    try {
      assert.not.ok(existsSync(join(gitDir, 'HEAD.lock')));
      assert.not.ok(existsSync(join(gitDir, 'refs/heads/main.lock')));
      const write = (path: string) =>
        fetch(`${t2.url}/api/v1/repos/root/locked/contents/${path}`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from('root:root-password-1').toString('base64')}`, 'content-type': 'application/json' },
          body: JSON.stringify({ content: b64(`${path}\n`) }),
        }).then(async (res) => ({ status: res.status, text: await res.text() }));
      const r = await write('a.txt');
      assert.is(r.status, 201, r.text);
      assert.ok(t2.logs.some((l) => l.includes('removed ref locks left by git processes of the previous run')));

      // At runtime: a lock nobody touched for a while is an orphan's.
      writeFileSync(join(gitDir, 'refs/heads/main.lock'), 'x'.repeat(40));
      utimesSync(join(gitDir, 'refs/heads/main.lock'), anHourAgo(), anHourAgo());
      const again = await write('b.txt');
      assert.is(again.status, 201, again.text);
      t2.assertNoViolations();
    } finally {
      await t2.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
