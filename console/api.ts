import type { Session } from './session.js';

/** ROOT_URL's path, from the shell the server wrote (empty at the root). */
export const BASE: string = (() => {
  const el = document.getElementById('console-config');
  try {
    const base = (JSON.parse(el?.textContent ?? '{}') as { base?: unknown }).base;
    return typeof base === 'string' ? base : '';
  } catch {
    return '';
  }
})();

/** A refused or failed request, with the server's own message when it sent one. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

type Side = 'ari' | 'gitea';
type Query = Record<string, string | number | boolean | undefined>;

const basic = (user: string, password: string) => `Basic ${btoa(unescape(encodeURIComponent(`${user}:${password}`)))}`;

/** The Authorization header for one side of the server, or none (anonymous Gitea reads). */
export function authHeader(session: Session, side: Side): Record<string, string> {
  if (side === 'ari') return { authorization: basic(session.ari.user, session.ari.password) };
  const g = session.gitea;
  if (!g) return {};
  return { authorization: 'token' in g ? `token ${g.token}` : basic(g.user, g.password) };
}

/** `path?query` under BASE, leaving out undefined values. */
export function urlOf(path: string, query: Query = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return `${BASE}${path}${s ? `?${s}` : ''}`;
}

/** The WebSocket address of a path on this server. */
export function socketUrl(path: string, query: Query): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${urlOf(path, query)}`;
}

/** What a failed answer says: ARI's and Gitea's `{"message"}`, or the status line. */
async function failure(res: Response): Promise<ApiError> {
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = (await res.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) message = `${res.status}: ${body.message}`;
  } catch {
    /* not JSON: keep the status line */
  }
  return new ApiError(res.status, message);
}

/** Calls one operation and returns its JSON (undefined for an empty answer); throws ApiError when refused. */
export async function call<T = unknown>(session: Session, side: Side, method: string, path: string, query: Query = {}, json?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeader(session, side) };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(urlOf(path, query), { method, headers, body: json === undefined ? null : JSON.stringify(json), credentials: 'omit' });
  if (!res.ok) throw await failure(res);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Fetches a file (a WAV) with the credentials and returns it as a blob. */
export async function fetchBlob(session: Session, side: Side, path: string): Promise<Blob> {
  const res = await fetch(urlOf(path), { headers: authHeader(session, side), credentials: 'omit' });
  if (!res.ok) throw await failure(res);
  return res.blob();
}

/** A path segment, encoded. */
export const seg = (s: string) => encodeURIComponent(s);
