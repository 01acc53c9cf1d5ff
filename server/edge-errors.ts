import { ARI_ERRORS } from './ari/http/errors.js';
import { giteaErrors } from './gitea/http/errors.js';

/** Paths that belong to the ARI dialect (ARI itself and the simulation API beside it). */
export function isAriPath(path: string): boolean {
  return path === '/ari' || path.startsWith('/ari/') || path === '/sim' || path.startsWith('/sim/');
}

/**
 * Upgrades ARI owns: its event socket, and the media sockets that sit beside
 * /ari (`/media/<connection id>`). Plain HTTP under /media stays out of this:
 * there it is a Gitea owner's path like any other.
 */
export function isAriUpgradePath(path: string): boolean {
  return isAriPath(path) || path.startsWith('/media/');
}

/**
 * The body of an answer given before any route is chosen (a cross-site request,
 * a request line or headers Node could not parse), in the dialect of the path
 * it was aimed at: ARI's `{message}` under /ari and /sim, Gitea's
 * `{message, url}` everywhere else (its API, git and LFS, downloads, `/`).
 * When the path cannot be known (headers that never finished: Node hands over
 * no bytes then), the answer is the bare `{message}` both dialects start with.
 */
export function edgeErrorBody(path: string | undefined, message: string, swaggerUrl: string, isAri: (path: string) => boolean = isAriPath): object {
  return path === undefined || isAri(path) ? ARI_ERRORS.body(message) : giteaErrors({ swaggerUrl }).body(message);
}
