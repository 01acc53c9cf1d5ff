import { useEffect, useMemo, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useObservable } from '../observable.js';
import type { Session } from '../session.js';
import { RepoDetail, type Repo } from './repo-detail.js';
import { RepoEventFeed } from './repo-events.js';

/** Repositories: the signed-in user's (or the public ones), each opening to branches, commits and mirrors. */
export function ReposView({ session }: { session: Session }) {
  const feed = useMemo(() => new RepoEventFeed(session), [session]);
  useObservable(feed);
  const [repos, setRepos] = useState<Repo[] | undefined>();
  const [error, setError] = useState('');
  const [open, setOpen] = useState<string | undefined>();

  useEffect(() => {
    feed.start();
    const load = session.gitea
      ? call<Repo[]>(session, 'gitea', 'GET', '/api/v1/user/repos', { limit: 50 })
      : call<{ data: Repo[] }>(session, 'gitea', 'GET', '/api/v1/repos/search', { limit: 50 }).then((r) => r.data);
    load.then(setRepos, (e: Error) => setError(e.message));
    return () => feed.stop();
  }, [feed, session]);

  const live = session.gitea && 'token' in session.gitea
    ? `live status: ${feed.state}`
    : 'sign in with a token for live mirror status';
  return (
    <section class="panel" id="repositories">
      <h2>Repositories <span class="muted" id="repo-events-state" data-state={feed.state}>{live}</span></h2>
      {!session.gitea && <p class="hint">Signed in for calls only: public repositories are listed.</p>}
      {error && <p class="error">{error}</p>}
      {repos?.length === 0 && <p class="hint">none</p>}
      <ul class="repos">
        {repos?.map((r) => (
          <li key={r.full_name} data-repo={r.full_name}>
            <button type="button" class="link" onClick={() => setOpen(open === r.full_name ? undefined : r.full_name)}>{r.full_name}</button>{' '}
            {r.private && <span class="badge off">private</span>} {r.mirror && <span class="badge">pull mirror</span>}{' '}
            <a href={r.html_url}>web page</a> <span class="muted">{r.description}</span>
            {open === r.full_name && <RepoDetail session={session} repo={r} feed={feed} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
