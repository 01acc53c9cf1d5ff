import type { Release } from '../../../../protocol/gitea/index.js';
import type { ModelOf } from '../../../../protocol/model.js';
import { pathEscapeSegments } from '../../../util/go-format.js';
import { esc, humanSize, pageResponse, type Crumb, type Html } from './html.js';
import { commitUrl, repoCrumbs, repoPath, type RepoLinks } from './repo-views.js';

type ReleaseJson = ModelOf<typeof Release>;

const releaseUrl = (r: RepoLinks, tag: string) => `${repoPath(r)}/releases/tag/${pathEscapeSegments(tag)}`;

function crumbs(r: RepoLinks, last?: string): Crumb[] {
  const out: Crumb[] = [...repoCrumbs(r), last ? { text: 'releases', href: `${repoPath(r)}/releases` } : { text: 'releases' }];
  if (last) out.push({ text: last });
  return out;
}

/** Draft and pre-release marks. */
function marks(rel: ReleaseJson): Html {
  const m = [rel.draft && 'draft', rel.prerelease && 'pre-release'].filter(Boolean) as string[];
  return m.length ? ` <span class="muted">(${m.join(', ')})</span>` : '';
}

/** The day a release came out (or was last edited, for a draft). */
const day = (rel: ReleaseJson) => (rel.published_at ?? rel.created_at).slice(0, 10);

/** A release's files as links to their downloads, with their sizes ('' when it has none). */
function assetLinks(rel: ReleaseJson): Html {
  if (!rel.assets.length) return '';
  const links = rel.assets.map((a) => `<li><a href="${esc(a.browser_download_url)}">${esc(a.name)}</a> <span class="muted">${humanSize(a.size)}</span></li>`);
  return `<ul class="assets">${links.join('')}</ul>`;
}

/** A repository's releases, newest first (`total` counts those not shown). */
export function releasesPage(r: RepoLinks, releases: readonly ReleaseJson[], total: number): Response {
  const items = releases.map(
    (rel) =>
      `<li><a href="${esc(releaseUrl(r, rel.tag_name))}">${esc(rel.name || rel.tag_name)}</a>${marks(rel)} <span class="muted">· tag <code>${esc(rel.tag_name)}</code> · ${day(rel)}</span>${assetLinks(rel)}</li>`,
  );
  const more = total > releases.length ? `<p class="muted">${total - releases.length} older releases are not listed here; the API lists them all.</p>` : '';
  const body = `<h1>Releases of ${esc(`${r.owner.name}/${r.row.name}`)}</h1>
${items.length ? `<ul class="repos">${items.join('')}</ul>${more}` : '<p class="muted">No releases yet.</p>'}`;
  return pageResponse(r.basePath, `Releases · ${r.owner.name}/${r.row.name}`, crumbs(r), body);
}

/** One release: its tag and commit, who published it and when, its notes (as text), its files and archives. */
export function releasePage(r: RepoLinks, rel: ReleaseJson, sha1: string): Response {
  const tagged = sha1
    ? `<a href="${esc(`${repoPath(r)}/src/tag/${pathEscapeSegments(rel.tag_name)}`)}">${esc(rel.tag_name)}</a> at <a href="${esc(commitUrl(r, sha1))}">${sha1.slice(0, 10)}</a>`
    : `${esc(rel.tag_name)} <span class="muted">(no such tag yet)</span>`;
  const downloads = sha1 ? `<dt>downloads</dt><dd><a href="${esc(rel.zipball_url)}">.zip</a> · <a href="${esc(rel.tarball_url)}">.tar.gz</a></dd>` : '';
  const body = `<h1>${esc(rel.name || rel.tag_name)}${marks(rel)}</h1>
<dl class="facts">
<dt>tag</dt><dd>${tagged}</dd>
<dt>author</dt><dd>${esc(rel.author.login)}</dd>
<dt>created</dt><dd>${esc(rel.created_at)}</dd>
<dt>published</dt><dd>${rel.published_at ? esc(rel.published_at) : '<span class="muted">not yet (draft)</span>'}</dd>
${downloads}
</dl>
<h2>Files</h2>
${assetLinks(rel) || '<p class="muted">No files.</p>'}
${rel.body ? `<div class="message">${esc(rel.body)}</div>` : '<p class="muted">No release notes.</p>'}`;
  return pageResponse(r.basePath, `${rel.name || rel.tag_name} · ${r.owner.name}/${r.row.name}`, crumbs(r, rel.tag_name), body);
}
