const pad = (n: number, w = 2) => String(Math.trunc(Math.abs(n))).padStart(w, '0');

let lastMs = -1;
let lastText = '';

/** Asterisk's event/creation timestamp: local time with milliseconds and a `+hhmm` offset. */
export function ariTimestamp(ms: number): string {
  if (ms === lastMs) return lastText;
  lastMs = ms;
  lastText = format(ms);
  return lastText;
}

function format(ms: number): string {
  const d = new Date(ms);
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}${sign}${pad(off / 60)}${pad(off % 60)}`;
}

/** The instant an ariTimestamp stands for (its `+hhmm` offset read as `+hh:mm`). */
export function parseAriTimestamp(text: string): number {
  return Date.parse(text.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
}
