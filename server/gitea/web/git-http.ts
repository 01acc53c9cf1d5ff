import type { Hono } from 'hono';
import type { Gitea } from '../gitea.js';
import type { GiteaMountOptions } from '../mount.js';

/** Git smart HTTP at `/{owner}/{repo}.git` (to be implemented). */
export function mountGitHttp(_app: Hono<any>, _g: Gitea, _opts: GiteaMountOptions): void {}
