import { esc, pageResponse, type Html } from './html.js';

/** What the sign-in form shows. */
export interface SignInView {
  csrf: string;
  /** A local path to go on to once signed in ('' for none). */
  redirectTo: string;
  userName: string;
  error?: string;
}

const hidden = (name: string, value: string): Html => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;

/** The sign-in page (Gitea's form field names: `user_name`, `password`). */
export function signInPage(basePath: string, v: SignInView, status = 200): Response {
  const body = `<h1>Sign in</h1>
${v.error ? `<p class="error">${esc(v.error)}</p>` : ''}
<form class="sign-in" method="post" action="${esc(`${basePath}/user/login`)}">
${hidden('_csrf', v.csrf)}${v.redirectTo ? hidden('redirect_to', v.redirectTo) : ''}
<label for="user_name">Username or email address</label>
<input type="text" id="user_name" name="user_name" value="${esc(v.userName)}" autocomplete="username" autofocus required>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<div><button type="submit">Sign in</button></div>
</form>`;
  return pageResponse(basePath, 'Sign in', [{ text: 'Sign in' }], body, status, "'self'");
}

/** What the consent page shows and sends back. */
export interface ConsentView {
  csrf: string;
  appName: string;
  /** Who registered the application. */
  ownerName: string;
  userName: string;
  redirectUri: string;
  /** The API scopes the token would hold (`all`: whatever the user may do). */
  access: string;
  /** The authorization request, carried through the form unchanged (and checked again when it comes back). */
  fields: Record<string, string>;
  /** The CSP source the grant's redirect goes to (the form's answer sends the browser there). */
  redirectSource: string;
}

/** The page that asks the signed-in user whether the application may act for them. */
export function consentPage(basePath: string, v: ConsentView): Response {
  let host = v.redirectUri;
  try {
    host = new URL(v.redirectUri).host || v.redirectUri;
  } catch {
    // Shown as registered.
  }
  const body = `<h1>Authorize ${esc(v.appName)}?</h1>
<p><strong>${esc(v.appName)}</strong>, registered by <strong>${esc(v.ownerName)}</strong>, asks to use your account <strong>${esc(v.userName)}</strong>: ${
    v.access === 'all' ? 'it will be able to read and change whatever you can, through the API.' : `through the API, with these scopes only: <strong>${esc(v.access.split(',').join(', '))}</strong>.`
  }</p>
<p>You will be sent back to <strong>${esc(host)}</strong> (<span class="muted">${esc(v.redirectUri)}</span>).</p>
<form class="consent" method="post" action="${esc(`${basePath}/login/oauth/grant`)}">
${hidden('_csrf', v.csrf)}${Object.entries(v.fields).map(([k, val]) => hidden(k, val)).join('')}
<button type="submit" name="granted" value="true">Authorize</button>
<button type="submit" name="granted" value="false">Cancel</button>
</form>`;
  return pageResponse(basePath, 'Authorize application', [{ text: 'Authorize application' }], body, 200, `'self' ${v.redirectSource}`);
}

/** An authorization request refused before its redirect URI could be trusted: shown, never sent on (Gitea's grant_error page). */
export function authorizeErrorPage(basePath: string, error: string, description: string): Response {
  const body = `<h1>Authorization failed</h1><p>The application's request could not be accepted.</p><p class="error"><code>${esc(error)}</code>: ${esc(description)}</p>`;
  return pageResponse(basePath, 'Authorization failed', [{ text: 'Authorization failed' }], body, 400);
}

/** The sign-out page: a form, so that a link on another site cannot sign anyone out. */
export function signOutPage(basePath: string, csrf: string, userName: string | null): Response {
  const body = userName
    ? `<h1>Sign out</h1><p>Signed in as <strong>${esc(userName)}</strong>.</p>
<form class="sign-in" method="post" action="${esc(`${basePath}/user/logout`)}">${hidden('_csrf', csrf)}<button type="submit">Sign out</button></form>`
    : `<h1>Signed out</h1><p>You are not signed in. <a href="${esc(`${basePath}/user/login`)}">Sign in</a></p>`;
  return pageResponse(basePath, 'Sign out', [{ text: 'Sign out' }], body, 200, "'self'");
}
