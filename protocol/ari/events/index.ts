import type { EventDef } from './define-event.js';
import { ApplicationMoveFailed, ApplicationReplaced } from './application-events.js';
import { CallBroadcast, CallClaimed } from './broadcast-events.js';
import * as ch from './channel-events.js';
import { DeviceStateChanged } from './device-events.js';
import * as ep from './endpoint-events.js';
import * as media from './media-events.js';
import { ApplicationRegistered, ApplicationUnregistered } from './outbound-events.js';
import { ChannelUserevent } from './user-events.js';
import { RESTResponse } from './rest-events.js';
import { BridgeAttendedTransfer, BridgeBlindTransfer, BridgeVideoSourceChanged } from './bridge-events.js';
import { ChannelTransfer } from './transfer-events.js';

export { Message, MissingParams, eventBaseFields } from './base.js';
export type { EventDef } from './define-event.js';
export { ENDPOINT_EVENT_MODELS } from './endpoint-events.js';
export { TRANSFER_EVENT_MODELS } from './transfer-events.js';
export { REST_MESSAGE_MODELS, REST_REQUEST_CONTENT_TYPES, REST_REQUEST_METHODS, RESTQueryStringParameter, RESTRequest } from './rest-events.js';

/**
 * Every event type the server can send. events.json is generated from this
 * list, and ari-client decodes a frame by looking its `type` up there, so an
 * event missing here would break clients: the emitter only accepts these.
 */
export const EVENTS = [
  ApplicationMoveFailed, ApplicationReplaced, BridgeAttendedTransfer, BridgeBlindTransfer, media.BridgeCreated, media.BridgeDestroyed, BridgeVideoSourceChanged, CallBroadcast, CallClaimed,
  ApplicationRegistered, ApplicationUnregistered,
  ch.ChannelCallerId, ch.ChannelConnectedLine, ch.ChannelCreated, ch.ChannelDestroyed, ch.ChannelDialplan,
  ch.ChannelDtmfReceived, ch.ChannelHangupRequest, ch.ChannelHold, ch.ChannelStateChange, ch.ChannelTalkingFinished,
  ch.ChannelTalkingStarted, ch.ChannelToneDetected, ChannelTransfer, ch.ChannelUnhold, ChannelUserevent, ch.ChannelVarset, DeviceStateChanged, ch.Dial, ch.StasisEnd, ch.StasisStart,
  media.ChannelEnteredBridge, media.ChannelLeftBridge, media.PlaybackContinuing, media.PlaybackFinished, media.PlaybackStarted,
  media.RecordingFailed, media.RecordingFinished, media.RecordingStarted, RESTResponse,
  ep.ContactStatusChange, ep.EndpointStateChange, ep.PeerStatusChange, ep.TextMessageReceived,
] as const satisfies readonly EventDef[];

export type EventType = (typeof EVENTS)[number]['type'];
export const EVENTS_BY_TYPE: ReadonlyMap<string, EventDef> = new Map(EVENTS.map((e) => [e.type, e]));
