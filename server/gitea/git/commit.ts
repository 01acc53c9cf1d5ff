/** A person and moment as git stores them on a commit. */
export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  when: number;
  /** Offset from UTC in minutes (east positive), as written in the commit. */
  tzMinutes: number;
}

/** A parsed commit object. */
export interface Commit {
  sha: string;
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
  /** Signed commits carry a `gpgsig` header. */
  signature?: string;
}

const SIG = /^(.*) <(.*)> (-?\d+) ([+-])(\d{2})(\d{2})$/;

function parseSignature(s: string): Signature {
  const m = SIG.exec(s);
  if (!m) return { name: s, email: '', when: 0, tzMinutes: 0 };
  const tz = (Number(m[5]) * 60 + Number(m[6])) * (m[4] === '-' ? -1 : 1);
  return { name: m[1]!, email: m[2]!, when: Number(m[3]), tzMinutes: tz };
}

/** Parses a commit object's content. */
export function parseCommit(sha: string, data: Buffer): Commit {
  const text = data.toString('utf8');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const message = end < 0 ? '' : text.slice(end + 2);
  const c: Commit = { sha, tree: '', parents: [], author: parseSignature(''), committer: parseSignature(''), message };
  let last = '';
  for (const line of head.split('\n')) {
    if (line.startsWith(' ')) {
      if (last === 'gpgsig') c.signature = `${c.signature ?? ''}\n${line.slice(1)}`;
      continue;
    }
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const val = line.slice(sp + 1);
    last = key;
    if (key === 'tree') c.tree = val;
    else if (key === 'parent') c.parents.push(val);
    else if (key === 'author') c.author = parseSignature(val);
    else if (key === 'committer') c.committer = parseSignature(val);
    else if (key === 'gpgsig') c.signature = val;
  }
  return c;
}

/** What git calls crud: whitespace, control characters and `.,:;<>"\\'` at either end of a name or email. */
const CRUD = /^[\x00-\x20.,:;<>"\\']+|[\x00-\x20.,:;<>"\\']+$/g;

/**
 * An identity part as git writes it (ident.c's strbuf_addstr_without_crud):
 * crud stripped from both ends, then `<`, `>` and line feeds dropped. A NUL
 * cannot be stored at all, so it goes too.
 */
export const cleanIdent = (s: string) => s.replace(CRUD, '').replace(/[<>\n\0]/g, '');

function formatTz(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** An author or committer line as git writes it: name, email, time and zone. */
export function formatSignature(s: Signature): string {
  return `${cleanIdent(s.name)} <${cleanIdent(s.email)}> ${s.when} ${formatTz(s.tzMinutes)}`;
}

/** Serialises a commit object (without signature). */
export function formatCommit(c: Omit<Commit, 'sha' | 'signature'>): Buffer {
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`), `author ${formatSignature(c.author)}`, `committer ${formatSignature(c.committer)}`];
  return Buffer.from(`${lines.join('\n')}\n\n${c.message}`, 'utf8');
}
