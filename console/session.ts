/** The credentials the console signs in with, kept in this tab's sessionStorage only (gone when the tab closes). */
export interface Session {
  ari: { user: string; password: string };
  /** The repository side: a token, or a user and password (REST only; live mirror status needs a token). */
  gitea?: { token: string } | { user: string; password: string };
}

const KEY = 'trunkline-console-session';

export function loadSession(): Session | undefined {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return undefined;
    const s = JSON.parse(raw) as Session;
    return typeof s?.ari?.user === 'string' && typeof s.ari.password === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(s: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(s));
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
}
