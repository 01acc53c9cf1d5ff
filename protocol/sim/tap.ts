import { defineModel, f } from '../model.js';
import { defineOperation, query } from '../operation.js';

// The event tap: a read-only copy of what applications' event sockets receive, for test harnesses.

/** Close code of a tap whose reader fell too far behind (WebSocket 1008, policy violation). */
export const TAP_SLOW_CLOSE_CODE = 1008;

export const SimTappedEvent = defineModel('SimTappedEvent', 'One event as an application\'s event socket received it, with the application it went to.', {
  app: f.string('The application whose socket the event went to.'),
  event: f.object('The event, byte for byte the frame that socket was sent (its type, timestamp, asterisk_id and application included).'),
});

/** The tap socket. Like ARI's event socket it is an upgrade, served by the WebSocket layer rather than the REST binding. */
export const simEventTap = defineOperation({
  resource: 'sim', method: 'GET', path: '/events', nickname: 'tapEvents',
  summary: 'Opens a read-only WebSocket that receives a copy of every event sent to the named applications\' event sockets: one SimTappedEvent JSON text frame each, in the order and at the moment the applications get them.',
  notes: `The tap is invisible to the applications: it registers none, serves none, claims no channel and does not count as one of their sockets (an originate into an application that only a tap follows is refused as for any unregistered one; drop_socket leaves the tap open). Only what reaches an application's socket is copied: events filtered out by the application's event filter, and events while it has no socket at all, are not. Events held back by a delay_events fault reach the tap when they reach the application. Frames sent over the tap are ignored. A tap that stops reading is closed with ${TAP_SLOW_CLOSE_CODE} once WS_MAX_BUFFERED_BYTES are waiting for it.`,
  params: {
    app: query.string({ description: 'Applications to follow, comma-separated or repeated (at most 73 characters each).', required: true, allowMultiple: true }),
    batch: query.boolean({ description: 'true: each frame is a JSON array of the SimTappedEvents produced in one turn of the server\'s event loop, in order (a new array starts past 1 MiB of text); for readers that draw what they receive. Default: one SimTappedEvent per frame.', default: false }),
  },
  responseClass: 'SimTappedEvent', response: null, success: 200,
  errors: [{ code: 400, reason: 'No app given, an application name longer than 73 characters, or a request that is not a WebSocket upgrade.' }],
  upgrade: { protocol: 'ari' },
});

export const simTapOperations = [simEventTap] as const;
