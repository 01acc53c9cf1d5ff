/** The words a dialect reads as true and as false, in lower case. */
export interface BooleanWords {
  readonly yes: ReadonlySet<string>;
  readonly no: ReadonlySet<string>;
}

/**
 * Reads a boolean parameter, case-insensitively: true or false when it is one
 * of the dialect's words, undefined otherwise (the caller decides whether that
 * is an error or simply false). Surrounding blanks are the caller's business,
 * since the dialects differ on them. Environment switches (config.ts) take a
 * stricter, case-sensitive list and keep their own reader.
 */
export function parseBoolean(raw: string, words: BooleanWords): boolean | undefined {
  const s = raw.toLowerCase();
  if (words.yes.has(s)) return true;
  if (words.no.has(s)) return false;
  return undefined;
}
