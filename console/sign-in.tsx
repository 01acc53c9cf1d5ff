import { useState } from 'preact/hooks';
import { ApiError, call } from './api.js';
import { saveSession, type Session } from './session.js';

/** Checks the credentials against both sides before keeping them: ARI (required, with write access), then Gitea (when given). */
async function verify(s: Session): Promise<string | undefined> {
  try {
    await call(s, 'ari', 'GET', '/ari/asterisk/info');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return 'Wrong ARI user name or password.';
    return `ARI sign-in failed: ${(e as Error).message}`;
  }
  // The live view (the event tap) and the far end are /sim, which read-only users may not use.
  try {
    await call(s, 'ari', 'GET', '/sim/clock');
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return 'This ARI user is read-only; the console needs a user with write access.';
    return `ARI sign-in failed: ${(e as Error).message}`;
  }
  if (!s.gitea) return undefined;
  try {
    await call(s, 'gitea', 'GET', '/api/v1/user');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return 'The repository sign-in was refused: wrong token, user name or password.';
    return `Repository sign-in failed: ${(e as Error).message}`;
  }
  return undefined;
}

/** The sign-in form: an ARI user, and optionally a Gitea token or user and password for the repository side. */
export function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [ariUser, setAriUser] = useState('');
  const [ariPassword, setAriPassword] = useState('');
  const [token, setToken] = useState('');
  const [giteaUser, setGiteaUser] = useState('');
  const [giteaPassword, setGiteaPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(ev: Event) {
    ev.preventDefault();
    const session: Session = { ari: { user: ariUser, password: ariPassword } };
    if (token) session.gitea = { token };
    else if (giteaUser) session.gitea = { user: giteaUser, password: giteaPassword };
    setBusy(true);
    setError('');
    const problem = await verify(session);
    setBusy(false);
    if (problem) return setError(problem);
    saveSession(session);
    onSignedIn(session);
  }

  return (
    <main class="sign-in">
      <h1>Trunkline console</h1>
      <form id="sign-in" onSubmit={submit}>
        <fieldset>
          <legend>ARI user (calls and the simulation)</legend>
          <label>User <input name="ari-user" autocomplete="username" required value={ariUser} onInput={(e) => setAriUser(e.currentTarget.value)} /></label>
          <label>Password <input name="ari-password" type="password" autocomplete="current-password" required value={ariPassword} onInput={(e) => setAriPassword(e.currentTarget.value)} /></label>
        </fieldset>
        <fieldset>
          <legend>Repositories (optional)</legend>
          <label>Token <input name="gitea-token" type="password" value={token} onInput={(e) => setToken(e.currentTarget.value)} /></label>
          <p class="hint">or a user and password (the live mirror status needs a token)</p>
          <label>User <input name="gitea-user" value={giteaUser} onInput={(e) => setGiteaUser(e.currentTarget.value)} /></label>
          <label>Password <input name="gitea-password" type="password" value={giteaPassword} onInput={(e) => setGiteaPassword(e.currentTarget.value)} /></label>
        </fieldset>
        {error && <p class="error" role="alert" id="sign-in-error">{error}</p>}
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
      <p class="hint">The credentials stay in this tab only (sessionStorage) and are sent to this server alone.</p>
    </main>
  );
}
