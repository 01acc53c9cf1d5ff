import type { ModelOf } from '../../../protocol/model.js';
import type { FarEndMessage, FarEndRefer } from '../../../protocol/sim/endpoint-models.js';
import type { EndpointRepo, InboxKind } from '../../db/repos/endpoint-repo.js';
import { badRequest, notFound } from '../../errors.js';
import { ariTimestamp } from '../../util/timestamp.js';
import type { EndpointFixture } from '../fixtures.js';
import type { Engine } from './engine.js';
import { endpointRecipients } from './endpoint-recipients.js';
import type { Registrations } from './registrations.js';

/** What messaging uses of the engine. */
export type MessagingEngine = Pick<Engine, 'apps' | 'fixtures' | 'emit' | 'deferWrite' | 'clock'>;

/** A message's or REFER's extra headers, by name. */
export type Headers = Record<string, string>;

/** The technology name destinations are written with (`pjsip:alice`); Asterisk matches it exactly. */
const MESSAGE_TECH = 'pjsip';
/** A SIP URI, possibly inside a display name and angle brackets: its user part. */
const URI_USER = /^\s*(?:"[^"]*"\s*)?<?sips?:([^@;>?]+)@/i;

/** The `variables` container of a request: an object of string values (Asterisk refuses anything else). */
export function headersOf(variables: unknown): Headers {
  if (variables === undefined) return {};
  const bad = () => badRequest('Only string values in the \'variables\' object allowed');
  if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) throw bad();
  for (const value of Object.values(variables)) if (typeof value !== 'string') throw bad();
  return { ...(variables as Headers) };
}

/**
 * Text messages and REFERs outside calls. Those we send reach the far end of
 * one of our endpoints, which keeps them for the simulation API; those the
 * far end sends become TextMessageReceived for the applications subscribed
 * to the endpoint. A destination is written as PJSIP takes it:
 * `pjsip:<endpoint>`, `pjsip:<endpoint>/<uri>`, or `pjsip:<SIP URI>`, where
 * a URI reaches the endpoint its user part names. A destination naming no
 * endpoint of ours, another technology, or an endpoint that is offline (no
 * contact to deliver to) is not found.
 */
export class EndpointMessages {
  constructor(
    private readonly eng: MessagingEngine,
    private readonly registrations: Pick<Registrations, 'state' | 'model' | 'find'>,
    private readonly repo: EndpointRepo,
    /** Items of each kind one far end keeps, the newest (SIM_FAR_END_KEEP). */
    private readonly keepItems: number,
  ) {}

  /** sendMessage and sendMessageToEndpoint (with `to` built as `pjsip:<resource>`). */
  sendMessage(to: string, from: string, body: string | undefined, variables: unknown): void {
    const headers = headersOf(variables);
    const e = this.destination(to, from);
    this.keep(e, 'message', { from, to, body: body ?? '', variables: headers, received: ariTimestamp(this.eng.clock.now()) });
  }

  /** refer and referToEndpoint. */
  refer(to: string, from: string, referTo: string, toSelf: boolean, variables: unknown): void {
    const headers = headersOf(variables);
    // Asterisk checks only the destination; an empty sender or target is refused here too.
    if (to && !referTo) throw badRequest('Refer-To must be specified');
    const e = this.destination(to, from);
    this.keep(e, 'refer', { from, to, refer_to: referTo, to_self: toSelf, variables: headers, received: ariTimestamp(this.eng.clock.now()) });
  }

  /** The destination written for one endpoint, as ARI's …/{tech}/{resource}/sendMessage builds it. */
  endpointUri(tech: string, resource: string): string {
    this.registrations.find(tech, resource);
    return `${tech.toLowerCase()}:${resource}`;
  }

  /** What the endpoint's far end received, oldest first. */
  inbox(e: EndpointFixture): { messages: ModelOf<typeof FarEndMessage>[]; refers: ModelOf<typeof FarEndRefer>[] } {
    // Stored as built by sendMessage and refer below.
    return { messages: this.repo.items(e.key, 'message') as never, refers: this.repo.items(e.key, 'refer') as never };
  }

  /**
   * The far end sends a text message: TextMessageReceived to every application
   * subscribed to the endpoint, its technology or everything. With none, the
   * server would answer the MESSAGE 404, and so does the simulation API.
   */
  receive(e: EndpointFixture, to: string, from: string | undefined, body: string | undefined, variables: unknown): void {
    const headers = headersOf(variables);
    const recipients = endpointRecipients(this.eng.apps, e);
    if (!recipients.size) throw notFound('No application receives messages from this endpoint');
    const message = {
      from: from ?? `sip:${e.resource}@sim.invalid`,
      to,
      body: body ?? '',
      // Asterisk lists the headers as one-key objects.
      variables: Object.entries(headers).map(([name, value]) => ({ [name]: value })),
    };
    this.eng.emit('TextMessageReceived', { message, endpoint: this.registrations.model(e) }, recipients);
  }

  private destination(to: string, from: string): EndpointFixture {
    if (!to) throw badRequest('To must be specified');
    if (!from) throw badRequest('From must be specified');
    const missing = () => notFound('Endpoint not found');
    const colon = to.indexOf(':');
    if (colon < 0 || to.slice(0, colon) !== MESSAGE_TECH) throw missing();
    const rest = to.slice(colon + 1);
    const user = URI_USER.exec(rest)?.[1];
    const name = user ?? (rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : rest.split('@')[0]!);
    const e = name ? this.eng.fixtures.endpoints.get(`${MESSAGE_TECH}/${name}`.toLowerCase()) : undefined;
    if (!e || this.registrations.state(e) === 'offline') throw missing();
    return e;
  }

  private keep(e: EndpointFixture, kind: InboxKind, item: ModelOf<typeof FarEndMessage> | ModelOf<typeof FarEndRefer>): void {
    this.eng.deferWrite(() => this.repo.addItem(e.key, kind, item, this.keepItems));
  }
}
