import type { GiteaBinder } from '../http/gitea-bind.js';
import type { Gitea } from '../gitea.js';

/** /editorconfig (to be implemented). */
export function mountEditorConfig(_b: GiteaBinder, _g: Gitea): void {}
