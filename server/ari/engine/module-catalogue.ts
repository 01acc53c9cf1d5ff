import type { SUPPORT_LEVELS } from '../../../protocol/ari/models/asterisk.js';

/** One module of the catalogue the server reports. */
export interface CatalogueModule {
  name: string;
  description: string;
  support: (typeof SUPPORT_LEVELS)[number];
  /** Modules it needs loaded: each of them counts it as a user while both are loaded. */
  needs?: readonly string[];
  /** It has configuration to read again (PUT reloads it); others answer 409. */
  reloads?: boolean;
  /** It serves the API this request arrives through, so it is never unloaded here. */
  servesAri?: boolean;
}

const ari = (name: string, what: string, needs: readonly string[] = []): CatalogueModule => ({
  name: `res_ari_${name}.so`, description: `ARI: ${what}`, support: 'core', needs: ['res_ari.so', 'res_ari_model.so', 'res_stasis.so', ...needs], servesAri: true,
});

/**
 * The modules this server reports, in name order: the Asterisk modules whose
 * features the simulation provides. It is fixed; loading a name outside it
 * is declined. Unloading one changes what the list reports and, for
 * res_pjsip.so, hides its configuration class; the features themselves stay
 * on (calls to PJSIP endpoints still work with chan_pjsip.so unloaded).
 */
export const MODULE_CATALOGUE: readonly CatalogueModule[] = [
  { name: 'app_dial.so', description: 'Dial(): calls endpoints from the dialplan', support: 'core' },
  { name: 'app_echo.so', description: 'Echo(): sends the caller\'s audio back', support: 'core' },
  { name: 'app_morsecode.so', description: 'Morsecode(): plays text as Morse tones', support: 'extended' },
  { name: 'app_playback.so', description: 'Playback(): plays sound files', support: 'core' },
  { name: 'app_stasis.so', description: 'Stasis(): hands a call to an ARI application', support: 'core', needs: ['res_stasis.so'] },
  { name: 'app_userevent.so', description: 'UserEvent(): raises a user event', support: 'core' },
  { name: 'app_voicemail.so', description: 'Voicemail and message-waiting counts', support: 'core', reloads: true },
  { name: 'bridge_holding.so', description: 'Holding bridges', support: 'core' },
  { name: 'bridge_simple.so', description: 'Two-party bridges', support: 'core' },
  { name: 'bridge_softmix.so', description: 'Mixing bridges for conferences', support: 'core' },
  { name: 'chan_pjsip.so', description: 'PJSIP channels (calls to and from PJSIP/<endpoint>)', support: 'core', needs: ['res_pjsip.so', 'res_pjsip_session.so'] },
  { name: 'codec_alaw.so', description: 'A-law transcoding', support: 'core' },
  { name: 'codec_ulaw.so', description: 'mu-law transcoding', support: 'core' },
  { name: 'format_pcm.so', description: 'Raw PCM, mu-law and A-law sound files', support: 'core' },
  { name: 'format_wav.so', description: 'WAV sound files', support: 'core' },
  { name: 'func_callerid.so', description: 'CALLERID() and related functions', support: 'core' },
  { name: 'func_channel.so', description: 'CHANNEL() and related functions', support: 'core' },
  { name: 'res_ari.so', description: 'ARI: the HTTP and WebSocket interface', support: 'core', needs: ['res_http_websocket.so', 'res_stasis.so'], reloads: true, servesAri: true },
  ari('applications', 'applications and their subscriptions'),
  ari('asterisk', 'the server, its modules, logging and configuration'),
  ari('bridges', 'bridges', ['res_stasis_playback.so', 'res_stasis_recording.so']),
  ari('channels', 'channels', ['res_stasis_answer.so', 'res_stasis_playback.so', 'res_stasis_recording.so', 'res_stasis_snoop.so']),
  ari('device_states', 'device states', ['res_stasis_device_state.so']),
  ari('endpoints', 'endpoints'),
  ari('events', 'the event WebSocket and user events'),
  ari('mailboxes', 'mailboxes', ['res_stasis_mailbox.so']),
  { name: 'res_ari_model.so', description: 'ARI: checks of the models sent', support: 'core', servesAri: true },
  ari('playbacks', 'playbacks', ['res_stasis_playback.so']),
  ari('recordings', 'recordings', ['res_stasis_recording.so']),
  ari('sounds', 'the sound catalogue'),
  { name: 'res_http_websocket.so', description: 'WebSockets over the HTTP server', support: 'core', servesAri: true },
  { name: 'res_musiconhold.so', description: 'Music on hold classes', support: 'core', reloads: true },
  { name: 'res_pjsip.so', description: 'PJSIP endpoints, AORs and authentication (configuration class res_pjsip)', support: 'core', reloads: true },
  { name: 'res_pjsip_session.so', description: 'PJSIP call sessions', support: 'core', needs: ['res_pjsip.so'] },
  { name: 'res_stasis.so', description: 'Stasis applications', support: 'core', servesAri: true },
  { name: 'res_stasis_answer.so', description: 'Answering for Stasis applications', support: 'core', needs: ['res_stasis.so'] },
  { name: 'res_stasis_device_state.so', description: 'Device states for Stasis applications', support: 'core', needs: ['res_stasis.so'] },
  { name: 'res_stasis_mailbox.so', description: 'Mailboxes for Stasis applications', support: 'core', needs: ['res_stasis.so'] },
  { name: 'res_stasis_playback.so', description: 'Playbacks for Stasis applications', support: 'core', needs: ['res_stasis.so'] },
  { name: 'res_stasis_recording.so', description: 'Recordings for Stasis applications', support: 'core', needs: ['res_stasis.so'] },
  { name: 'res_stasis_snoop.so', description: 'Snooping for Stasis applications', support: 'core', needs: ['res_stasis.so'] },
];
