import { unprocessable } from '../errors.js';

const B64 = /[A-Za-z0-9+/]/;

/**
 * Go's base64.StdEncoding.DecodeString: padded standard alphabet, line feeds
 * and carriage returns skipped anywhere; a bad input is Go's error text with
 * the offset Go reports (422).
 */
export function decodeBase64(s: string): Buffer {
  const bad = (at: number) => unprocessable(`illegal base64 data at input byte ${at}`);
  const isNl = (c: string | undefined) => c === '\n' || c === '\r';
  let clean = '';
  let si = 0;
  while (si < s.length) {
    // One quantum of four characters, as Go's decodeQuantum reads it.
    let j = 0;
    let quantum = '';
    for (; j < 4; j++) {
      if (si === s.length) {
        if (j === 0) break;
        throw bad(si - j); // padding is required: a short last quantum is corrupt
      }
      const c = s[si++]!;
      if (isNl(c)) {
        j--;
        continue;
      }
      if (B64.test(c)) {
        quantum += c;
        continue;
      }
      if (c !== '=') throw bad(si - 1);
      // Padding: only as the third or fourth character, "==" after two.
      if (j < 2) throw bad(si - 1);
      if (j === 2) {
        while (si < s.length && isNl(s[si])) si++;
        if (si === s.length) throw bad(s.length);
        if (s[si] !== '=') throw bad(si - 1);
        si++;
      }
      while (si < s.length && isNl(s[si])) si++;
      if (si < s.length) throw bad(si); // anything after the padding
      clean += quantum;
      return Buffer.from(clean, 'base64');
    }
    clean += quantum;
  }
  return Buffer.from(clean, 'base64');
}
