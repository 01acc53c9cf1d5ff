import type { GiteaBinder } from '../http/gitea-bind.js';
import type { Gitea } from '../gitea.js';

/** /raw and /media (to be implemented). */
export function mountRaw(_b: GiteaBinder, _g: Gitea): void {}
