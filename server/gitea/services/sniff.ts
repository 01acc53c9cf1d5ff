/**
 * Content sniffing as Gitea serves user files: Go's `http.DetectContentType`
 * (the WHATWG mimesniff subset it implements) refined by Gitea's typesniffer
 * (SVG, MP3 false positives, Ogg), then Gitea's rule for what is served under
 * which type: text as `text/plain` (so HTML is never rendered), images, PDF,
 * audio and video as themselves, everything else as octet-stream.
 */

const GO_SNIFF_LEN = 512;
/** Gitea reads this many bytes of a file to decide its type. */
export const SNIFF_LEN = 1024;

const isWs = (b: number) => b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
const bytes = (s: string) => Buffer.from(s, 'latin1');

type Sig = (data: Buffer, firstNonWs: number) => string;

/** A tag Go treats as HTML: case-insensitive, after leading whitespace, followed by a space or `>`. */
function htmlSig(tag: string): Sig {
  const pat = bytes(tag);
  return (data, ws) => {
    const d = data.subarray(ws);
    if (d.length < pat.length + 1) return '';
    for (let i = 0; i < pat.length; i++) {
      let db = d[i]!;
      const b = pat[i]!;
      if (b >= 0x41 && b <= 0x5a) db &= 0xdf;
      if (b !== db) return '';
    }
    const tt = d[pat.length]!;
    return tt === 0x20 || tt === 0x3e ? 'text/html; charset=utf-8' : '';
  };
}

function maskedSig(mask: string, pat: string, ct: string, skipWs = false): Sig {
  const m = bytes(mask);
  const p = bytes(pat);
  return (data, ws) => {
    const d = skipWs ? data.subarray(ws) : data;
    if (d.length < p.length) return '';
    for (let i = 0; i < p.length; i++) if ((d[i]! & m[i]!) !== p[i]) return '';
    return ct;
  };
}

function exactSig(pat: string, ct: string): Sig {
  const p = bytes(pat);
  return (data) => (data.length >= p.length && data.subarray(0, p.length).equals(p) ? ct : '');
}

const mp4Sig: Sig = (data) => {
  if (data.length < 12) return '';
  const boxSize = data.readUInt32BE(0);
  if (data.length < boxSize || boxSize % 4 !== 0) return '';
  if (data.toString('latin1', 4, 8) !== 'ftyp') return '';
  for (let st = 8; st < boxSize; st += 4) {
    if (st === 12) continue; // the major brand's version number
    if (data.toString('latin1', st, st + 3) === 'mp4') return 'video/mp4';
  }
  return '';
};

const textSig: Sig = (data, ws) => {
  for (let i = ws; i < data.length; i++) {
    const b = data[i]!;
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return '';
  }
  return 'text/plain; charset=utf-8';
};

const FF4 = '\xff\xff\xff\xff';
const RIFF_MASK = `${FF4}\x00\x00\x00\x00${FF4}`;

/** Go's sniffSignatures, in Go's order (first match wins). */
const SIGNATURES: Sig[] = [
  ...['<!DOCTYPE HTML', '<HTML', '<HEAD', '<SCRIPT', '<IFRAME', '<H1', '<DIV', '<FONT', '<TABLE', '<A', '<STYLE', '<TITLE', '<B', '<BODY', '<BR', '<P', '<!--'].map(htmlSig),
  maskedSig('\xff\xff\xff\xff\xff', '<?xml', 'text/xml; charset=utf-8', true),
  exactSig('%PDF-', 'application/pdf'),
  exactSig('%!PS-Adobe-', 'application/postscript'),
  maskedSig('\xff\xff\x00\x00', '\xfe\xff\x00\x00', 'text/plain; charset=utf-16be'),
  maskedSig('\xff\xff\x00\x00', '\xff\xfe\x00\x00', 'text/plain; charset=utf-16le'),
  exactSig('\xef\xbb\xbf', 'text/plain; charset=utf-8'),
  exactSig('\x00\x00\x01\x00', 'image/x-icon'),
  exactSig('\x00\x00\x02\x00', 'image/x-icon'),
  exactSig('BM', 'image/bmp'),
  exactSig('GIF87a', 'image/gif'),
  exactSig('GIF89a', 'image/gif'),
  maskedSig(`${FF4}\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff`, 'RIFF\x00\x00\x00\x00WEBPVP', 'image/webp'),
  exactSig('\x89PNG\x0d\x0a\x1a\x0a', 'image/png'),
  exactSig('\xff\xd8\xff', 'image/jpeg'),
  maskedSig(FF4, '.snd', 'audio/basic'),
  maskedSig(RIFF_MASK, 'FORM\x00\x00\x00\x00AIFF', 'audio/aiff'),
  maskedSig('\xff\xff\xff', 'ID3', 'audio/mpeg'),
  maskedSig('\xff\xff\xff\xff\xff', 'OggS\x00', 'application/ogg'),
  maskedSig('\xff\xff\xff\xff\xff\xff\xff\xff', 'MThd\x00\x00\x00\x06', 'audio/midi'),
  maskedSig(RIFF_MASK, 'RIFF\x00\x00\x00\x00AVI ', 'video/avi'),
  maskedSig(RIFF_MASK, 'RIFF\x00\x00\x00\x00WAVE', 'audio/wave'),
  mp4Sig,
  exactSig('\x1a\x45\xdf\xa3', 'video/webm'),
  maskedSig(`${'\x00'.repeat(34)}\xff\xff`, `${'\x00'.repeat(34)}LP`, 'application/vnd.ms-fontobject'),
  exactSig('\x00\x01\x00\x00', 'font/ttf'),
  exactSig('OTTO', 'font/otf'),
  exactSig('ttcf', 'font/collection'),
  exactSig('wOFF', 'font/woff'),
  exactSig('wOF2', 'font/woff2'),
  exactSig('\x1f\x8b\x08', 'application/x-gzip'),
  exactSig('PK\x03\x04', 'application/zip'),
  exactSig('Rar!\x1a\x07\x00', 'application/x-rar-compressed'),
  exactSig('Rar!\x1a\x07\x01\x00', 'application/x-rar-compressed'),
  exactSig('\x00asm', 'application/wasm'),
  textSig,
];

/** Go's http.DetectContentType. */
export function goDetectContentType(input: Buffer): string {
  const data = input.length > GO_SNIFF_LEN ? input.subarray(0, GO_SNIFF_LEN) : input;
  let ws = 0;
  while (ws < data.length && isWs(data[ws]!)) ws++;
  for (const sig of SIGNATURES) {
    const ct = sig(data, ws);
    if (ct) return ct;
  }
  return 'application/octet-stream';
}

const SVG_COMMENT = /<!--[\s\S]*?-->/g;
const SVG_TAG = /^\s*(?:(<!DOCTYPE\s+svg([\s:]+[\s\S]*?>|>))\s*)*<svg\b/i;
const SVG_TAG_IN_XML = /^<\?xml\b[\s\S]*?\?>\s*(?:(<!DOCTYPE\s+svg([\s:]+[\s\S]*?>|>))\s*)*<svg\b/i;

/** Gitea's typesniffer.DetectContentType: Go's answer, then SVG, MP3 and Ogg refinements. */
export function detectContentType(input: Buffer): string {
  if (input.length === 0) return 'text/unknown';
  let ct = goDetectContentType(input);
  const data = input.length > SNIFF_LEN ? input.subarray(0, SNIFF_LEN) : input;
  const byHtml = ct.includes('text/plain') || ct.includes('text/html');
  const byXml = ct.includes('text/xml');
  if (byHtml || byXml) {
    const text = data.toString('latin1').replace(SVG_COMMENT, '').trim();
    if ((byHtml && SVG_TAG.test(text)) || (byXml && SVG_TAG_IN_XML.test(text))) ct = 'image/svg+xml';
  }
  // Anything starting "ID3" sniffs as MP3; real audio is full of control bytes, so text after the prefix is text.
  if (ct.startsWith('audio/') && data.subarray(0, 3).toString('latin1') === 'ID3') {
    const ct2 = goDetectContentType(data.subarray(3));
    if (ct2.startsWith('text/')) ct = ct2;
  }
  if (ct === 'application/ogg') {
    const head = data.subarray(0, 256).toString('latin1');
    ct = head.includes('theora') || head.includes('dirac') ? 'video/ogg' : 'audio/ogg';
  }
  return ct;
}

/**
 * Gitea's charset.DetectEncoding, reduced to what needs no statistical
 * detector: UTF-8 (a character cut by the sniffing window still counts),
 * UTF-16 by its byte order mark, and Latin-1 for any other 8-bit text.
 */
export function detectCharset(data: Buffer): string {
  if (data.length >= 2 && data[0] === 0xfe && data[1] === 0xff) return 'utf-16be';
  if (data.length >= 2 && data[0] === 0xff && data[1] === 0xfe) return 'utf-16le';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data, { stream: true });
    return 'utf-8';
  } catch {
    return 'iso-8859-1';
  }
}

const browsable = (ct: string) => ['image/', 'application/pdf', 'video/', 'audio/'].some((p) => ct.includes(p));

/** How a user file is served: its Content-Type and Content-Security-Policy (Gitea's serve rules). */
export function userContentHeaders(head: Buffer): { contentType: string; csp: string } {
  const sniffed = detectContentType(head);
  let contentType: string;
  // SVG keeps its type, as in Gitea: the sandbox CSP below keeps its scripts from running.
  if (browsable(sniffed)) contentType = sniffed.split(';')[0]!;
  else if (sniffed.includes('text/')) contentType = `text/plain; charset=${detectCharset(head)}`;
  else contentType = 'application/octet-stream';
  // A PDF viewer does not render inside a sandbox (Gitea's PDF-RENDER-SANDBOX note); PDF scripts cannot escape the document.
  const csp = contentType === 'application/pdf' ? "default-src 'none'; style-src 'unsafe-inline'" : "default-src 'none'; style-src 'unsafe-inline'; sandbox";
  return { contentType, csp };
}
