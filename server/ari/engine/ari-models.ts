import type { ModelOf } from '../../../protocol/model.js';
import type { Bridge } from '../../../protocol/ari/models/bridge.js';
import type { Channel, RTPstat } from '../../../protocol/ari/models/channel.js';
import type { Endpoint } from '../../../protocol/ari/models/endpoint.js';
import type { LiveRecording, Playback } from '../../../protocol/ari/models/media.js';
import type { EVENTS, EventType } from '../../../protocol/ari/events/index.js';
import type { SimChannel } from '../../../protocol/sim/models.js';

// The engine's output, typed by what protocol/ declares: the converters (channel snapshots,
// Bridges.json, Playback.json, LiveRecording.json, rtpStatistics, FarEnd.view) return these, so
// routes hand them on without casts and a field that drifts from the declaration fails to compile.

/** An ARI Channel. */
export type AriChannel = ModelOf<typeof Channel>;
/** An ARI Bridge. */
export type AriBridge = ModelOf<typeof Bridge>;
/** An ARI Endpoint. */
export type AriEndpoint = ModelOf<typeof Endpoint>;
/** An ARI Playback. */
export type AriPlayback = ModelOf<typeof Playback>;
/** An ARI LiveRecording. */
export type AriLiveRecording = ModelOf<typeof LiveRecording>;
/** An ARI RTPstat. */
export type AriRtpStat = ModelOf<typeof RTPstat>;
/** The simulator's view of a live channel. */
export type SimChannelView = ModelOf<typeof SimChannel>;

type EventDefOf<T extends EventType> = Extract<(typeof EVENTS)[number], { type: T }>;
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The own properties of event `T` (without the envelope the outbox adds), as protocol/ declares them. */
export type EventProps<T extends EventType> = ModelOf<EventDefOf<T>['model']>;

/** Event types that carry a `channel`. */
export type ChannelEventType = { [T in EventType]: 'channel' extends keyof EventProps<T> ? T : never }[EventType];

/** A channel event's properties besides `channel` (which the engine fills in from the snapshot). */
export type ChannelEventProps<T extends ChannelEventType> = OmitEach<EventProps<T>, 'channel'>;
