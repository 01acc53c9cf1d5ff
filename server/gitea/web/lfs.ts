import type { Hono } from 'hono';
import type { Gitea } from '../gitea.js';
import type { GiteaMountOptions } from '../mount.js';

/** The LFS API at `/{owner}/{repo}.git/info/lfs/` (to be implemented). */
export function mountLfs(_app: Hono<any>, _g: Gitea, _opts: GiteaMountOptions): void {}
