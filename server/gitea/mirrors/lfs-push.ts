import type { LfsStore } from '../services/lfs-store.js';
import { createLfsClient, LFS_BATCH_OBJECTS, lfsEndpointOf, type LfsClientOptions } from './lfs-client.js';
import { OutboundError } from './outbound-http.js';

/**
 * Uploads a repository's LFS objects to a mirror's LFS server before its refs
 * are pushed (as Gitea does): the batch API says which objects it lacks, each
 * is PUT from our store and verified when asked. The shared client
 * (lfs-client.ts) applies the address policy to every request and keeps the
 * credentials on the endpoint's origin. Throws an OutboundError naming the
 * first failure in our own words.
 */
export async function pushLfsObjects(
  opts: {
    remote: string;
    username: string;
    password: string;
    objects: readonly { oid: string; size: number }[];
    store: LfsStore;
  } & Pick<LfsClientOptions, 'policy' | 'resolve' | 'idleMs' | 'deadlineMs'>,
): Promise<{ uploaded: number }> {
  const endpoint = lfsEndpointOf(opts.remote);
  if (!endpoint || opts.objects.length === 0) return { uploaded: 0 };
  const client = createLfsClient({ ...opts, endpoint });
  let uploaded = 0;
  for (let i = 0; i < opts.objects.length; i += LFS_BATCH_OBJECTS) {
    const chunk = opts.objects.slice(i, i + LFS_BATCH_OBJECTS);
    const answer = await client.batch('upload', chunk);
    for (const o of chunk) {
      const entry = answer.get(o.oid)!;
      // No actions: the remote has it. Left out of the answer: Gitea's client skips it too.
      if (entry.kind === 'none' || entry.kind === 'absent') continue;
      if (entry.kind !== 'actions') throw new OutboundError(`LFS object ${o.oid}: the remote answered error ${entry.kind === 'error' ? entry.code : 404}`);
      if (entry.upload) {
        await client.upload(o, entry.upload, () => opts.store.open(o.oid));
        uploaded++;
      }
      if (entry.verify) await client.verify(o, entry.verify);
    }
  }
  return { uploaded };
}
