/**
 * Go's encoding/json error for a malformed body, which Gitea puts in its 422
 * (`[]: invalid character 'x' looking for beginning of value`), derived from
 * where JSON.parse stopped.
 */
export function giteaJsonError(text: string, err: Error): string {
  const m = /position (\d+)/.exec(err.message);
  if (!m || /end of JSON input/i.test(err.message)) return 'unexpected end of JSON input';
  const pos = Number(m[1]);
  const ch = text[pos];
  if (ch === undefined) return 'unexpected end of JSON input';
  const shown = ch === "'" ? "\\'" : ch === '\n' ? '\\n' : ch;
  const before = text.slice(0, pos).trimEnd();
  const prev = before[before.length - 1];
  if (prev === undefined) return `invalid character '${shown}' looking for beginning of value`;
  if (prev === '{' || prev === ',') return `invalid character '${shown}' looking for beginning of object key string`;
  if (prev === ':' || prev === '[') return `invalid character '${shown}' looking for beginning of value`;
  return `invalid character '${shown}' after object key:value pair`;
}
