import { GOODBYE, GREETING, HOLD_MUSIC, INVALID, MENU, MESSAGE_INTRO, MESSAGE_SAVED, menuWait, messageName } from './prompts.mjs';

// One caller's way through the IVR. Every step runs on the call's own queue, one at a time and
// in the order its events arrived, so a digit pressed while a request is in flight, or a hangup
// in the middle of setting up a bridge, is handled after the step before it has finished, and
// the clean-up always sees every bridge and channel the call made.
//
// The states: `menu` (greeting, menu prompt or invalid-choice tone: a digit interrupts them),
// `message` (the record prompt), `recording`, `playback` (the message played back), `transfer`
// (music on hold while the agent's phone rings), `bridged`, `goodbye` and `ended`.

/** The menu's choices by digit; the one taken is left on the caller's channel as IVR_CHOICE. */
const CHOICES = { 1: 'message', 2: 'agent' };

/** The channel id the agent's call gets: the caller's with `-agent` after it. */
export const agentChannelId = (callerId) => `${callerId}-agent`;

/** The caller an agent channel was called for, or undefined for any other channel. */
export const callerOfAgent = (channelId) => (channelId.endsWith('-agent') ? channelId.slice(0, -'-agent'.length) : undefined);

export class IvrCall {
  /**
   * @param {object} client a connected ari-client
   * @param {ReturnType<import('./config.mjs').readConfig>} config
   * @param {string} channelId the caller's channel
   * @param {(line: string) => void} log where failures are reported
   */
  constructor(client, config, channelId, log) {
    this.client = client;
    this.config = config;
    this.id = channelId;
    this.log = log;
    this.state = 'menu';
    this.tries = 0;
    this.playbacks = 0;
    /** The playback whose end moves the call on, and what comes then. */
    this.current = null;
    this.agentId = null;
    this.bridgeId = null;
    this.recording = null;
    this.queue = Promise.resolve();
  }

  /** Runs `step` after every step queued before it; once the call has ended only clean-up steps run. */
  run(what, step, { evenWhenEnded = false } = {}) {
    this.queue = this.queue.then(async () => {
      if (this.state === 'ended' && !evenWhenEnded) return;
      try {
        await step();
      } catch (err) {
        // A request can lose a race with the caller hanging up; only other failures are news.
        if (this.state !== 'ended') this.log(`${this.id}: ${what} failed: ${err?.message ?? err}`);
      }
    });
    return this.queue;
  }

  /** StasisStart: answer and greet; the menu follows the greeting. */
  start() {
    this.run('answer', async () => {
      await this.client.channels.answer({ channelId: this.id });
      await this.play(GREETING, () => this.menu());
    });
  }

  /** A playback on this channel has ended (played out, stopped or failed). */
  playbackFinished(playbackId) {
    this.run('next step', async () => {
      if (this.current?.playbackId !== playbackId) return; // one we stopped ourselves
      const { then } = this.current;
      this.current = null;
      await then();
    });
  }

  /** The caller pressed a digit: it counts only at the menu, where it interrupts what is playing. */
  digit(digit) {
    this.run(`digit ${digit}`, async () => {
      if (this.state !== 'menu') return;
      await this.stopPrompt();
      const choice = CHOICES[digit];
      if (choice) await this.client.channels.setChannelVar({ channelId: this.id, variable: 'IVR_CHOICE', value: choice });
      if (choice === 'message') return this.leaveMessage();
      if (choice === 'agent') return this.transfer();
      this.tries += 1;
      await this.play(INVALID, () => (this.tries >= this.config.maxTries ? this.goodbye(GOODBYE) : this.menu()));
    });
  }

  async menu() {
    this.state = 'menu';
    await this.play([MENU, menuWait(this.config.menuTimeoutSeconds)], async () => {
      // The silence after the prompt played out: nothing was pressed in time.
      this.tries += 1;
      await (this.tries >= this.config.maxTries ? this.goodbye(GOODBYE) : this.menu());
    });
  }

  async leaveMessage() {
    this.state = 'message';
    await this.play(MESSAGE_INTRO, async () => {
      this.state = 'recording';
      this.recording = messageName(this.id);
      await this.client.channels.record({
        channelId: this.id,
        name: this.recording,
        format: 'wav',
        maxDurationSeconds: this.config.messageMaxSeconds,
        maxSilenceSeconds: this.config.messageMaxSilenceSeconds,
        terminateOn: '#',
        ifExists: 'overwrite',
        beep: false,
      });
    });
  }

  /** RecordingFinished or RecordingFailed of a recording on this channel. */
  recordingEnded(name, ok) {
    this.run('message playback', async () => {
      if (this.state !== 'recording' || name !== this.recording) return;
      if (!ok) return this.goodbye(GOODBYE);
      this.state = 'playback';
      await this.play(`recording:${name}`, () => this.goodbye(MESSAGE_SAVED));
    });
  }

  /** Transfer by bridging: hold music for the caller while the agent is called. */
  async transfer() {
    this.state = 'transfer';
    await this.client.channels.startMoh({ channelId: this.id, mohClass: HOLD_MUSIC });
    const agentId = agentChannelId(this.id);
    this.agentId = agentId;
    try {
      await this.client.channels.originate({
        endpoint: this.config.agentEndpoint,
        app: this.config.app,
        appArgs: `agent,${this.id}`,
        channelId: agentId,
        timeout: this.config.agentTimeoutSeconds,
      });
    } catch (err) {
      this.agentId = null;
      this.log(`${this.id}: calling ${this.config.agentEndpoint} failed: ${err?.message ?? err}`);
      await this.client.channels.stopMoh({ channelId: this.id });
      await this.goodbye(GOODBYE);
    }
  }

  /** The agent answered (its StasisStart): caller and agent meet in a mixing bridge. */
  agentAnswered(agentId) {
    this.run('bridge', async () => {
      if (this.state !== 'transfer' || agentId !== this.agentId) return;
      await this.client.channels.stopMoh({ channelId: this.id });
      this.bridgeId = `${this.id}-bridge`;
      await this.client.bridges.create({ type: 'mixing', bridgeId: this.bridgeId, name: `ivr ${this.id}` });
      await this.client.bridges.addChannel({ bridgeId: this.bridgeId, channel: `${this.id},${agentId}` });
      this.state = 'bridged';
    });
  }

  /** The agent's channel is gone: unanswered, it means goodbye; after the bridge, the call is over. */
  agentGone(agentId) {
    this.run('agent gone', async () => {
      if (agentId !== this.agentId) return;
      this.agentId = null;
      if (this.state === 'transfer') {
        await this.client.channels.stopMoh({ channelId: this.id });
        await this.goodbye(GOODBYE);
      } else if (this.state === 'bridged') {
        await this.hangup();
      }
    });
  }

  /** StasisEnd of the caller: whatever the call made goes with it. */
  ended() {
    this.state = 'ended';
    return this.run('clean-up', () => this.cleanUp(), { evenWhenEnded: true });
  }

  /** The app is stopping: clean up, then hang the caller up. */
  shutdown() {
    this.state = 'ended';
    return this.run('shutdown', async () => {
      await this.cleanUp();
      await this.hangup();
    }, { evenWhenEnded: true });
  }

  async goodbye(prompt) {
    this.state = 'goodbye';
    await this.play(prompt, () => this.hangup());
  }

  async hangup() {
    await this.client.channels.hangup({ channelId: this.id }).catch(() => undefined);
  }

  async cleanUp() {
    const agentId = this.agentId;
    const bridgeId = this.bridgeId;
    this.agentId = null;
    this.bridgeId = null;
    this.current = null;
    if (agentId) await this.client.channels.hangup({ channelId: agentId }).catch(() => undefined);
    if (bridgeId) await this.client.bridges.destroy({ bridgeId }).catch(() => undefined);
  }

  /** Starts a playback of one media URI or several in a row; `then` runs when it plays out. */
  async play(media, then) {
    this.playbacks += 1;
    const playbackId = `${this.id}-${this.playbacks}`;
    this.current = { playbackId, then };
    await this.client.channels.play({ channelId: this.id, playbackId, media: [media].flat().join(',') });
  }

  async stopPrompt() {
    const current = this.current;
    this.current = null;
    if (current) await this.client.playbacks.stop({ playbackId: current.playbackId }).catch(() => undefined);
  }
}
