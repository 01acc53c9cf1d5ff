import * as v from 'valibot';
import { parseGoDuration } from '../util/go-duration.js';

/** An integer setting between `min` and `max`; the messages name the setting. */
export const int = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^-?\d+$/, `${name} must be an integer`),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

// Environment switches take their own short, case-sensitive word list, unlike query parameters (server/http/parse-boolean.ts).
/** A true/false setting (`true`, `false`, `1`, `0`, `yes`, `no`). */
export const bool = (name: string) =>
  v.pipe(v.string(), v.picklist(['true', 'false', '1', '0', 'yes', 'no'], `${name} must be true or false`), v.transform((s) => ['true', '1', 'yes'].includes(s)));

/** A Go duration setting (`10m`, `8h`), as nanoseconds. */
export const goDuration = (name: string) =>
  v.pipe(
    v.string(),
    v.check((s) => 'ns' in parseGoDuration(s) && (parseGoDuration(s) as { ns: bigint }).ns >= 0n, `${name} must be a Go duration such as 10m or 8h`),
    v.transform((s) => (parseGoDuration(s) as { ns: bigint }).ns),
  );

/** The items of a comma-separated setting, trimmed, blanks dropped. */
export const commaList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
