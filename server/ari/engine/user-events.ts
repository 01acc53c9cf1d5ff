import { badRequest, notFound, unprocessable } from '../../errors.js';
import type { AriBridge, AriChannel, AriEndpoint } from './ari-models.js';
import type { Bridges } from './bridges.js';
import type { EndpointFixture } from '../fixtures.js';
import type { Engine } from './engine.js';
import { endpointModel } from './endpoint-model.js';

/** What a user event carries besides its name: the fields, and the snapshot of at most one source of each kind. */
interface Sources {
  channel?: AriChannel;
  bridge?: AriBridge;
  endpoint?: AriEndpoint;
}

/**
 * `UserEvent(name[,key: value…])` arguments (already split at commas) as the
 * event's fields: each extra argument is cut at its first colon, the key kept
 * as written and the value trimmed; an argument without a colon is skipped.
 * The name is in the fields too, as `eventname`, and a field of that name
 * replaces it (app_userevent builds one JSON object the same way).
 */
export function dialplanUserEvent(args: string[]): { eventname: string; userevent: Record<string, string> } {
  const [name = '', ...extra] = args;
  const userevent: Record<string, string> = { eventname: name };
  for (const arg of extra) {
    const colon = arg.indexOf(':');
    if (colon >= 0) userevent[arg.slice(0, colon)] = arg.slice(colon + 1).trim();
  }
  return { eventname: userevent.eventname!, userevent };
}

/**
 * User events raised through ARI: one ChannelUserevent to one application,
 * with the request's variables as its fields and the snapshots of the sources
 * it names. Checks run in Asterisk's order, and the first failure answers.
 */
export class UserEvents {
  constructor(
    private readonly eng: Engine,
    private readonly bridges: Pick<Bridges, 'find' | 'json'>,
    /** ARI's view of an endpoint with its current state (its registrations). */
    private readonly endpoint: (e: EndpointFixture) => AriEndpoint = (e) => endpointModel(e, this.eng.all()),
  ) {}

  raise(application: string | undefined, eventName: string, sources: string[] | undefined, variables: unknown): void {
    if (!application) throw badRequest('Missing parameter application');
    // An app the server still remembers counts even without a WebSocket; the event is then lost, as in Asterisk.
    if (!this.eng.apps.get(application)) throw notFound('Application not found');
    if (variables !== undefined && (variables === null || typeof variables !== 'object' || Array.isArray(variables))) {
      // Asterisk fails such a request with a 500; a client's mistake is a 400 here, with the text of Asterisk's 400 for bad user event data.
      throw badRequest('Invalid userevent data');
    }
    const found: Sources = {};
    for (const uri of sources ?? []) this.resolve(uri, found);
    const userevent: Record<string, unknown> = { ...(variables as Record<string, unknown> | undefined) };
    userevent.eventname = eventName;
    this.eng.emit('ChannelUserevent', { eventname: eventName, userevent, ...found }, [application]);
  }

  /** Adds one source's snapshot; a later source of the same kind replaces an earlier one. */
  private resolve(uri: string, found: Sources): void {
    const colon = uri.indexOf(':');
    const scheme = colon < 0 ? '' : uri.slice(0, colon);
    const id = uri.slice(colon + 1);
    const missing = () => unprocessable('Event source was not found');
    switch (scheme) {
      case 'channel': {
        // By unique id only: Asterisk looks the latest snapshot up by id, not by name.
        const ch = this.eng.hasId(id) ? this.eng.find(id) : undefined;
        if (!ch) throw missing();
        found.channel = this.eng.snapshot(ch);
        return;
      }
      case 'bridge': {
        const b = this.bridges.find(id);
        if (!b) throw missing();
        found.bridge = this.bridges.json(b);
        return;
      }
      case 'endpoint': {
        // tech/resource: one endpoint (a bare technology names none).
        const e = this.eng.fixtures.endpoints.get(id.toLowerCase());
        if (!e) throw missing();
        found.endpoint = this.endpoint(e);
        return;
      }
      default:
        // deviceState: included: Asterisk's user events take channels, bridges and endpoints only.
        throw badRequest('Invalid event source URI scheme');
    }
  }
}
