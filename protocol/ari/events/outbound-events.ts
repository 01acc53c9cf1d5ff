import { defineEvent } from './define-event.js';

// Outbound WebSockets (Asterisk 20.15, 21.10, 22.5): only the connections the server opens to an
// application get these; inbound event sockets never do.

export const ApplicationRegistered = defineEvent('ApplicationRegistered', 'Sent on a connection the server opened to an application (an outbound WebSocket), once for each application it serves, every time it connects or reconnects; a per-call connection gets it for its `<app>:<channel name>` application.', {});

export const ApplicationUnregistered = defineEvent('ApplicationUnregistered', 'Sent on a persistent outbound WebSocket for each of its applications when the server stops serving them there (it is shutting down), just before the connection closes.', {});
