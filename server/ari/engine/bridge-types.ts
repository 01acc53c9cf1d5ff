import { badRequest } from '../../errors.js';

/** Type attributes Asterisk 22 knows for ARI bridges; other words in the list are ignored, as Asterisk does. */
export const BRIDGE_TYPES = ['mixing', 'holding', 'dtmf_events', 'proxy_media', 'video_sfu', 'video_single', 'sdp_label'] as const;

export type VideoMode = 'talker' | 'single' | 'sfu';

export interface BridgeKind {
  /** The attributes given that we know, in order. */
  types: string[];
  holding: boolean;
  videoMode: VideoMode;
}

/**
 * Reads a bridge's `type` list. Asterisk fails the create (a 500) when the
 * list names neither mixing nor holding, or both; bad input is a 400 here.
 * An absent or empty list means mixing. dtmf_events and proxy_media only
 * keep Asterisk from bridging media natively, which never happens here
 * (DTMF always reaches the applications), and sdp_label only labels SDP
 * streams, so those are kept but change nothing.
 */
export function parseBridgeType(type: string | undefined): BridgeKind {
  const words = (type || 'mixing').split(',').map((t) => t.trim());
  const types = words.filter((t): t is string => (BRIDGE_TYPES as readonly string[]).includes(t));
  const mixing = types.includes('mixing');
  const holding = types.includes('holding');
  if (mixing && holding) throw badRequest('A bridge cannot be both mixing and holding');
  if (!mixing && !holding) throw badRequest('Unable to create bridge: type names neither mixing nor holding');
  // The last video attribute wins, as Asterisk's parser overwrites the mode.
  let videoMode: VideoMode = 'talker';
  for (const t of types) {
    if (t === 'video_sfu') videoMode = 'sfu';
    else if (t === 'video_single') videoMode = 'single';
  }
  return { types, holding, videoMode };
}
