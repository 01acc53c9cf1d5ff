import type { GiteaBinder } from '../http/gitea-bind.js';
import type { Gitea } from '../gitea.js';

/** /archive (to be implemented). */
export function mountArchive(_b: GiteaBinder, _g: Gitea): void {}
