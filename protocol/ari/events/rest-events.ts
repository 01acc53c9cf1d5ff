import { defineModel, f, optional } from '../../model.js';
import { defineEvent } from './define-event.js';

// REST over the event WebSocket (Asterisk 20.14, 21.9, 22.4): a client sends a RESTRequest as a
// text frame on /ari/events and gets a RESTResponse on the same socket. Asterisk lists these
// models in events.json; RESTResponse is also an event type, so clients that decode frames by
// their `type` know it.

/** The methods a RESTRequest may name, spelled exactly so (Asterisk matches them case-sensitively). */
export const REST_REQUEST_METHODS = ['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'] as const;

/** The body types a RESTRequest may carry. */
export const REST_REQUEST_CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** A name and value, both strings (a header, a query parameter). */
const nameValue = (what: string) => ({ name: f.string(`${what} name.`), value: f.string(`${what} value.`) });

export const RESTHeader = defineModel('RESTHeader', 'A name and value pair. Declared because Asterisk declares it; neither requests nor answers on the event WebSocket carry headers here.', nameValue('Header'));

export const RESTQueryStringParameter = defineModel('RESTQueryStringParameter', 'One query parameter of a RESTRequest.', nameValue('Parameter'));

export const RESTRequest = defineModel(
  'RESTRequest',
  'A REST call sent by the client as a text frame on the event WebSocket. It runs as the user the socket was opened by, through the same checks as over HTTP, and is answered with a RESTResponse on the same socket. Requests on one socket run one after another, in the order sent.',
  {
    type: f.oneOf(['RESTRequest'] as const, 'Always RESTRequest.'),
    transaction_id: optional(f.string('Any string, given back in the answer; lets a client tie several requests together.')),
    request_id: optional(f.string('Any string, given back in the answer; lets a client match the answer to this request.')),
    method: f.oneOf(REST_REQUEST_METHODS, 'HTTP method: GET, POST, HEAD, PUT, DELETE or OPTIONS (upper case).'),
    uri: f.string('The resource path below /ari, without a leading slash (channels/abc/answer), optionally followed by ?query.'),
    query_strings: optional(f.list(f.ref(RESTQueryStringParameter), 'Query parameters besides those in uri; where a name repeats, the later value counts.')),
    content_type: optional(f.oneOf(REST_REQUEST_CONTENT_TYPES, 'What message_body holds; required when message_body is not empty.')),
    message_body: optional(f.string('The request body as a string: JSON, or form fields that count as query parameters after query_strings.')),
  },
);

export const RESTResponse = defineEvent('RESTResponse', 'The answer to a RESTRequest, sent on the socket that made it, after the changes it made are stored and before the events they cause.', {
  transaction_id: f.string('The request\'s transaction_id, or an empty string.'),
  request_id: f.string('The request\'s request_id, or an empty string.'),
  status_code: f.int('HTTP status of the answer.'),
  reason_phrase: f.string('Words for the status.'),
  uri: f.string('The request\'s uri without its query string, or an empty string when the request had none.'),
  content_type: optional(f.string('Type of message_body (application/json); present with it.')),
  message_body: optional(f.string('The answer\'s body as a string, exactly what HTTP would have returned; absent when there is none.')),
});

/** Models events.json declares for REST over the socket besides the RESTResponse event. */
export const REST_MESSAGE_MODELS = [RESTHeader, RESTQueryStringParameter, RESTRequest] as const;
