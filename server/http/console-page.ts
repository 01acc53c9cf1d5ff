/** HTML-escapes text placed in the console's shell. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A Host header we may repeat in the CSP: a name or address and an optional port, nothing else. */
const SAFE_HOST = /^(?:[a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/**
 * The console's policy: its own script and style only, API calls and event sockets to this
 * server alone (the ws: and wss: forms of its host are named, as some browsers do not count
 * them as 'self'), audio from blob: URLs the page makes from what it fetched; no frames,
 * forms or plugins.
 */
export function consoleCsp(host: string | undefined): string {
  const sockets = host && SAFE_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", 'media-src blob:',
    `connect-src 'self'${sockets}`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
}

/** The shell the console's script renders into; `base` is ROOT_URL's path (the script reaches the APIs under it). */
export function consolePage(p: { base: string; script: string; style: string }): string {
  const config = JSON.stringify({ base: p.base }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trunkline console</title>
<link rel="stylesheet" href="${escapeHtml(p.style)}">
</head>
<body>
<div id="console"></div>
<script type="application/json" id="console-config">${config}</script>
<script src="${escapeHtml(p.script)}"></script>
</body>
</html>
`;
}

/** What a browser gets at `/` when the console was never built. */
export function missingBundlePage(command: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Trunkline console not built</title></head>
<body>
<h1>The console is not built</h1>
<p>This server has no console bundle. Build it with <code>${escapeHtml(command)}</code> (it runs on its own before <code>npm start</code>, <code>npm test</code> and <code>npm pack</code>), then reload this page.</p>
<p>The APIs are served as usual: <a href="api/swagger">API references</a>.</p>
</body>
</html>
`;
}
