export interface Party {
  name: string;
  number: string;
}

const NUMBER = /^[+0-9*#()\-. ]+$/;

/** Strips the formatting characters Asterisk's shrink removes from a number ("(555) 123-4567" → "5551234567"). */
function shrink(num: string): string {
  return /^[+0-9()\-. ]+$/.test(num) ? num.replace(/[()\-. ]/g, '') : num;
}

/**
 * Parses a caller ID the way Asterisk's callerid parser does: `"Name" <num>`,
 * `Name <num>`, `<num>`, a bare number, or a bare name.
 */
export function parseCallerId(input: string): Party {
  const s = input.trim();
  const lt = s.lastIndexOf('<');
  const gt = s.lastIndexOf('>');
  if (lt >= 0 && gt > lt) {
    let name = s.slice(0, lt).trim();
    if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) name = name.slice(1, -1);
    return { name, number: shrink(s.slice(lt + 1, gt).trim()) };
  }
  if (s.startsWith('"') && s.endsWith('"') && s.length >= 2) return { name: s.slice(1, -1), number: '' };
  if (NUMBER.test(s)) return { name: '', number: shrink(s) };
  return { name: s, number: '' };
}

/** `"Name" <number>` as CALLERID(all) reads. */
export function formatCallerId(p: Party): string {
  if (p.name && p.number) return `"${p.name}" <${p.number}>`;
  if (p.number) return `<${p.number}>`;
  return p.name ? `"${p.name}"` : '';
}
