import { goPathEscape, pathEscapeSegments } from '../../../util/go-format.js';
import type { RepositoryRow } from '../../../db/repos/repository-repo.js';
import type { UserRow } from '../../../db/repos/user-repo.js';
import type { Signature } from '../../git/commit.js';
import { refWebLinkPath, type RefCommit } from '../../services/refs.js';
import type { CommitView, DirView, FileView, SrcView } from '../../services/browse.js';
import { esc, humanSize, pageResponse, type Crumb, type Html } from './html.js';

/** Where links of a repository's pages start (path only: the page's own host serves them). */
export interface RepoLinks {
  basePath: string;
  owner: Pick<UserRow, 'name'>;
  row: Pick<RepositoryRow, 'name' | 'description' | 'default_branch' | 'is_private' | 'is_mirror' | 'is_archived'>;
}

/** A repository's home page. */
export const repoPath = (r: RepoLinks) => `${r.basePath}/${goPathEscape(r.owner.name)}/${goPathEscape(r.row.name)}`;
const srcUrl = (r: RepoLinks, ref: RefCommit, path: string) => `${repoPath(r)}/src/${refWebLinkPath(ref)}${path ? `/${pathEscapeSegments(path)}` : ''}`;
const rawUrl = (r: RepoLinks, ref: RefCommit, path: string) => `${repoPath(r)}/raw/${refWebLinkPath(ref)}/${pathEscapeSegments(path)}`;
/** A commit's page. */
export const commitUrl = (r: RepoLinks, sha: string) => `${repoPath(r)}/commit/${sha}`;

/** The trail to a repository: its owner, then itself. */
export function repoCrumbs(r: RepoLinks): Crumb[] {
  return [{ text: r.owner.name, href: `${r.basePath}/${goPathEscape(r.owner.name)}` }, { text: r.row.name, href: repoPath(r) }];
}

/** The trail from the repository through each directory of `path` (the last part not linked). */
function pathCrumbs(r: RepoLinks, ref: RefCommit, path: string): Crumb[] {
  const parts = path ? path.split('/') : [];
  const out = repoCrumbs(r);
  out.push({ text: ref.type === 'commit' ? ref.name.slice(0, 10) : ref.name, href: srcUrl(r, ref, '') });
  parts.forEach((p, i) => out.push(i === parts.length - 1 ? { text: p } : { text: p, href: srcUrl(r, ref, parts.slice(0, i + 1).join('/')) }));
  return out;
}

function badges(r: RepoLinks): Html {
  const b = [r.row.is_private && 'private', r.row.is_mirror && 'mirror', r.row.is_archived && 'archived'].filter(Boolean) as string[];
  return b.length ? ` <span class="muted">(${b.join(', ')})</span>` : '';
}

function dirTable(r: RepoLinks, ref: RefCommit, path: string, dir: DirView): Html {
  const rows = dir.entries.map((e) => {
    const full = path ? `${path}/${e.name}` : e.name;
    return `<tr><td class="type">${e.type}</td><td><a href="${esc(srcUrl(r, ref, full))}">${esc(e.name)}${e.type === 'dir' ? '/' : ''}</a></td></tr>`;
  });
  const more = dir.omitted ? `<p class="muted">${dir.omitted} more entries are not listed here; the API lists them all.</p>` : '';
  return dir.entries.length ? `<table class="entries"><tbody>${rows.join('')}</tbody></table>${more}` : '<p class="muted">This directory is empty.</p>';
}

/** Text with a number before each line (each line can be linked as #L{n}). */
function codeBlock(text: string): Html {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return `<pre class="code">${lines.map((l, i) => `<span id="L${i + 1}"><span class="ln">${i + 1}</span>${esc(l)}</span>`).join('\n')}</pre>`;
}

function fileBody(r: RepoLinks, ref: RefCommit, path: string, f: FileView): Html {
  const raw = esc(rawUrl(r, ref, path));
  const head = `<p class="muted">${humanSize(f.size)} · <a href="${raw}">raw</a></p>`;
  const s = f.show;
  if ('text' in s) return head + codeBlock(s.text);
  if ('image' in s) return `${head}<img class="shown" src="${raw}" alt="${esc(path)}">`;
  if ('lfs' in s) return `${head}<p>Stored with Git LFS: object <code>${esc(s.lfs.oid)}</code>, ${humanSize(s.lfs.size)}.</p>`;
  if ('tooLarge' in s) return `${head}<p>This file is too large to show here.</p>`;
  return `${head}<p>This is a binary file.</p>`;
}

/** A user's page: the repositories the caller may see. */
export function userPage(basePath: string, user: Pick<UserRow, 'name' | 'full_name'>, repos: readonly RepoLinks[]): Response {
  const items = repos.map((r) => `<li><a href="${esc(repoPath(r))}">${esc(r.row.name)}</a>${badges(r)}${r.row.description ? ` — ${esc(r.row.description)}` : ''}</li>`);
  const body = `<h1>${esc(user.name)}${user.full_name ? ` <span class="muted">${esc(user.full_name)}</span>` : ''}</h1>
${items.length ? `<ul class="repos">${items.join('')}</ul>` : '<p class="muted">No repositories to show.</p>'}`;
  return pageResponse(basePath, user.name, [{ text: user.name }], body);
}

/** A repository's home: its description, the default branch's root and its README. */
export function homePage(r: RepoLinks, home: { src: SrcView; readme: { name: string; file: FileView } | null } | null, branches: readonly string[]): Response {
  const title = `${r.owner.name}/${r.row.name}`;
  let body = `<h1>${esc(title)}${badges(r)}</h1>${r.row.description ? `<p>${esc(r.row.description)}</p>` : ''}`;
  if (!home) return pageResponse(r.basePath, title, repoCrumbs(r), `${body}<p class="muted">This repository is empty: nothing has been pushed yet.</p>`);
  const { src, readme } = home;
  const list = branches.map((b) => `<a href="${esc(srcUrl(r, { type: 'branch', name: b, commit: '', input: b }, ''))}">${esc(b)}</a>`).join(', ');
  body += `<p class="muted">Branch <strong>${esc(src.ref.name)}</strong> at <a href="${esc(commitUrl(r, src.ref.commit))}">${src.ref.commit.slice(0, 10)}</a> · branches: ${list}</p>`;
  if (src.view.kind === 'dir') body += dirTable(r, src.ref, '', src.view);
  if (readme) body += `<h2>${esc(readme.name)}</h2>${fileBody(r, src.ref, readme.name, readme.file)}`;
  return pageResponse(r.basePath, title, repoCrumbs(r), body);
}

/** A directory, a file, a link or a submodule at a ref. */
export function srcPage(r: RepoLinks, src: SrcView): Response {
  const { ref, path, view } = src;
  const where = `<p class="muted">${ref.type} <strong>${esc(ref.name)}</strong> · commit <a href="${esc(commitUrl(r, ref.commit))}">${ref.commit.slice(0, 10)}</a></p>`;
  let body: Html;
  if (view.kind === 'dir') body = dirTable(r, ref, path, view);
  else if (view.kind === 'file') body = fileBody(r, ref, path, view);
  else if (view.kind === 'symlink') body = `<p>Symbolic link to <code>${esc(view.target)}</code>.</p>`;
  else body = `<p>Submodule at commit <code>${esc(view.target)}</code>.</p>`;
  return pageResponse(r.basePath, `${path || '/'} · ${r.owner.name}/${r.row.name}`, pathCrumbs(r, ref, path), `${where}${body}`);
}

const when = (s: Signature) => {
  const sign = s.tzMinutes < 0 ? '-' : '+';
  const m = Math.abs(s.tzMinutes);
  const local = new Date((s.when + s.tzMinutes * 60) * 1000).toISOString().slice(0, 19).replace('T', ' ');
  return `${local} ${sign}${String(Math.floor(m / 60)).padStart(2, '0')}${String(m % 60).padStart(2, '0')}`;
};

/** Each diff line with the class of its kind (file header, hunk, added, removed). */
function diffBlock(diff: string): Html {
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  const cls = (l: string) =>
    l.startsWith('diff --git') ? 'file' : l.startsWith('@@') ? 'hunk' : l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : '';
  return `<pre class="diff">${lines.map((l) => `<span${cls(l) ? ` class="${cls(l)}"` : ''}>${esc(l) || ' '}</span>`).join('')}</pre>`;
}

/** A commit: message, people, parents and its diff. */
export function commitPage(r: RepoLinks, v: CommitView, diffUrl: string): Response {
  const c = v.commit;
  const [subject = '', ...rest] = c.message.replace(/\n+$/, '').split('\n');
  const parents = c.parents.map((p) => `<a href="${esc(commitUrl(r, p))}">${p.slice(0, 10)}</a>`).join(', ') || '<span class="muted">none (first commit)</span>';
  const body = `<h1>${esc(subject)}</h1>
${rest.join('\n').trim() ? `<div class="message">${esc(rest.join('\n').trim())}</div>` : ''}
<dl class="facts">
<dt>commit</dt><dd>${c.sha}</dd>
<dt>author</dt><dd>${esc(c.author.name)} &lt;${esc(c.author.email)}&gt; · ${when(c.author)}</dd>
<dt>committer</dt><dd>${esc(c.committer.name)} &lt;${esc(c.committer.email)}&gt; · ${when(c.committer)}</dd>
<dt>parents</dt><dd>${parents}</dd>
<dt>files</dt><dd><a href="${esc(srcUrl(r, { type: 'commit', name: c.sha, commit: c.sha, input: c.sha }, ''))}">browse at this commit</a> · <a href="${esc(diffUrl)}">.diff</a></dd>
</dl>
${v.diff === null ? '<p>This diff is too large to show here; the .diff link above has all of it.</p>' : v.diff ? diffBlock(v.diff) : '<p class="muted">No changes.</p>'}`;
  return pageResponse(r.basePath, `${subject} · ${r.owner.name}/${r.row.name}`, [...repoCrumbs(r), { text: `commit ${c.sha.slice(0, 10)}` }], body);
}

/** A page for an answer that is not 200: 404 and the like, in the same frame. */
export function errorPage(basePath: string, status: number, message: string): Response {
  return pageResponse(basePath, String(status), [], `<h1>${status}</h1><p>${esc(message)}</p>`, status);
}
