import { createHash, randomBytes } from 'node:crypto';
import * as assert from 'uvu/assert';
import type { Account, GiteaWorld } from '../_helpers/gitea.js';

// A browser's side of the OAuth2 pages for the flow suites: a cookie jar, redirects not followed
// (each hop is asserted), and the forms' hidden fields read from the HTML the server sent.

/** One answer as the flow tests read it. */
export interface WebReply {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

/** A client that keeps cookies like a browser (by name; this server sets them for its whole site). */
export class CookieClient {
  readonly jar = new Map<string, string>();
  /** Every Set-Cookie value received, in order. */
  readonly setCookies: string[] = [];

  constructor(readonly base: string) {}

  async send(method: string, path: string, opts: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<WebReply> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (opts.form) {
      body = new URLSearchParams(opts.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(path.startsWith('http') ? path : this.base + path, { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) });
    for (const c of res.headers.getSetCookie()) {
      this.setCookies.push(c);
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
  }

  get = (path: string, headers?: Record<string, string>) => this.send('GET', path, headers ? { headers } : {});
  post = (path: string, form: Record<string, string>) => this.send('POST', path, { form });
}

/** The hidden inputs of the first form in a page, by name (HTML entities of the values decoded). */
export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    out[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_x, n: string) => String.fromCharCode(Number(n)));
  }
  return out;
}

/** A PKCE pair: a verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers an application for `owner` through the API; answers its JSON (with the one-time secret). */
export async function registerApp(g: GiteaWorld, owner: Account, body: Record<string, unknown>): Promise<any> {
  const r = await g.api('POST', '/api/v1/user/applications/oauth2', { json: body, auth: owner.auth });
  assert.is(r.status, 201, r.text);
  return r.body;
}

/** Signs `who` in through the sign-in form (reading its CSRF token first); answers the form's 303. */
export async function signIn(web: CookieClient, who: { name: string; password: string }, redirectTo = ''): Promise<WebReply> {
  const page = await web.get(`/user/login${redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : ''}`);
  assert.is(page.status, 200, page.text);
  const fields = hiddenFields(page.text);
  const r = await web.post('/user/login', { ...fields, user_name: who.name, password: who.password });
  assert.is(r.status, 303, r.text);
  return r;
}

/** The authorize path for a request. */
export const authorizePath = (q: Record<string, string>) => `/login/oauth/authorize?${new URLSearchParams(q).toString()}`;

/** A token request from a page on `origin` (a form post, as Decap sends it). */
export async function tokenRequest(url: string, form: Record<string, string>, origin?: string): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${url}/login/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
