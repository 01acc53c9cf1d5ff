import type { Hono } from 'hono';
import type { Gitea } from '../gitea.js';

/** `/{owner}/{repo}/raw/{branch|tag|commit}/{ref}/{path}`: what download_url points to (to be implemented). */
export function mountDownload(_app: Hono<any>, _g: Gitea): void {}
