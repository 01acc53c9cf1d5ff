import { formatSignature, type Signature } from './commit.js';
import { runGit } from './run.js';

/** A tag ref as git lists it: its name, the object it names (a tag object or a commit) and, for a tag object, what that tags. */
export interface TagRef {
  name: string;
  id: string;
  type: string;
  /** The tagged object of an annotated tag; empty for a lightweight one. */
  object: string;
}

/**
 * Every tag, in the order Gitea starts from before it sorts by tagger time: git's
 * `--sort=-*creatordate` (newest tagged commit first).
 */
export async function listTagRefs(gitDir: string): Promise<TagRef[]> {
  const { stdout } = await runGit(['for-each-ref', '--sort=-*creatordate', '--format=%(objecttype) %(objectname) %(object) %(refname)', 'refs/tags/'], { gitDir });
  const out: TagRef[] = [];
  for (const line of stdout.toString('utf8').split('\n')) {
    if (!line) continue;
    const [type, id, object, ref] = line.split(' ') as [string, string, string, string]; // ref names hold no spaces
    out.push({ name: ref.slice('refs/tags/'.length), id, type, object });
  }
  return out;
}

/** A tag message as `git tag -m` stores it: blank lines and trailing spaces tidied, `#` comment lines dropped, one final newline. */
export async function cleanTagMessage(message: string): Promise<string> {
  const { stdout } = await runGit(['stripspace', '--strip-comments'], { input: message });
  return stdout.toString('utf8');
}

/** An annotated tag object's content. */
export function formatTag(t: { object: string; type: string; tag: string; tagger: Signature; message: string }): Buffer {
  return Buffer.from(`object ${t.object}\ntype ${t.type}\ntag ${t.tag}\ntagger ${formatSignature(t.tagger)}\n\n${t.message}`, 'utf8');
}
