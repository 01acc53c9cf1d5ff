import type { Signature } from './commit.js';

/** A parsed annotated tag object. */
export interface TagObject {
  object: string;
  type: string;
  tag: string;
  tagger: Signature | null;
  message: string;
}

const SIG = /^(.*) <(.*)> (-?\d+) ([+-])(\d{2})(\d{2})$/;

/** Parses an annotated tag object's content; a signature after the message is left out of it. */
export function parseTag(data: Buffer): TagObject {
  const text = data.toString('utf8');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  let message = end < 0 ? '' : text.slice(end + 2);
  const sig = message.indexOf('-----BEGIN PGP SIGNATURE-----');
  if (sig >= 0) message = message.slice(0, sig);
  const t: TagObject = { object: '', type: '', tag: '', tagger: null, message };
  for (const line of head.split('\n')) {
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const val = line.slice(sp + 1);
    if (key === 'object') t.object = val;
    else if (key === 'type') t.type = val;
    else if (key === 'tag') t.tag = val;
    else if (key === 'tagger') {
      const m = SIG.exec(val);
      t.tagger = m ? { name: m[1]!, email: m[2]!, when: Number(m[3]), tzMinutes: (Number(m[5]) * 60 + Number(m[6])) * (m[4] === '-' ? -1 : 1) } : null;
    }
  }
  return t;
}
