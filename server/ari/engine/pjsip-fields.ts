import type { EndpointFixture } from '../fixtures.js';

/** Turns a value given for an attribute into the value kept, or undefined when the attribute cannot take it. */
type Check = (value: string) => string | undefined;

const YES = new Set(['yes', 'true', 'y', 't', '1', 'on']);
const NO = new Set(['no', 'false', 'n', 'f', '0', 'off']);
const text: Check = (x) => x;
const bool: Check = (x) => (YES.has(x.trim().toLowerCase()) ? 'true' : NO.has(x.trim().toLowerCase()) ? 'false' : undefined);
const uint: Check = (x) => (/^\d{1,10}$/.test(x.trim()) && Number(x) <= 2 ** 31 - 1 ? String(Number(x)) : undefined);
const oneOf = (...values: string[]): Check => (x) => values.find((val) => val === x.trim().toLowerCase());
/** Milliseconds, or empty for "never". */
const msOrNever: Check = (x) => (x.trim() === '' ? '' : uint(x));
const between = (min: number, max: number, integer = false): Check => (x) => {
  const n = Number(x.trim());
  return x.trim() !== '' && Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n)) ? String(n) : undefined;
};
/** Codecs Asterisk knows by name; the simulation carries the first of ulaw, alaw, slin, slin16 listed. */
const CODECS = new Set(['ulaw', 'alaw', 'slin', 'slin16', 'g722', 'gsm', 'g729', 'opus', 'all']);
const CARRIED = ['ulaw', 'alaw', 'slin', 'slin16'] as const;
const codecs: Check = (x) => {
  const list = x.split(',').map((c) => c.trim().toLowerCase()).filter(Boolean);
  return list.every((c) => CODECS.has(c)) ? list.join(',') : undefined;
};

interface FieldDef {
  default: string;
  check: Check;
}

/**
 * The attributes of each res_pjsip object type we keep, with their defaults. Endpoint attributes
 * named as PJSIP names them; the `sim_` ones are ours: how the simulated far end behaves.
 */
export const PJSIP_FIELDS: Record<string, Record<string, FieldDef>> = {
  endpoint: {
    accountcode: { default: '', check: text },
    allow: { default: 'ulaw', check: codecs },
    aors: { default: '', check: text },
    auth: { default: '', check: text },
    callerid: { default: '', check: text },
    context: { default: 'default', check: text },
    device_state_busy_at: { default: '0', check: uint },
    direct_media: { default: 'true', check: bool },
    disallow: { default: '', check: codecs },
    dtmf_mode: { default: 'rfc4733', check: oneOf('rfc4733', 'inband', 'info', 'auto', 'auto_info') },
    force_rport: { default: 'true', check: bool },
    from_domain: { default: '', check: text },
    from_user: { default: '', check: text },
    language: { default: '', check: text },
    mailboxes: { default: '', check: text },
    outbound_auth: { default: '', check: text },
    rewrite_contact: { default: 'false', check: bool },
    rtp_symmetric: { default: 'false', check: bool },
    sim_answer_after_ms: { default: '', check: msOrNever },
    sim_refer_status: { default: '200', check: between(200, 699, true) },
    sim_reject_after_ms: { default: '', check: msOrNever },
    sim_reject_cause: { default: '21', check: between(1, 127, true) },
    sim_ring_after_ms: { default: '', check: msOrNever },
    sim_rtp_jitter_ms: { default: '2', check: between(0, 60_000) },
    sim_rtp_loss_percent: { default: '0', check: between(0, 100) },
    sim_rtp_rtt_ms: { default: '20', check: between(0, 60_000) },
    sim_state: { default: 'online', check: oneOf('online', 'offline', 'unknown') },
    transfer_handling: { default: 'core', check: oneOf('core', 'ari-only') },
    transport: { default: '', check: text },
  },
  aor: {
    authenticate_qualify: { default: 'false', check: bool },
    contact: { default: '', check: text },
    default_expiration: { default: '3600', check: uint },
    mailboxes: { default: '', check: text },
    max_contacts: { default: '0', check: uint },
    maximum_expiration: { default: '7200', check: uint },
    minimum_expiration: { default: '60', check: uint },
    outbound_proxy: { default: '', check: text },
    qualify_frequency: { default: '0', check: uint },
    qualify_timeout: { default: '3.000000', check: (x) => between(0, 86_400)(x) === undefined ? undefined : Number(x).toFixed(6) },
    remove_existing: { default: 'false', check: bool },
    remove_unavailable: { default: 'false', check: bool },
    support_path: { default: 'false', check: bool },
    voicemail_extension: { default: '', check: text },
  },
  auth: {
    auth_type: { default: 'userpass', check: oneOf('userpass', 'md5', 'digest', 'google_oauth') },
    md5_cred: { default: '', check: text },
    nonce_lifetime: { default: '32', check: uint },
    oauth_clientid: { default: '', check: text },
    oauth_secret: { default: '', check: text },
    password: { default: '', check: text },
    realm: { default: '', check: text },
    refresh_token: { default: '', check: text },
    username: { default: '', check: text },
  },
};

/** Every attribute of an object of the type: the defaults, overlaid with what was set. */
export function valuesOf(type: string, set: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, def] of Object.entries(PJSIP_FIELDS[type]!)) out[name] = set[name] ?? def.default;
  return out;
}

/** Checks one attribute and value; undefined when the type has no such attribute or it cannot take the value. */
export function checkField(type: string, attribute: string, value: string): string | undefined {
  const defs = PJSIP_FIELDS[type];
  return defs && Object.hasOwn(defs, attribute) ? defs[attribute]!.check(value) : undefined;
}

const msOf = (x: string) => (x === '' ? null : Number(x));

/** What a res_pjsip endpoint's attributes make of the simulated far end (the fields of an endpoints.json entry). */
export function endpointFields(values: Record<string, string>): Record<string, unknown> {
  const allowed = values.allow!.split(',');
  return {
    callerid: values.callerid,
    context: values.context,
    language: values.language || 'en',
    accountcode: values.accountcode,
    state: values.sim_state,
    ringAfterMs: msOf(values.sim_ring_after_ms!),
    answerAfterMs: msOf(values.sim_answer_after_ms!),
    rejectAfterMs: msOf(values.sim_reject_after_ms!),
    rejectCause: Number(values.sim_reject_cause),
    deviceStateBusyAt: Number(values.device_state_busy_at),
    rtp: { jitterMs: Number(values.sim_rtp_jitter_ms), lossPercent: Number(values.sim_rtp_loss_percent), rttMs: Number(values.sim_rtp_rtt_ms) },
    codec: CARRIED.find((c) => allowed.includes(c)) ?? 'ulaw',
    transferHandling: values.transfer_handling,
    referStatus: Number(values.sim_refer_status),
  };
}

/** A fixture endpoint described as res_pjsip endpoint attributes (what GET shows for PJSIP/alice). */
export function fixtureEndpointValues(e: EndpointFixture): Record<string, string> {
  const ms = (x: number | null) => (x === null ? '' : String(x));
  return valuesOf('endpoint', {
    accountcode: e.accountcode,
    allow: e.codec,
    callerid: e.callerid,
    context: e.context,
    device_state_busy_at: String(e.deviceStateBusyAt),
    language: e.language,
    sim_answer_after_ms: ms(e.answerAfterMs),
    sim_refer_status: String(e.referStatus),
    sim_reject_after_ms: ms(e.rejectAfterMs),
    sim_reject_cause: String(e.rejectCause),
    sim_ring_after_ms: ms(e.ringAfterMs),
    sim_rtp_jitter_ms: String(e.rtp.jitterMs),
    sim_rtp_loss_percent: String(e.rtp.lossPercent),
    sim_rtp_rtt_ms: String(e.rtp.rttMs),
    sim_state: e.state,
    transfer_handling: e.transferHandling,
  });
}
