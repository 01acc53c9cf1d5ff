const TSPECIALS = new Set('()<>@,;:\\"/[]?=');
const isTokenChar = (c: number) => c > 0x20 && c < 0x7f && !TSPECIALS.has(String.fromCharCode(c));
const needsEncoding = (ch: string) => {
  const c = ch.codePointAt(0)!;
  return (c < 0x20 || c > 0x7e) && ch !== '\t';
};

/** Go's mime.FormatMediaType for one `filename` parameter. */
function formatParam(value: string): string {
  if ([...value].some(needsEncoding)) {
    let out = "filename*=utf-8''";
    for (const b of Buffer.from(value, 'utf8')) {
      const ch = String.fromCharCode(b);
      out += b <= 0x20 || b >= 0x7f || ch === '*' || ch === "'" || ch === '%' || TSPECIALS.has(ch) ? `%${b.toString(16).toUpperCase().padStart(2, '0')}` : ch;
    }
    return out;
  }
  if (value !== '' && [...value].every((ch) => isTokenChar(ch.charCodeAt(0)))) return `filename=${value}`;
  return `filename="${value.replace(/(["\\])/g, '\\$1')}"`;
}

/**
 * Gitea's httplib.EncodeContentDisposition: `inline; filename=a.txt`; a
 * name with characters outside printable ASCII gets an ASCII fallback
 * (those characters as `_`) plus RFC 2231 `filename*=utf-8''…`.
 */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  let safe = '';
  let encode = false;
  for (const ch of filename) {
    if (needsEncoding(ch)) {
      encode = true;
      safe += '_';
    } else safe += ch;
  }
  const plain = `${type}; ${formatParam(safe)}`;
  return encode ? `${plain}; ${formatParam(filename)}` : plain;
}
