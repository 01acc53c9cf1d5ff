// Trunkline's pre-receive hook. git receive-pack runs it (through the shell
// stub in DATA_DIR/hooks) after the pushed objects arrived in quarantine and
// before any ref moves. It reads the ref updates from stdin and asks the
// server, over loopback HTTP with the push's one-time secret, whether they may
// go ahead. Facts that need the pushed objects (is an update a fast-forward,
// which paths change) are computed here with git itself, inside the
// quarantine environment receive-pack gave us, and only when the server asks
// for them. A refusal is printed as "Gitea: <message>" (as Gitea's hook does,
// so clients show "remote: Gitea: ...") and the hook exits 1, which makes
// receive-pack decline every ref of the push.
//
// Plain JavaScript on purpose: it starts in a few tens of milliseconds.
import { spawnSync } from 'node:child_process';

const PROBE_ANSWER = 'trunkline-pre-receive-ok';
const ZERO = /^0+$/;

if (process.env.TRUNKLINE_HOOK_PROBE) {
  process.stdout.write(`${PROBE_ANSWER}\n`);
  process.exit(0);
}

function fail(message) {
  // Gitea writes an empty line to stdout first (it avoids a git quirk with silent hooks).
  process.stdout.write('\n');
  process.stderr.write(`Gitea: ${message}\n`);
  process.exit(1);
}

function git(args, okCodes = [0], input = '') {
  const r = spawnSync('git', args, { input, encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (!okCodes.includes(r.status)) throw new Error(`git ${args[0]} failed (${r.status}): ${r.stderr.toString('utf8').trim()}`);
  return r;
}

const lines = (buf, sep = '\n') => buf.toString('utf8').split(sep).filter(Boolean);

/** Whether moving a branch from `from` to `to` drops commits (Gitea: `rev-list -n1 from ^to` is not empty). */
const isForced = (from, to) => git(['merge-base', '--is-ancestor', from, to], [0, 1]).status === 1;

/** The commits an update brings (newest first): those not reachable from the old tip, or, for a new ref, from any existing ref. */
function newCommitsArgs(u) {
  return ZERO.test(u.old) ? [u.new, '--not', '--all'] : [u.new, `^${u.old}`];
}

/**
 * The paths an update changes: a tree diff from the old tip; for a new
 * branch, from where it leaves existing history (the parent of its oldest
 * new commit, or the empty tree). Renames count as both paths, so moving a
 * protected file away is a change to it.
 */
function changedPaths(u) {
  let base = u.old;
  if (ZERO.test(u.old)) {
    const fresh = lines(git(['rev-list', '--topo-order', '--reverse', ...newCommitsArgs(u)]).stdout);
    if (!fresh.length) return [];
    const parents = lines(git(['rev-list', '--parents', '-n', '1', fresh[0]]).stdout)[0].split(' ').slice(1);
    base = parents[0] ?? lines(git(['hash-object', '-t', 'tree', '--stdin']).stdout)[0];
  }
  return lines(git(['diff', '--name-only', '--no-renames', '-z', base, u.new]).stdout, '\0');
}

const firstNewCommit = (u) => lines(git(['rev-list', '--max-count=1', ...newCommitsArgs(u)]).stdout)[0] ?? null;

async function ask(url, secret, updates) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trunkline-hook-secret': secret },
    body: JSON.stringify({ updates }),
  });
  if (res.status !== 200) throw new Error(`the server answered ${res.status}`);
  return res.json();
}

async function main() {
  const url = process.env.TRUNKLINE_HOOK_URL;
  const secret = process.env.TRUNKLINE_HOOK_SECRET;
  if (!url || !secret) fail('this push did not come through the server');

  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const updates = lines(Buffer.concat(chunks)).map((line) => {
    const [old, nu, ref] = line.split(' ');
    return { old, new: nu, ref };
  });
  if (!updates.length) return;

  let answer = await ask(url, secret, updates);
  if (answer.need) {
    for (const n of answer.need) {
      const u = updates[n.index];
      if (!u) continue;
      if (n.forced) u.forced = isForced(u.old, u.new);
      if (n.paths) u.paths = changedPaths(u);
      if (n.firstCommit) u.firstCommit = firstNewCommit(u);
    }
    answer = await ask(url, secret, updates);
  }
  if (answer.ok !== true) fail(answer.message || 'push refused');
}

main().catch((err) => fail(`Unable to check the push: ${err && err.message ? err.message : String(err)}`));
