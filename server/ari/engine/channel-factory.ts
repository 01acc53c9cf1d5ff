import type { VariableInput } from '../../../protocol/operation.js';
import { badRequest, conflict } from '../../errors.js';
import { type Party } from './callerid.js';
import { MAX_UNIQUEID, type NewCallRequest, type Target } from './call-requests.js';
import { Channel, type Direction } from './channel.js';
import { findExtension } from './dialplan.js';
import type { Engine } from './engine.js';
import type { DriverChannels } from './media-socket.js';
import type { Variables } from './variables.js';

/** The empty caller id. */
export const EMPTY_PARTY: Party = { name: '', number: '' };
const EMPTY = EMPTY_PARTY;

/**
 * Making channels: resolving endpoint strings, the checks Asterisk runs on a
 * new channel's ids and formats, and building the channel record (both
 * halves for a Local pair) with its ChannelCreated.
 */
/** The channel driver of PJSIP channels. */
const PJSIP_DRIVER = 'chan_pjsip.so';

export class ChannelFactory {
  /** SIP Call-IDs only need to be unique: a prefix made up once per process, and a sequence. */
  private readonly callIdPrefix: string;

  constructor(
    private readonly eng: Engine,
    private readonly vars: Variables,
    /** Which modules are loaded: a PJSIP channel needs chan_pjsip.so. */
    private readonly modules: { isRunning(name: string): boolean },
    /** Technologies whose channels a driver of ours makes (WebSocket/…). */
    private readonly drivers?: DriverChannels,
  ) {
    this.callIdPrefix = eng.ids.hex(8);
  }

  // ---- endpoints ------------------------------------------------------------

  /** Resolves `TECH/resource`; unknown ones are a 400 (Asterisk answers 500, but it is the caller's input). */
  resolve(endpoint: string): Target {
    const slash = endpoint.indexOf('/');
    const tech = slash > 0 ? endpoint.slice(0, slash) : '';
    const resource = slash > 0 ? endpoint.slice(slash + 1) : '';
    if (!tech || !resource) throw badRequest('Invalid endpoint specified');
    if (tech.toLowerCase() === 'local') {
      const bare = resource.replace(/\/[a-z]+$/i, ''); // options such as /n
      const at = bare.lastIndexOf('@');
      const exten = at >= 0 ? bare.slice(0, at) : bare;
      const context = at >= 0 ? bare.slice(at + 1) : 'default';
      if (!exten || !findExtension(this.eng.fixtures.dialplan, context, exten)) {
        throw badRequest(`No such extension/context ${exten}@${context} for Local channel`);
      }
      return { kind: 'local', tech: 'Local', resource: `${exten}@${context}`, exten, context };
    }
    if (this.drivers?.owns(tech)) {
      this.drivers.check(resource);
      return { kind: 'driver', tech, resource };
    }
    const fixture = this.eng.fixtures.endpoints.get(`${tech}/${resource}`.toLowerCase());
    if (!fixture) throw badRequest(`Endpoint not found: ${endpoint}`);
    return { kind: 'fixture', tech: fixture.tech, resource: fixture.resource, fixture };
  }

  // ---- shared validation --------------------------------------------------------

  /** Client-supplied unique ids: Asterisk's length limit. */
  checkIds(...ids: Array<string | undefined>): void {
    for (const id of ids) {
      if (id !== undefined && id.length > MAX_UNIQUEID) throw badRequest(`Uniqueid length exceeds maximum of ${MAX_UNIQUEID}`);
    }
  }

  /** The formats of a new channel: its originator's, the ones asked for, or the default set. */
  checkOriginatorAndFormats(req: NewCallRequest): string[] {
    if (req.originator && req.formats) throw badRequest('Originator and formats can\'t both be specified');
    if (req.originator) {
      const o = this.eng.find(req.originator);
      if (!o) throw badRequest('Provided originator channel was not found');
      return o.d.formats;
    }
    if (req.formats) {
      const list = req.formats.split(',').map((f) => f.trim());
      for (const f of list) if (!this.eng.fixtures.formats.has(f)) throw badRequest(`Provided format (${f}) was not found`);
      return list;
    }
    return ['ulaw', 'alaw', 'slin'];
  }

  /** Refuses unique ids already live (both halves of a Local pair). */
  checkDuplicates(target: Target, channelId: string | undefined, otherChannelId: string | undefined): void {
    const ids = [channelId, target.kind === 'local' ? otherChannelId ?? (channelId ? `${channelId};2` : undefined) : undefined];
    if (ids[0] !== undefined && ids[0] === ids[1]) throw conflict('Channel with given unique ID already exists');
    for (const id of ids) if (id !== undefined && this.eng.hasId(id)) throw conflict('Channel with given unique ID already exists');
  }

  // ---- creation -------------------------------------------------------------------

  /** Builds, registers and announces (ChannelCreated) a new channel. */
  newChannel(p: {
    id: string | undefined;
    endpoint: string;
    tech: string;
    nameBase: string;
    direction: Direction;
    caller: Party;
    accountcode: string;
    language: string;
    context: string;
    exten: string;
    formats: string[];
    suffix?: string;
    localHalf?: 0 | 1 | 2;
    /** The whole name, for drivers whose names do not end in a suffix (WebSocket/INCOMING/0x…). */
    name?: string;
  }): Channel {
    if (p.tech === 'PJSIP' && !this.modules.isRunning(PJSIP_DRIVER)) {
      // No driver for the technology: Asterisk's channel request fails (ARI answers "Allocation failed", with a 500 that
      // the spec's originate and create errors make a 400); an inbound INVITE finds nothing to take the call.
      throw p.direction === 'inbound' ? conflict(`${PJSIP_DRIVER} is not loaded: the call is refused`) : badRequest('Allocation failed');
    }
    const id = p.id ?? this.eng.nextUniqueId();
    const seq = this.eng.nextSeq();
    const ch = new Channel({
      seq,
      id,
      name: p.name ?? `${p.nameBase}-${p.suffix ?? this.eng.nextNameSuffix(p.tech)}${p.localHalf ? `;${p.localHalf}` : ''}`,
      protocolId: p.tech === 'PJSIP' ? `${this.callIdPrefix}-${seq.toString(16)}@trunkline` : '',
      endpoint: p.endpoint,
      tech: p.tech,
      direction: p.direction,
      state: p.direction === 'inbound' ? 'Ring' : 'Down',
      caller: { ...p.caller },
      connected: { ...EMPTY },
      accountcode: p.accountcode,
      language: p.language,
      created: this.eng.clock.now(),
      answered: null,
      dialplan: { context: p.context, exten: p.exten, priority: 1, appName: '', appData: '' },
      vars: {},
      reported: [],
      stasis: null,
      lastApp: null,
      subs: {},
      dialable: false,
      dialing: null,
      pbx: false,
      peer: null,
      localHalf: p.localHalf ?? 0,
      media: { hold: false, ringing: false, moh: null, silence: false, mutedIn: false, mutedOut: false },
      far: { answered: false, holding: false, talking: false, talkSince: null, dtmf: [], redirectedTo: null, audio: { kind: 'silence' } },
      bridge: null,
      recording: null,
      snoop: null,
      external: null,
      flags: { holdIntercept: false, talkDetect: false },
      formats: p.formats,
      timers: [],
      queued: [],
      hangupCause: null,
      ended: null,
    });
    this.eng.add(ch);
    this.eng.emitChannel(ch, 'ChannelCreated', {}, this.eng.creationRecipients(ch));
    return ch;
  }

  /**
   * A channel that exists only inside the server (a snoop, an external
   * media stream). It starts answered and enters `app` right after the
   * answer that returns it; with `dial` it starts Down and is dialed like an
   * originate into `app` instead (its driver answers it), failing after
   * `dial.timeoutMs`.
   */
  createInternal(p: {
    id: string | undefined; tech: string; nameBase: string; name?: string; endpoint: string; app: string; args: string[];
    variables?: VariableInput[] | undefined; setup?: (ch: Channel) => void; dial?: { dialstring: string; timeoutMs: number };
  }): Channel {
    this.checkIds(p.id);
    if (p.id !== undefined && this.eng.hasId(p.id)) throw conflict('Channel with given unique ID already exists');
    const ch = this.newChannel({
      id: p.id, endpoint: p.endpoint, tech: p.tech, nameBase: p.nameBase, direction: 'outbound', caller: { ...EMPTY },
      accountcode: '', language: 'en', context: 'default', exten: 's', formats: ['slin'], ...(p.name !== undefined ? { name: p.name } : {}),
    });
    if (!p.dial) {
      ch.d.state = 'Up';
      ch.d.answered = this.eng.clock.now();
    }
    p.setup?.(ch);
    this.applyVariables(ch, p.variables);
    this.eng.touch(ch);
    if (p.dial) {
      ch.d.dialing = { dialstring: p.dial.dialstring, caller: null, after: { kind: 'app', app: p.app, args: p.args } };
      this.eng.schedule(ch, 'dialStart', 0, { timeoutMs: p.dial.timeoutMs });
    } else this.eng.schedule(ch, 'stasisEnter', 0, { app: p.app, args: p.args });
    return ch;
  }

  /** Allocates the outgoing channel for a target: one PJSIP channel, or both halves of a Local pair (returning `;1`). */
  allocate(target: Target, channelId: string | undefined, otherChannelId: string | undefined, formats: string[], caller: Party): Channel {
    if (target.kind === 'driver') {
      return this.drivers!.allocate(target.resource, formats, (p) => {
        const ch = this.newChannel({
          id: channelId, endpoint: p.endpoint, tech: p.tech, nameBase: p.endpoint, name: p.name, direction: 'outbound', caller,
          accountcode: '', language: 'en', context: 'default', exten: 's', formats: p.formats,
        });
        p.setup(ch);
        this.eng.touch(ch);
        return ch;
      });
    }
    if (target.kind === 'fixture') {
      const f = target.fixture;
      return this.newChannel({
        id: channelId, endpoint: f.key, tech: f.tech, nameBase: f.key, direction: 'outbound', caller,
        accountcode: f.accountcode, language: f.language, context: f.context, exten: 's', formats,
      });
    }
    const suffix = this.eng.nextNameSuffix('Local');
    const base = `Local/${target.resource}`;
    const one = this.newChannel({
      id: channelId, endpoint: base, tech: 'Local', nameBase: base, direction: 'outbound', caller,
      accountcode: '', language: 'en', context: 'default', exten: 's', formats, suffix, localHalf: 1,
    });
    const two = this.newChannel({
      id: otherChannelId ?? (channelId !== undefined ? `${channelId};2` : undefined), endpoint: base, tech: 'Local', nameBase: base,
      direction: 'inbound', caller: { ...EMPTY }, accountcode: '', language: 'en', context: target.context, exten: target.exten,
      formats, suffix, localHalf: 2,
    });
    one.d.peer = two.id;
    two.d.peer = one.id;
    return one;
  }

  /** Sets body variables on a new channel; functions such as CALLERID(name) apply as writes. */
  applyVariables(ch: Channel, variables: VariableInput[] | undefined): string[] {
    const names: string[] = [];
    for (const v of variables ?? []) {
      try {
        this.vars.write(ch, v.name, v.value, v.reportEvents);
      } catch (err) {
        throw badRequest((err as Error).message);
      }
      names.push(v.name);
    }
    return names;
  }
}
