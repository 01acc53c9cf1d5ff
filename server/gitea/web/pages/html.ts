import { AssetBundle } from '../../../http/asset-bundle.js';
import { join } from 'node:path';

/** Text made safe for HTML content and attribute values. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A piece of markup already escaped (what the view functions build and join). */
export type Html = string;

/** The pages' one stylesheet, served from memory under a content-hashed URL. */
export const pageAssets = new AssetBundle('/assets/pages', { 'pages.css': join(import.meta.dirname, 'pages.css') });

/**
 * Scripts are not allowed at all: the pages are plain documents. Images come
 * from this server only (a file shown inline is fetched from its raw URL).
 * Forms may post only where the page says (none but the sign-in and consent
 * pages have any); a form whose answer redirects elsewhere (the consent page
 * sends the browser on to the client) must name that place too.
 */
const csp = (formAction: string) =>
  ["default-src 'none'", "style-src 'self'", "img-src 'self'", "base-uri 'none'", `form-action ${formAction}`, "frame-ancestors 'none'"].join('; ');

/** One link of a page's trail. */
export interface Crumb {
  text: string;
  href?: string;
}

/** A whole page: the trail of links at the top, then the body; `formAction` is the CSP source list its forms may post to. */
export function pageResponse(basePath: string, title: string, crumbs: readonly Crumb[], body: Html, status = 200, formAction = "'none'"): Response {
  const trail = crumbs.map((c) => (c.href ? `<a href="${esc(c.href)}">${esc(c.text)}</a>` : `<span>${esc(c.text)}</span>`)).join('<span class="sep">/</span>');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Trunkline</title>
<link rel="stylesheet" href="${esc(basePath + pageAssets.urlOf('pages.css'))}">
</head>
<body>
<header><a class="home" href="${esc(basePath || '/')}">Trunkline</a><nav class="trail">${trail}</nav></header>
<main>
${body}
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp(formAction),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  });
}

/** Bytes as a person reads them (B, KiB, MiB). */
export function humanSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
