import type { ContactStatus } from '../../../protocol/ari/events/endpoint-events.js';
import type { EndpointState } from '../../../protocol/ari/models/endpoint.js';
import type { ContactRow, EndpointRepo } from '../../db/repos/endpoint-repo.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { ariTimestamp } from '../../util/timestamp.js';
import type { EndpointFixture } from '../fixtures.js';
import type { TimerHandle } from '../time/clock.js';
import type { AriEndpoint } from './ari-models.js';
import type { Engine } from './engine.js';
import { endpointRecipients } from './endpoint-recipients.js';
import { EndpointSnapshots } from './endpoint-snapshots.js';

/** What registrations use of the engine. */
export type RegistrationEngine = Pick<Engine, 'apps' | 'fixtures' | 'all' | 'emit' | 'deferWrite' | 'clock' | 'onCommitted'>;

interface Contact {
  uri: string;
  status: ContactStatus;
  qualified: boolean;
  rttUsec: number;
  /** Clock instant the registration runs out at. */
  expires: number;
  registered: number;
  timer: TimerHandle | null;
}

/** A contact as the simulation API shows it. */
export interface ContactView {
  uri: string;
  aor: string;
  contact_status: ContactStatus;
  qualified: boolean;
  roundtrip_usec: string;
  expires: string;
}

const CONTACT_URI = /^sips?:[^\s]+$/i;

/**
 * The contacts the far ends of our endpoints register, and the endpoint
 * state they make: an endpoint is online while it has a fixed address (its
 * fixture says online) or a contact that can be reached (any unqualified
 * contact, or a qualified one that answered its last qualify); with contacts
 * none of which can be reached it is offline; with none at all it is what
 * its fixture says. Each change is announced as PJSIP announces it: the
 * endpoint's EndpointStateChange and PeerStatusChange as the state moves,
 * then the contact's ContactStatusChange (a qualified contact's NonQualified
 * comes first, before its qualify is answered). Contacts are stored, so they
 * and their expiry outlive a restart.
 */
export class Registrations {
  /** Contacts by fixture key (PJSIP/alice), then by URI, in registration order. */
  private readonly contacts = new Map<string, Map<string, Contact>>();
  /** The endpoints' published snapshots (their channels follow every commit). */
  private readonly snapshots: EndpointSnapshots;

  constructor(
    private readonly eng: RegistrationEngine,
    private readonly repo: EndpointRepo,
    /** Told after an endpoint's state moved (its device state follows). */
    private readonly stateChanged: (e: EndpointFixture) => void,
    /** Contacts one endpoint keeps (SIM_FAR_END_KEEP); see `register`. */
    private readonly maxContacts: number,
  ) {
    for (const row of repo.contacts()) {
      const e = this.fixture(row.endpoint);
      if (!e) continue;
      const c: Contact = {
        uri: row.uri, status: row.status as ContactStatus, qualified: row.qualified === 1, rttUsec: row.rtt_usec,
        expires: row.expires, registered: row.registered, timer: null,
      };
      this.of(e).set(c.uri, c);
      this.arm(e, c);
    }
    this.snapshots = new EndpointSnapshots(eng, (e) => this.state(e));
  }

  /** The endpoint's state now (see the class comment). */
  state(e: EndpointFixture): EndpointState {
    if (e.state === 'online') return 'online';
    const list = this.contacts.get(e.key);
    if (!list?.size) return e.state;
    for (const c of list.values()) if (!c.qualified || c.status === 'Reachable') return 'online';
    return 'offline';
  }

  /**
   * Runs a change of the endpoint's configuration (the entry keyed `key`,
   * changed in place) and announces the state it moves, as a registration's
   * change is announced: EndpointStateChange, then PeerStatusChange. An
   * endpoint the change creates is announced with EndpointStateChange alone.
   */
  reconfigure(key: string, change: () => void): void {
    const e = this.fixture(key);
    if (!e) {
      // A new endpoint: its first snapshot is published as it is made.
      change();
      const made = this.fixture(key);
      if (made) this.snapshots.announce(made);
      return;
    }
    const before = this.state(e);
    change();
    this.settleState(e, before);
  }

  /** ARI's view of the endpoint, with its state and live channels. */
  model(e: EndpointFixture): AriEndpoint {
    return this.snapshots.model(e);
  }

  /** An endpoint of the fixtures by technology and resource (matched without regard to case). */
  find(tech: string, resource: string): EndpointFixture {
    const e = this.eng.fixtures.endpoints.get(`${tech}/${resource}`.toLowerCase());
    if (!e) throw notFound('Endpoint not found');
    return e;
  }

  /** Its contacts as the simulation API shows them, oldest first. */
  view(e: EndpointFixture): ContactView[] {
    return [...this.of(e).values()].map((c) => ({
      uri: c.uri, aor: e.resource, contact_status: c.status, qualified: c.qualified, roundtrip_usec: String(c.rttUsec), expires: ariTimestamp(c.expires),
    }));
  }

  /**
   * The far end registers `uri` (or refreshes it: only the expiry moves). A new
   * contact past the endpoint's bound displaces the one that expires soonest
   * (the earliest registered of those), as PJSIP's remove_existing picks it,
   * announced as Removed after the new one's changes.
   */
  register(e: EndpointFixture, uri: string, expiresSec: number, qualify: boolean): void {
    if (!CONTACT_URI.test(uri)) throw badRequest('Invalid contact URI');
    const now = this.eng.clock.now();
    const expires = this.eng.clock.instantAfter(expiresSec * 1000, now);
    const known = this.of(e).get(uri);
    if (known) {
      known.expires = expires;
      this.arm(e, known);
      this.store(e, known);
      return;
    }
    const before = this.state(e);
    const c: Contact = { uri, status: 'NonQualified', qualified: qualify, rttUsec: 0, expires, registered: now, timer: null };
    this.of(e).set(uri, c);
    this.arm(e, c);
    if (qualify) {
      // Created first; the qualify that follows finds it answering, with the endpoint's round trip time.
      this.announceContact(e, c);
      this.setStatus(e, c, 'Reachable', rttUsecOf(e));
    } else {
      // An unqualified contact counts as reachable from the start; PJSIP then settles its status on Unknown.
      this.settleState(e, before);
      this.announceContact(e, c);
      c.status = 'Unknown';
      this.announceContact(e, c);
    }
    this.store(e, c);
    for (const list = this.of(e); list.size > this.maxContacts;) {
      const others = [...list.values()].filter((x) => x !== c);
      this.remove(e, others.reduce((a, b) => (b.expires < a.expires ? b : a)));
    }
  }

  /** The far end removes `uri`. */
  unregister(e: EndpointFixture, uri: string): void {
    const c = this.of(e).get(uri);
    if (!c) throw notFound('Contact not found');
    this.remove(e, c);
  }

  /** The contact's next qualify: it answers (in `rttUsec`, default the fixture's rtt) or not. */
  qualify(e: EndpointFixture, uri: string, reachable: boolean, rttUsec?: number): void {
    const c = this.of(e).get(uri);
    if (!c) throw notFound('Contact not found');
    if (!c.qualified) throw conflict('Contact is not qualified');
    if (reachable) this.setStatus(e, c, 'Reachable', rttUsec ?? rttUsecOf(e));
    else this.setStatus(e, c, 'Unreachable', 0);
    this.store(e, c);
  }

  /** A qualify result: a change of status is announced after the endpoint state it moves; the same status only updates the round trip. */
  private setStatus(e: EndpointFixture, c: Contact, status: ContactStatus, rttUsec: number): void {
    const before = this.state(e);
    const changed = c.status !== status;
    c.status = status;
    c.rttUsec = rttUsec;
    if (!changed) return;
    this.settleState(e, before);
    this.announceContact(e, c);
  }

  private remove(e: EndpointFixture, c: Contact): void {
    const before = this.state(e);
    this.eng.clock.cancel(c.timer);
    this.of(e).delete(c.uri);
    if (!this.of(e).size) this.contacts.delete(e.key);
    this.eng.deferWrite(() => this.repo.removeContact(e.key, c.uri));
    this.settleState(e, before);
    this.announceContact(e, { ...c, status: 'Removed', rttUsec: 0 });
  }

  /** Announces the endpoint's state if it differs from `before`: EndpointStateChange, then PeerStatusChange. */
  private settleState(e: EndpointFixture, before: EndpointState): void {
    const now = this.state(e);
    if (now === before) return;
    this.snapshots.announce(e);
    this.eng.emit('PeerStatusChange', { endpoint: this.model(e), peer: { peer_status: now === 'online' ? 'Reachable' : 'Unreachable' } }, endpointRecipients(this.eng.apps, e));
    this.stateChanged(e);
  }

  private announceContact(e: EndpointFixture, c: Contact): void {
    this.eng.emit('ContactStatusChange', {
      endpoint: this.model(e),
      contact_info: { uri: c.uri, contact_status: c.status, aor: e.resource, roundtrip_usec: String(c.rttUsec) },
    }, endpointRecipients(this.eng.apps, e));
  }

  /** (Re)arms the expiry; a registration already past it (after a restart) goes on a later turn. */
  private arm(e: EndpointFixture, c: Contact): void {
    this.eng.clock.cancel(c.timer);
    c.timer = this.eng.clock.at(c.expires, () => {
      c.timer = null;
      if (this.of(e).get(c.uri) === c) this.remove(e, c);
    });
  }

  private store(e: EndpointFixture, c: Contact): void {
    const row: ContactRow = {
      endpoint: e.key, uri: c.uri, status: c.status, qualified: c.qualified ? 1 : 0, rtt_usec: c.rttUsec, expires: c.expires, registered: c.registered,
    };
    this.eng.deferWrite(() => this.repo.putContact(row));
  }

  private of(e: EndpointFixture): Map<string, Contact> {
    let list = this.contacts.get(e.key);
    if (!list) this.contacts.set(e.key, (list = new Map()));
    return list;
  }

  private fixture(key: string): EndpointFixture | undefined {
    return this.eng.fixtures.endpoints.get(key.toLowerCase());
  }

  /** Stops the expiry timers (the server is stopping; the stored expiries re-arm at the next start). */
  stop(): void {
    for (const list of this.contacts.values()) for (const c of list.values()) this.eng.clock.cancel(c.timer);
  }
}

/** The endpoint's round trip time from its fixture's network, in microseconds. */
const rttUsecOf = (e: EndpointFixture) => Math.round(e.rtp.rttMs * 1000);
