import {
  bareEvent, correlatedEvent, errorEvent, MEDIA_DIRECTIONS, parseCommand, statusEvent, type MediaDirection,
} from '../media/ws-media-protocol.js';
import type { WebSocketSession } from './websocket-media-session.js';

/** What a command needs from the channel's side. */
export interface CommandPort {
  /** ANSWER: answers a channel still being dialed. */
  answer(s: WebSocketSession): void;
  /** HANGUP: the application ends the call. */
  hangup(s: WebSocketSession): void;
  send(s: WebSocketSession, text: string): void;
  /** A command we do not know (chan_websocket only logs those). */
  unknown(s: WebSocketSession, command: string): void;
}

/** Commands that work on the queue of received audio: refused in passthrough mode. */
const QUEUE_COMMANDS = new Set(['START_MEDIA_BUFFERING', 'STOP_MEDIA_BUFFERING', 'MARK_MEDIA', 'FLUSH_MEDIA', 'REPORT_QUEUE_DRAINED', 'PAUSE_MEDIA', 'CONTINUE_MEDIA', 'SET_MEDIA_DIRECTION']);
/** Commands about audio the application sends: refused while it only listens (direction in). */
const SENDING_COMMANDS = new Set(['START_MEDIA_BUFFERING', 'STOP_MEDIA_BUFFERING', 'MARK_MEDIA', 'PAUSE_MEDIA', 'CONTINUE_MEDIA']);

/** Carries out one text frame from the application. */
export function runCommand(s: WebSocketSession, text: string, port: CommandPort): void {
  const c = parseCommand(text, s.ctx.format);
  if (c === null) return;
  const error = (msg: string) => port.send(s, errorEvent(s.ctx, msg));
  if ('error' in c) return error(c.error);
  const q = s.queue;
  if (q.passthrough && QUEUE_COMMANDS.has(c.command)) return error(`${c.command} not supported in passthrough mode`);
  if (s.direction === 'in' && SENDING_COMMANDS.has(c.command)) return error(`${c.command} not supported while the media direction is in`);
  switch (c.command) {
    case 'ANSWER':
      return port.answer(s);
    case 'HANGUP':
      return port.hangup(s);
    case 'START_MEDIA_BUFFERING':
      q.bulk = true;
      return;
    case 'STOP_MEDIA_BUFFERING':
      if (q.stopBuffering(correlatedEvent(s.ctx, 'MEDIA_BUFFERING_COMPLETED', c.correlationId))) port.send(s, bareEvent(s.ctx, 'MEDIA_XOFF'));
      return;
    case 'MARK_MEDIA':
      if (!q.mark(correlatedEvent(s.ctx, 'MEDIA_MARK_PROCESSED', c.correlationId))) error('Too many marks are waiting');
      return;
    case 'FLUSH_MEDIA':
      return q.flush();
    case 'REPORT_QUEUE_DRAINED':
      q.reportDrained = true;
      return;
    case 'GET_STATUS':
      return port.send(s, statusEvent(s.ctx, { length: q.length, full: q.full, bulk: q.bulk, paused: q.paused }));
    case 'PAUSE_MEDIA':
    case 'CONTINUE_MEDIA':
      q.paused = c.command === 'PAUSE_MEDIA';
      return;
    case 'SET_MEDIA_DIRECTION':
      if (!c.direction || !(MEDIA_DIRECTIONS as readonly string[]).includes(c.direction)) {
        return error(`SET_MEDIA_DIRECTION needs a direction of in, out or both, not '${c.direction ?? ''}'`);
      }
      s.direction = c.direction as MediaDirection;
      return;
    default:
      port.unknown(s, c.command);
  }
}
