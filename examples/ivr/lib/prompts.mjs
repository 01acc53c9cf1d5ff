// What the IVR plays, as ARI media URIs. Every sound is one of the server's bundled sounds
// (Trunkline's fixtures/ari/sounds.json); the catalogue has no spoken "invalid option", so an
// invalid digit gets a short reorder-style tone instead.

export const GREETING = 'sound:welcome';
export const MENU = 'sound:press-1';
export const INVALID = 'tone:!480+620/500';
export const MESSAGE_INTRO = ['sound:vm-intro', 'sound:beep'];
export const MESSAGE_SAVED = 'sound:vm-goodbye';
export const GOODBYE = 'sound:goodbye';
export const HOLD_MUSIC = 'default';

/**
 * The silence that follows the menu prompt in the same playback: when it plays to its end the
 * caller has pressed nothing for that long. Waiting this way keeps the timeout on the server's
 * clock (the virtual one under test), where a timer of our own would run on the wall clock.
 */
export const menuWait = (seconds) => `tone:!0/${seconds * 1000}`;

/** The name the caller's message is stored under (`recording:NAME` plays it). */
export const messageName = (channelId) => `ivr-message-${channelId.replace(/[^A-Za-z0-9_-]/g, '-')}`;
