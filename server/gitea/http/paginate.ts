import type { Site } from '../site.js';
import { Reply } from './gitea-bind.js';

/** Gitea's paging defaults: DEFAULT_PAGING_NUM and MAX_RESPONSE_ITEMS. */
export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 50;

/** page ≤ 0 is 1; limit ≤ 0 is the default, and capped at the maximum. */
export function pageOf(page: number | undefined, limit: number | undefined): { page: number; limit: number } {
  return { page: !page || page <= 0 ? 1 : page, limit: !limit || limit <= 0 ? DEFAULT_PAGE_SIZE : Math.min(limit, MAX_PAGE_SIZE) };
}

/**
 * One page of `items` with Gitea's headers: `X-Total-Count`, and `Link`
 * (next, last, first, prev; joined by `,`) built from ROOT_URL and the
 * request URI, both exposed to browsers.
 */
export function paged<T>(all: readonly T[], url: URL, site: Site, page?: number, limit?: number): Reply<T[]> {
  const p = pageOf(page, limit);
  const items = all.slice((p.page - 1) * p.limit, p.page * p.limit);
  const total = all.length;
  const pages = Math.max(1, Math.ceil(total / p.limit));
  const link = (n: number, rel: string) => {
    const u = new URL(url.href);
    u.searchParams.set('page', String(n));
    return `<${site.rootUrl}${(u.pathname + u.search).slice(1)}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (p.page < pages) links.push(link(p.page + 1, 'next'));
  if (p.page < pages) links.push(link(pages, 'last'));
  if (p.page > 1) links.push(link(1, 'first'));
  if (p.page > 1) links.push(link(p.page - 1, 'prev'));
  const headers: Record<string, string> = { 'X-Total-Count': String(total) };
  const expose = ['X-Total-Count'];
  if (links.length) {
    headers.Link = links.join(',');
    expose.push('Link');
  }
  headers['Access-Control-Expose-Headers'] = expose.join(', ');
  return new Reply(200, items, headers);
}
