import type { WebSocket } from 'ws';
import type { AriUser } from '../../config.js';
import type { Logger } from '../../log.js';
import type { HoldingSink } from './holding-sink.js';
import { readRestFrame } from './rest-request-frame.js';
import { errorAnswer, runRestCall, type InvokeAsUser, type RestAnswer } from './run-rest-call.js';

/** What the REST requests of one event socket run with. */
export interface RestRequestsOptions {
  /** Who opened the socket: every request runs as this user. */
  user: AriUser;
  /** The upgrade's Host header (documents take their basePath from it). */
  host: string | undefined;
  invoke: InvokeAsUser;
  /** Builds the RESTResponse frame (addressed to the socket's first application). */
  frame: (answer: RestAnswer) => string;
  log: Logger;
}

/**
 * Frames read but not yet run, past which the socket is no longer read
 * until the backlog halves: a client that sends faster than its requests
 * run is held back by TCP, as it would be by Asterisk, which reads the next
 * request only once the last is answered.
 */
const MAX_WAITING = 64;

/** Asterisk's answer to a text frame that is not JSON: no body, and nothing of the request to echo. */
const UNREADABLE: RestAnswer = { transaction_id: '', request_id: '', uri: '', status_code: 400, reason_phrase: 'Failed to parse request message JSON' };

/**
 * Runs the RESTRequests a client sends on its event socket, one at a time in
 * the order sent, and answers each on the same socket. While a request runs
 * the socket's events are held back; its answer leaves first (its changes are
 * committed by then) and the events follow. Binary frames are ignored.
 */
export function serveRestRequests(ws: WebSocket, sink: HoldingSink, opts: RestRequestsOptions): void {
  const waiting: string[] = [];
  let running = false;
  let closed = false;

  ws.on('message', (data, isBinary) => {
    if (isBinary || closed) return;
    waiting.push(data.toString());
    if (waiting.length >= MAX_WAITING) ws.pause();
    if (running) return;
    running = true;
    run()
      .catch((err: unknown) => opts.log.error({ err }, 'REST requests over the event socket stopped'))
      .finally(() => (running = false));
  });
  ws.on('close', () => {
    closed = true;
    waiting.length = 0;
  });

  async function answer(text: string): Promise<RestAnswer> {
    const frame = readRestFrame(text);
    if (frame.kind === 'unreadable') return UNREADABLE;
    if (frame.kind === 'refused') return errorAnswer(frame.echo, 400, 'Bad request', frame.message);
    try {
      return await runRestCall(frame.call, frame.echo, opts.user, opts.host, opts.invoke);
    } catch (err) {
      // A fault of ours, not of the request: say so rather than leave the client waiting.
      opts.log.error({ err }, 'REST request over the event socket failed');
      return errorAnswer(frame.echo, 500, 'Internal Server Error', 'Internal Server Error');
    }
  }

  async function run(): Promise<void> {
    while (waiting.length && !closed) {
      const text = waiting.shift()!;
      sink.hold();
      let out: string | undefined;
      try {
        out = opts.frame(await answer(text));
      } finally {
        // A socket closed meanwhile takes nothing: the request's changes stand, as for an HTTP client gone before its answer.
        sink.release(out);
      }
      if (ws.isPaused && !closed && waiting.length <= MAX_WAITING / 2) ws.resume();
    }
  }
}
