import type { LfsRepo } from '../../db/repos/lfs-repo.js';
import type { Logger } from '../../log.js';
import type { GitStore } from '../git/store.js';
import { createLfsClient, LFS_BATCH_OBJECTS, lfsEndpointGiven, lfsEndpointOf } from '../mirrors/lfs-client.js';
import { OutboundError } from '../mirrors/outbound-http.js';
import type { MirrorUrlPolicy } from '../mirrors/url-policy.js';
import type { LfsPointer } from './lfs-pointer.js';
import { refTips, scanLfsPointers } from './lfs-scan.js';
import type { LfsStore } from './lfs-store.js';

/** Where a mirror's LFS objects come from, and the credentials that endpoint gets. */
export interface LfsSource {
  endpoint: string;
  username: string;
  password: string;
}

/** What one pass did: the tips it covered, how many objects it stored, which the remote lacked. */
export interface LfsPass {
  tips: string[];
  stored: number;
  missing: LfsPointer[];
}

/**
 * The LFS endpoint of a pull mirror and who may be told the credentials.
 * Without lfs_endpoint: derived from the clone address, with the migrate
 * credentials. With one: its own userinfo if it has some; else the migrate
 * credentials only when it is on the clone address's endpoint origin (Gitea
 * sends a separate lfs_endpoint no credentials but its own; we never send
 * them to another host). Null when there is nothing to fetch over HTTP (a
 * local path).
 */
export function lfsSourceOf(
  remote: string,
  creds: { username: string; password: string },
  given?: { endpoint: string; username: string; password: string },
): LfsSource | null {
  const derived = lfsEndpointOf(remote);
  if (!given?.endpoint) return derived ? { endpoint: derived, ...creds } : null;
  const endpoint = lfsEndpointGiven(given.endpoint);
  if (!endpoint) return null;
  if (given.username || given.password) return { endpoint, username: given.username, password: given.password };
  const sameOrigin = !!derived && new URL(derived).origin === new URL(endpoint).origin;
  return { endpoint, ...(sameOrigin ? creds : { username: '', password: '' }) };
}

/** What copying LFS objects from a remote needs. */
export interface LfsMirroringDeps {
  git: GitStore;
  store: LfsStore;
  links: LfsRepo;
  policy: MirrorUrlPolicy;
  resolveHost?: (host: string) => Promise<string[]>;
  log: Logger;
  idleMs?: number;
}

/**
 * Fetching the LFS objects a pull mirror's (or a migrated copy's) pointers
 * name, as Gitea does (modules/repository/repo.go
 * StoreMissingLfsObjectsInRepository, read from go-gitea/gitea; the 404 rule
 * from go-gitea/gitea#31702, in Gitea since 1.22.2):
 *
 * - objects are asked for in batches of 20 (modules/lfs/http_client.go);
 * - an object the remote reports with error code 404 is skipped with a
 *   warning and the migration goes on; any other per-object error, a batch
 *   request answered with anything but 200 (a source with no LFS server
 *   answers 404 there), a failed download or content that does not match its
 *   pointer ends the pass with an error;
 * - on migration (services/repository/migrate.go) that error fails the
 *   migration and the new repository is deleted; on a mirror sync
 *   (services/mirror/mirror_pull.go) it is only logged and the sync still
 *   counts as done;
 * - a repository with no pointers makes no LFS request at all, so a source
 *   without an LFS server migrates fine as long as nothing points into LFS.
 *
 * Where we differ: an object already in our store for another repository is
 * downloaded again rather than linked for free (Gitea links it), so a pointer
 * cannot borrow another repository's private object; and Gitea answers a
 * failed LFS step of a migration with a 500 (its message has no "fatal:"),
 * we with the 422 `Migration failed: …` we give every other remote failure,
 * worded by us (no text of the remote's).
 *
 * A pass looks at the objects reachable from the current refs but not from
 * `since` (the tips of the last complete pass; all of them on migration),
 * plus the `pending` objects the remote lacked before; what is already linked
 * to the repository is not fetched again.
 */
export function createLfsMirroring(deps: LfsMirroringDeps) {
  const { git, store, links, log } = deps;

  return {
    async pass(repo: { id: number; gitDir: string }, source: LfsSource, since: readonly string[], pending: readonly LfsPointer[], signal?: AbortSignal): Promise<LfsPass> {
      const tips = await refTips(repo.gitDir);
      const found = new Map((await scanLfsPointers(git, repo.gitDir, tips, since)).map((p) => [p.oid, p]));
      for (const p of pending) if (!found.has(p.oid)) found.set(p.oid, p);
      const wanted = [...found.values()].filter((p) => !links.linked(repo.id, p.oid));
      const missing: LfsPointer[] = [];
      let stored = 0;
      if (!wanted.length) return { tips, stored, missing };

      const client = createLfsClient({ ...source, policy: deps.policy, ...(deps.resolveHost ? { resolve: deps.resolveHost } : {}), ...(deps.idleMs ? { idleMs: deps.idleMs } : {}), ...(signal ? { signal } : {}) });
      for (let i = 0; i < wanted.length; i += LFS_BATCH_OBJECTS) {
        const chunk = wanted.slice(i, i + LFS_BATCH_OBJECTS);
        const answer = await client.batch('download', chunk);
        for (const p of chunk) {
          const entry = answer.get(p.oid)!;
          if (entry.kind === 'missing' || entry.kind === 'absent') {
            log.warn({ repo: repo.id, oid: p.oid }, 'the LFS remote does not have this object: skipped');
            missing.push(p);
            continue;
          }
          if (entry.kind === 'error') throw new OutboundError(`LFS object ${p.oid}: the remote answered error ${entry.code}`);
          if (entry.kind === 'none' || !entry.download) throw new OutboundError(`LFS object ${p.oid}: the remote offers no download`);
          const result = await client.download(p, entry.download, (body) => store.putStream(p.oid, p.size, body));
          if (result === 'size') throw new OutboundError(`LFS download of ${p.oid}: the content is not the size its pointer declares`);
          if (result === 'hash') throw new OutboundError(`LFS download of ${p.oid}: the content does not hash to its oid`);
          links.store(repo.id, p.oid, p.size, Math.floor(Date.now() / 1000));
          stored++;
        }
      }
      return { tips, stored, missing };
    },
  };
}

/** The LFS mirroring interface. */
export type LfsMirroring = ReturnType<typeof createLfsMirroring>;
