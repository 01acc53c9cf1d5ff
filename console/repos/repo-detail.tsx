import { useEffect, useState } from 'preact/hooks';
import { call, seg } from '../api.js';
import { useObservable } from '../observable.js';
import type { Session } from '../session.js';
import type { MirrorStatus, RepoEventFeed } from './repo-events.js';

export interface Repo {
  full_name: string;
  name: string;
  owner: { login: string };
  html_url: string;
  description: string;
  private: boolean;
  mirror: boolean;
  mirror_interval?: string;
  mirror_updated?: string;
}

interface Branch {
  name: string;
  commit: { id: string; message: string };
}

interface Commit {
  sha: string;
  html_url: string;
  commit: { message: string; author: { name: string; date: string } };
}

interface PushMirror {
  remote_name: string;
  remote_address: string;
  last_update: string;
  last_error: string;
  interval: string;
  sync_on_commit: boolean;
}

/** Gitea writes a time that never happened as the Unix epoch (or Go's zero time). */
const when = (t: string | undefined) => (!t || t.startsWith('1970-01-01T00:00:00') || t.startsWith('0001-01-01') ? 'never' : t);

/** A mirror's state as shown: the live status when an event told it, else what the API last recorded. */
function MirrorState({ live, lastUpdate, lastError }: { live?: MirrorStatus; lastUpdate?: string; lastError?: string }) {
  if (live) {
    return (
      <span class={`mirror-state ${live.state === 'failed' ? 'error' : ''}`} data-mirror-state={live.state}>
        {live.state} at {live.at}{live.error ? `: ${live.error}` : ''}
      </span>
    );
  }
  return (
    <span class="mirror-state" data-mirror-state="recorded">
      last sync {when(lastUpdate)}{lastError ? <span class="error"> · last error: {lastError}</span> : ''}
    </span>
  );
}

/** One repository opened: branches, recent commits (linking to their pages), push and pull mirrors with "sync now". */
export function RepoDetail({ session, repo, feed }: { session: Session; repo: Repo; feed: RepoEventFeed }) {
  useObservable(feed);
  const [branches, setBranches] = useState<Branch[]>([]);
  const [commits, setCommits] = useState<Commit[]>([]);
  const [mirrors, setMirrors] = useState<PushMirror[] | undefined>();
  const [message, setMessage] = useState('');
  const base = `/api/v1/repos/${seg(repo.owner.login)}/${seg(repo.name)}`;
  const get = <T,>(path: string, query = {}) => call<T>(session, 'gitea', 'GET', `${base}${path}`, query);
  const statusKey = [...(mirrors ?? []).map((m) => feed.statusOf(repo.full_name, m.remote_name)?.state), feed.commits.get(repo.full_name.toLowerCase())].join();

  useEffect(() => {
    get<Branch[]>('/branches', { limit: 20 }).then(setBranches, () => setBranches([]));
    get<Commit[]>('/commits', { limit: 5, stat: false }).then(setCommits, () => setCommits([]));
    // Push mirrors need a signed-in reader with access; anonymous visitors see none.
    if (session.gitea) get<PushMirror[]>('/push_mirrors').then(setMirrors, () => setMirrors(undefined));
  }, [repo.full_name, statusKey]);

  async function sync(what: 'push_mirrors-sync' | 'mirror-sync') {
    setMessage('');
    try {
      await call(session, 'gitea', 'POST', `${base}/${what}`);
      setMessage(what === 'mirror-sync' ? 'pull mirror sync queued' : 'push mirrors synced');
    } catch (e) {
      setMessage((e as Error).message);
    }
  }

  return (
    <div class="repo-detail">
      <div class="columns">
        <div>
          <h4>Branches</h4>
          <ul>{branches.map((b) => <li key={b.name}><code>{b.name}</code> <span class="muted">{b.commit.id.slice(0, 10)}</span></li>)}</ul>
        </div>
        <div>
          <h4>Recent commits</h4>
          <ul class="commits">
            {commits.map((c) => (
              <li key={c.sha}><a href={c.html_url}>{c.sha.slice(0, 10)}</a> {c.commit.message.split('\n')[0]} <span class="muted">{c.commit.author.name}, {c.commit.author.date}</span></li>
            ))}
          </ul>
        </div>
      </div>
      {repo.mirror && (
        <div class="pull-mirror" data-pull-mirror={repo.full_name}>
          <h4>Pull mirror</h4>
          every {repo.mirror_interval} · <MirrorState live={feed.statusOf(repo.full_name, 'origin')} lastUpdate={repo.mirror_updated} />{' '}
          <button type="button" onClick={() => void sync('mirror-sync')}>Sync now</button>
        </div>
      )}
      {mirrors && (
        <div class="push-mirrors">
          <h4>Push mirrors {mirrors.length > 0 && <button type="button" id={`sync-push-${repo.name}`} onClick={() => void sync('push_mirrors-sync')}>Sync now</button>}</h4>
          {mirrors.length === 0 && <p class="hint">none</p>}
          <ul>
            {mirrors.map((m) => (
              <li key={m.remote_name} data-push-mirror={m.remote_name}>
                <code>{m.remote_address}</code> <span class="muted">{m.sync_on_commit ? 'on commit, ' : ''}every {m.interval || 'never'}</span>{' '}
                <MirrorState live={feed.statusOf(repo.full_name, m.remote_name)} lastUpdate={m.last_update} lastError={m.last_error} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {message && <p class="muted">{message}</p>}
    </div>
  );
}
