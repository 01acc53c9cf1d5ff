import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';
import { AssetBundle } from './asset-bundle.js';

/** The documents the reference page can show: `?doc=` key, the name in its selector, and where the document is. */
export const API_DOCUMENTS = [
  { key: 'gitea', name: 'Gitea API (/api/v1)', path: '/api/swagger.v1.json' },
  { key: 'ari', name: 'ARI (/ari)', path: '/ari/openapi.json' },
  { key: 'sim', name: 'Simulation (/sim)', path: '/sim/openapi.json' },
] as const;

// Not its standalone preset: that top bar draws Swagger's logo with an inline <style>, which the page's CSP refuses.
const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'favicon-16x16.png'];

/** Swagger UI from the swagger-ui-dist package, and the page's own script, served by us: nothing is fetched from elsewhere. */
function referenceAssets(): AssetBundle {
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files: Record<string, string> = Object.fromEntries(SWAGGER_UI_FILES.map((f) => [f, join(dist, f)]));
  files['api-references.js'] = join(import.meta.dirname, 'assets', 'api-references.js');
  files['api-references.css'] = join(import.meta.dirname, 'assets', 'api-references.css');
  return new AssetBundle('/assets/api-references', files);
}

/**
 * The page allows only what it needs: scripts and styles from our own files, fetches to
 * this server (the documents and "Try it out"), images inline or ours; no frames, forms
 * or plugins. Swagger UI sets element styles from script, which style-src does not govern.
 */
const PAGE_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * `GET /api/swagger` (where Gitea serves its Swagger UI) shows Swagger UI with a selector
 * for the three documents, `?doc=gitea|ari|sim` choosing the first one shown. The page is
 * public, as Gitea's is; the ARI and simulation documents ask for ARI credentials
 * themselves (the browser's Basic sign-in), and "Try it out" then goes out with the same
 * credentials, or with those given under Authorize.
 */
export function mountApiReferences(app: Hono<any>, site: { readonly basePath: string }): void {
  const assets = referenceAssets();
  app.get(`${assets.prefix}/:version/:name`, (c) => assets.answer(c.req.raw, c.req.param('version'), c.req.param('name')));
  app.get('/api/swagger', (c) => {
    const doc = c.req.query('doc') ?? 'gitea';
    const primary = API_DOCUMENTS.find((d) => d.key === doc);
    if (!primary) return c.json({ message: `unknown doc: use one of ${API_DOCUMENTS.map((d) => d.key).join(', ')}` }, 400);
    const base = site.basePath;
    const config = { documents: Object.fromEntries(API_DOCUMENTS.map((d) => [d.key, `${base}${d.path}`])), selected: primary.key };
    const asset = (name: string) => escapeHtml(`${base}${assets.urlOf(name)}`);
    const options = API_DOCUMENTS.map((d) => `<option value="${d.key}"${d === primary ? ' selected' : ''}>${escapeHtml(d.name)}</option>`).join('');
    const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trunkline API references</title>
<link rel="icon" type="image/png" sizes="32x32" href="${asset('favicon-32x32.png')}">
<link rel="icon" type="image/png" sizes="16x16" href="${asset('favicon-16x16.png')}">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset('api-references.css')}">
</head>
<body>
<header class="references-bar">
<span class="references-title">Trunkline API references</span>
<label>Document <select id="api-document">${options}</select></label>
</header>
<div id="swagger-ui"></div>
<script type="application/json" id="api-references-config">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('api-references.js')}"></script>
</body>
</html>
`;
    return c.html(page, 200, {
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
  });
}
