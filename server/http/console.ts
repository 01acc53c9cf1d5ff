import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Context, Hono } from 'hono';
import { AssetBundle } from './asset-bundle.js';
import { consolePage, consoleCsp, missingBundlePage } from './console-page.js';

/** Where scripts/build-console.mjs writes the console (beside this file, in the source tree and in dist/ alike). */
export const CONSOLE_DIST = join(import.meta.dirname, 'console-dist');
const CONSOLE_FILES = ['console.js', 'console.css'];

/** The command that builds the console, named on the page served when it is missing. */
export const BUILD_CONSOLE_COMMAND = 'node scripts/build-console.mjs';

/** The quality (0..1) an Accept header gives a media type, by its exact name or `type/*` or `*\/*`; 0 when absent. */
function quality(accept: string, type: string): number {
  let best = -1;
  let specificity = -1;
  for (const item of accept.split(',')) {
    const [range = '', ...params] = item.split(';').map((s) => s.trim().toLowerCase());
    const rank = range === type ? 2 : range === `${type.split('/')[0]}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (rank < specificity || rank < 0) continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q ? Number(q.slice(2)) : 1;
    specificity = rank;
    best = Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
  }
  return Math.max(best, 0);
}

/**
 * Whether a request for `/` is a browser's (it asks for HTML at least as much as for JSON).
 * Clients that name no type, or JSON only (curl, API clients), keep getting the JSON index.
 */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept || accept.length > 2048) return false;
  const html = quality(accept, 'text/html');
  if (html === 0 || !/text\/html/i.test(accept)) return false;
  return html >= quality(accept, 'application/json');
}

/**
 * The console at `/`: a small HTML shell loading the built script and style sheet, served
 * from memory under content-hashed URLs. Requests for `/` that do not ask for HTML fall
 * through to the JSON index. When the bundle was never built, browsers get a 503 page
 * naming the command that builds it.
 */
export function mountConsole(app: Hono<any>, site: { readonly basePath: string }, dist = CONSOLE_DIST): void {
  const assets = new AssetBundle('/assets/console', Object.fromEntries(CONSOLE_FILES.map((f) => [f, join(dist, f)])));
  const built = () => CONSOLE_FILES.every((f) => existsSync(join(dist, f)));
  app.get(`${assets.prefix}/:version/:name`, (c) => {
    if (!built()) return c.json({ message: 'not found' }, 404);
    return assets.answer(c.req.raw, c.req.param('version'), c.req.param('name'));
  });
  app.get('/', async (c: Context, next) => {
    if (!wantsHtml(c.req.header('accept'))) return next();
    const headers = {
      'content-security-policy': consoleCsp(c.req.header('host')),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
      vary: 'accept',
    };
    if (!built()) return c.html(missingBundlePage(BUILD_CONSOLE_COMMAND), 503, headers);
    const base = site.basePath;
    return c.html(consolePage({ base, script: `${base}${assets.urlOf('console.js')}`, style: `${base}${assets.urlOf('console.css')}` }), 200, headers);
  });
}
