import { goQueryEscape } from '../../util/go-format.js';
import type { Site } from '../site.js';
import { Reply } from './bind.js';

/** Gitea's paging defaults: DEFAULT_PAGING_NUM and MAX_RESPONSE_ITEMS. */
export const DEFAULT_PAGE_SIZE = 30;
/** Gitea's MAX_RESPONSE_ITEMS default: the largest page a list answers with. */
export const MAX_PAGE_SIZE = 50;

/** page ≤ 0 is 1; limit ≤ 0 is the default, and capped at the maximum. */
export function pageOf(page: number | undefined, limit: number | undefined): { page: number; limit: number } {
  return { page: !page || page <= 0 ? 1 : page, limit: !limit || limit <= 0 ? DEFAULT_PAGE_SIZE : Math.min(limit, MAX_PAGE_SIZE) };
}

/**
 * Go's url.Values.Encode of the request's query with `page` set, keys sorted and each value
 * query-escaped: encoded once, and the page number put in its place for each link.
 */
function goEncoderWithPage(search: string): (page: number) => string {
  const params = new URLSearchParams(search);
  params.delete('page');
  const keys = [...new Set(params.keys()), 'page'].sort();
  const parts = keys.map((k) => (k === 'page' ? null : params.getAll(k).map((val) => `${goQueryEscape(k)}=${goQueryEscape(val)}`).join('&')));
  return (page) => parts.map((p) => p ?? `page=${page}`).join('&');
}

/**
 * Gitea's Link header (genAPILinks with its paginator): next, last, first,
 * prev, joined by `,`. The current page is clamped to the last page (a page
 * past the end links back into range), and each link is ROOT_URL plus the
 * request URI with `page` replaced and the query re-encoded as Go does.
 */
export function linkHeader(url: URL, site: Site, total: number, limit: number, requestedPage: number | undefined): string {
  const pages = total === 0 ? 1 : Math.ceil(total / limit);
  const current = Math.min(!requestedPage || requestedPage <= 0 ? 1 : requestedPage, pages);
  const hasNext = total > current * limit;
  const isLast = total === 0 || (total > (current - 1) * limit && !hasNext);
  // The router collapsed `//` and stripped a trailing `/` before routing; links use that path.
  const path = url.pathname.replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1');
  const query = goEncoderWithPage(url.search);
  const link = (n: number, rel: string) => `<${site.rootUrl}${path.slice(1)}?${query(n)}>; rel="${rel}"`;
  const links: string[] = [];
  if (hasNext) links.push(link(current + 1, 'next'));
  if (!isLast) links.push(link(pages, 'last'));
  if (current !== 1) links.push(link(1, 'first'));
  if (current > 1) links.push(link(current - 1, 'prev'));
  return links.join(',');
}

/**
 * Gitea's paging headers for a page of `total` items: `Link` (when there is
 * another page), `X-Total-Count`, any `extra` headers, all exposed to browsers.
 */
export function pageHeaders(url: URL, site: Site, total: number, limit: number, requestedPage: number | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  const link = linkHeader(url, site, total, limit, requestedPage);
  if (link) headers.Link = link;
  headers['X-Total-Count'] = String(total);
  Object.assign(headers, extra);
  headers['Access-Control-Expose-Headers'] = Object.keys(headers).join(', ');
  return headers;
}

/**
 * One page of `items` with Gitea's headers: `Link` (when there is another
 * page, and unless the handler does not set it, as Gitea's token list) and
 * `X-Total-Count`, both exposed to browsers in that order.
 */
export function paged<T>(all: readonly T[], url: URL, site: Site, page?: number, limit?: number, opts: { link?: boolean } = {}): Reply<T[]> {
  const p = pageOf(page, limit);
  const items = all.slice((p.page - 1) * p.limit, p.page * p.limit);
  const headers: Record<string, string> = {};
  const expose: string[] = [];
  const link = opts.link === false ? '' : linkHeader(url, site, all.length, p.limit, page);
  if (link) {
    headers.Link = link;
    expose.push('Link');
  }
  headers['X-Total-Count'] = String(all.length);
  expose.push('X-Total-Count');
  headers['Access-Control-Expose-Headers'] = expose.join(', ');
  return new Reply(200, items, headers);
}
