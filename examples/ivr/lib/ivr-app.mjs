import { callerOfAgent, IvrCall } from './ivr-call.mjs';

// Routes the Stasis application's events to the call they concern: a caller's channel has an
// IvrCall of its own; an agent's channel (called during a transfer) belongs to its caller's.
// Returns what the process needs at the end: shutdown(), which hangs up every call in progress
// and removes what the calls made.

/**
 * @param {object} client a connected ari-client (events arrive once client.start() has run)
 * @param {ReturnType<import('./config.mjs').readConfig>} config
 * @param {(line: string) => void} log
 */
export function serveIvr(client, config, log) {
  /** Calls in progress, by the caller's channel id. */
  const calls = new Map();
  const channelOf = (uri) => (uri?.startsWith('channel:') ? uri.slice('channel:'.length) : undefined);

  client.on('StasisStart', (event, channel) => {
    if (event.args[0] === 'agent') {
      const call = calls.get(event.args[1]);
      if (call) call.agentAnswered(channel.id);
      else client.channels.hangup({ channelId: channel.id }).catch(() => undefined); // the caller left meanwhile
      return;
    }
    const call = new IvrCall(client, config, channel.id, log);
    calls.set(channel.id, call);
    call.start();
  });

  client.on('StasisEnd', (event, channel) => {
    const call = calls.get(channel.id);
    if (call) {
      calls.delete(channel.id);
      call.ended();
    } else {
      calls.get(callerOfAgent(channel.id))?.agentGone(channel.id);
    }
  });

  // An agent that never answered leaves no StasisEnd, only this.
  client.on('ChannelDestroyed', (event, channel) => {
    calls.get(callerOfAgent(channel.id))?.agentGone(channel.id);
  });

  client.on('ChannelDtmfReceived', (event, channel) => calls.get(channel.id)?.digit(event.digit));

  client.on('PlaybackFinished', (event) => calls.get(channelOf(event.playback.target_uri))?.playbackFinished(event.playback.id));

  client.on('RecordingFinished', (event) => calls.get(channelOf(event.recording.target_uri))?.recordingEnded(event.recording.name, true));
  client.on('RecordingFailed', (event) => calls.get(channelOf(event.recording.target_uri))?.recordingEnded(event.recording.name, false));

  return {
    /** How many calls are in progress. */
    get size() {
      return calls.size;
    },
    /** Hangs up every call in progress and waits until each has removed its bridge and agent. */
    async shutdown() {
      const ending = [...calls.values()].map((call) => call.shutdown());
      calls.clear();
      await Promise.all(ending);
    },
  };
}
