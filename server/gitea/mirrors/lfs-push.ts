import { Readable } from 'node:stream';
import type { LfsStore } from '../services/lfs-store.js';

const MEDIA_TYPE = 'application/vnd.git-lfs+json';
/** Objects per batch request (git-lfs sends 100). */
const BATCH = 100;

interface Action {
  href: string;
  header?: Record<string, string>;
}

interface BatchAnswer {
  objects?: { oid: string; size: number; actions?: { upload?: Action; verify?: Action }; error?: { code: number; message: string } }[] | null;
}

/** The LFS endpoint of a git remote, as git-lfs derives it: `<url>.git/info/lfs` (no `.git` added twice). */
export function lfsEndpoint(remote: string): string | null {
  if (!/^https?:\/\//i.test(remote)) return null;
  const u = new URL(remote);
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  const path = u.pathname.replace(/\/+$/, '');
  u.pathname = `${path.endsWith('.git') ? path : `${path}.git`}/info/lfs`;
  return u.href;
}

/**
 * Uploads a repository's LFS objects to a mirror's LFS server before its refs
 * are pushed (as Gitea does): the batch API says which objects it lacks, each
 * is PUT from our store and verified when asked. Credentials go in a Basic
 * header built in memory. Throws with a message naming the first failure.
 */
export async function pushLfsObjects(opts: {
  remote: string;
  username: string;
  password: string;
  objects: readonly { oid: string; size: number }[];
  store: LfsStore;
  fetchImpl?: typeof fetch;
}): Promise<{ uploaded: number }> {
  const endpoint = lfsEndpoint(opts.remote);
  if (!endpoint || opts.objects.length === 0) return { uploaded: 0 };
  const doFetch = opts.fetchImpl ?? fetch;
  const basic = opts.username || opts.password ? `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}` : undefined;
  const withAuth = (h: Record<string, string> = {}) => (basic && !Object.keys(h).some((k) => k.toLowerCase() === 'authorization') ? { ...h, Authorization: basic } : h);
  let uploaded = 0;
  for (let i = 0; i < opts.objects.length; i += BATCH) {
    const objects = opts.objects.slice(i, i + BATCH).map(({ oid, size }) => ({ oid, size }));
    const res = await doFetch(`${endpoint}/objects/batch`, {
      method: 'POST',
      headers: withAuth({ Accept: MEDIA_TYPE, 'Content-Type': MEDIA_TYPE }),
      body: JSON.stringify({ operation: 'upload', transfers: ['basic'], objects }),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`LFS batch: HTTP ${res.status} ${text.slice(0, 200)}`);
    const answer = JSON.parse(text) as BatchAnswer;
    for (const o of answer.objects ?? []) {
      if (o.error) throw new Error(`LFS object ${o.oid}: ${o.error.code} ${o.error.message}`);
      const upload = o.actions?.upload;
      if (upload) {
        const body = Readable.toWeb(opts.store.open(o.oid)) as ReadableStream<Uint8Array>;
        const put = await doFetch(upload.href, {
          method: 'PUT',
          headers: withAuth({ ...upload.header, 'Content-Type': 'application/octet-stream', 'Content-Length': String(o.size) }),
          body,
          duplex: 'half',
        } as RequestInit);
        await put.arrayBuffer();
        if (put.status < 200 || put.status > 299) throw new Error(`LFS upload of ${o.oid}: HTTP ${put.status}`);
        uploaded++;
      }
      const verify = o.actions?.verify;
      if (verify) {
        const v = await doFetch(verify.href, { method: 'POST', headers: withAuth({ ...verify.header, Accept: MEDIA_TYPE, 'Content-Type': MEDIA_TYPE }), body: JSON.stringify({ oid: o.oid, size: o.size }) });
        await v.arrayBuffer();
        if (v.status !== 200) throw new Error(`LFS verify of ${o.oid}: HTTP ${v.status}`);
      }
    }
  }
  return { uploaded };
}
