/**
 * The text side of a media WebSocket (chan_websocket): the commands an
 * application sends and the events we answer with, in either of the two
 * control formats. `plain-text` is one line, the event name followed by
 * `key:value` words; `json` is one object with `event` (ours) or `command`
 * (the application's) first. Binary frames carry the audio and are not
 * read here.
 */

export type ControlFormat = 'plain-text' | 'json';

export const CONTROL_FORMATS: readonly ControlFormat[] = ['plain-text', 'json'];

/** Queue levels reported in STATUS: XOFF at 900 queued frames, XON again below 800, nothing taken at 1000. */
export const QUEUE_MAX = 1000;
export const QUEUE_XOFF = 900;
export const QUEUE_XON = 800;

/** Longest text frame read as a command; longer ones are ignored. */
export const MAX_COMMAND_LENGTH = 128;

/**
 * Which way media flows, seen from the application (SET_MEDIA_DIRECTION, the
 * `d()` dial option): `in` it only hears the channel (what it sends is
 * dropped), `out` it only speaks (we send it no audio), `both` the default.
 */
export type MediaDirection = 'in' | 'out' | 'both';

export const MEDIA_DIRECTIONS: readonly MediaDirection[] = ['in', 'out', 'both'];

/** One command from the application (its argument: the correlation id, or the direction), or why it could not be read. */
export type MediaCommand = { command: string; correlationId: string | undefined; direction: string | undefined } | { error: string } | null;

/** Reads a text frame: null for an empty or over-long one (ignored), an error for JSON that does not parse. */
export function parseCommand(text: string, format: ControlFormat): MediaCommand {
  if (text.length === 0 || text.length > MAX_COMMAND_LENGTH) return null;
  const line = text.trim();
  if (format === 'json') {
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      return { error: 'Unable to parse JSON command' };
    }
    const o = obj !== null && typeof obj === 'object' ? (obj as Record<string, unknown>) : {};
    const command = typeof o.command === 'string' ? o.command : '';
    const correlationId = typeof o.correlation_id === 'string' ? o.correlation_id : undefined;
    return { command, correlationId, direction: typeof o.direction === 'string' ? o.direction : undefined };
  }
  const space = line.indexOf(' ');
  if (space < 0) return { command: line, correlationId: undefined, direction: undefined };
  // The one argument plain text carries: a bare value, or written as `direction:<value>` like our events' fields.
  const arg = line.slice(space + 1);
  return { command: line.slice(0, space), correlationId: arg, direction: arg.replace(/^direction:/, '') };
}

/** What every event is about. */
export interface EventContext {
  format: ControlFormat;
  channelId: string;
}

/** The MEDIA_START event's fields. */
export interface MediaStart {
  connectionId: string;
  channel: string;
  format: string;
  optimalFrameSize: number;
  ptime: number;
  /** Only the JSON form carries the channel's variables. */
  variables: Record<string, string>;
}

const bool = (b: boolean) => (b ? 'true' : 'false');

/** MEDIA_START: sent once the socket is open, before anything else. */
export function mediaStartEvent(c: EventContext, s: MediaStart): string {
  if (c.format === 'json') {
    return JSON.stringify({
      event: 'MEDIA_START', connection_id: s.connectionId, channel: s.channel, channel_id: c.channelId, format: s.format,
      optimal_frame_size: s.optimalFrameSize, ptime: s.ptime, channel_variables: s.variables,
    });
  }
  return `MEDIA_START connection_id:${s.connectionId} channel:${s.channel} channel_id:${c.channelId} format:${s.format} optimal_frame_size:${s.optimalFrameSize} ptime:${s.ptime}`;
}

/** Events without fields of their own: MEDIA_XOFF, MEDIA_XON, QUEUE_DRAINED. */
export function bareEvent(c: EventContext, event: 'MEDIA_XOFF' | 'MEDIA_XON' | 'QUEUE_DRAINED'): string {
  return c.format === 'json' ? JSON.stringify({ event, channel_id: c.channelId }) : event;
}

/** MEDIA_BUFFERING_COMPLETED and MEDIA_MARK_PROCESSED, with the id the command gave (if any). */
export function correlatedEvent(c: EventContext, event: 'MEDIA_BUFFERING_COMPLETED' | 'MEDIA_MARK_PROCESSED', id: string | undefined): string {
  if (c.format === 'json') return JSON.stringify({ event, channel_id: c.channelId, correlation_id: id ?? '' });
  return id ? `${event} ${id}` : event;
}

/** DTMF_END: a digit sent to the channel. */
export function dtmfEvent(c: EventContext, digit: string): string {
  if (c.format === 'json') return JSON.stringify({ event: 'DTMF_END', channel_id: c.channelId, digit });
  return `DTMF_END digit:${digit} channel_id:${c.channelId}`;
}

/** The queue's state, answering GET_STATUS. */
export interface QueueStatus {
  length: number;
  full: boolean;
  bulk: boolean;
  paused: boolean;
}

export function statusEvent(c: EventContext, s: QueueStatus): string {
  if (c.format === 'json') {
    return JSON.stringify({
      event: 'STATUS', channel_id: c.channelId, queue_length: s.length, xon_level: QUEUE_XON, xoff_level: QUEUE_XOFF,
      queue_full: s.full, bulk_media: s.bulk, media_paused: s.paused,
    });
  }
  return `STATUS channel_id:${c.channelId} queue_length:${s.length} xon_level:${QUEUE_XON} xoff_level:${QUEUE_XOFF} queue_full:${bool(s.full)} bulk_media:${bool(s.bulk)} media_paused:${bool(s.paused)}`;
}

/** ERROR: a command that could not be carried out. */
export function errorEvent(c: EventContext, text: string): string {
  if (c.format === 'json') return JSON.stringify({ event: 'ERROR', channel_id: c.channelId, error_text: text });
  return `ERROR channel_id:${c.channelId} error_text:${text}`;
}

/** The WebSocket dial options `transport_data` may carry: c(codec), d(direction), f(format), n, p, v(name=value,...). */
export interface DialOptions {
  codec?: string;
  direction?: MediaDirection;
  format?: ControlFormat;
  noAutoAnswer: boolean;
  passthrough: boolean;
  uriParams?: string;
}

/** Parses dial options; undefined when they do not parse (an unknown letter, an unclosed parenthesis, a bad d() or v() value). */
export function parseDialOptions(text: string | undefined): DialOptions | undefined {
  const o: DialOptions = { noAutoAnswer: false, passthrough: false };
  const s = text ?? '';
  let i = 0;
  while (i < s.length) {
    const letter = s[i++]!;
    let arg: string | undefined;
    if (s[i] === '(') {
      const close = s.indexOf(')', i);
      if (close < 0) return undefined;
      arg = s.slice(i + 1, close);
      i = close + 1;
    }
    if (letter === 'n' && arg === undefined) o.noAutoAnswer = true;
    else if (letter === 'p' && arg === undefined) o.passthrough = true;
    else if (letter === 'f' && arg !== undefined) {
      // Asterisk falls back to plain text for a value it does not know; so do we.
      o.format = (CONTROL_FORMATS as readonly string[]).includes(arg.toLowerCase()) ? (arg.toLowerCase() as ControlFormat) : 'plain-text';
    } else if (letter === 'v' && arg !== undefined && validUriParams(arg)) o.uriParams = arg.replace(/,/g, '&');
    else if (letter === 'd' && arg !== undefined && (MEDIA_DIRECTIONS as readonly string[]).includes(arg)) o.direction = arg as MediaDirection;
    else if (letter === 'c' && arg !== undefined) o.codec = arg;
    else return undefined;
  }
  return o;
}

/** name=value pairs, comma-separated, each part already URL-safe. */
function validUriParams(s: string): boolean {
  return s.split(',').every((pair) => pair.split('=').every((part) => /^(?:[A-Za-z0-9\-._~!$'()*+;:@/?]|%[0-9A-Fa-f]{2})*$/.test(part)));
}
