import type { Operation } from '../operation.js';
import { openApiDocument } from '../ari/openapi.js';
import type { OpenApiObject } from '../ari/openapi-schemas.js';
import { DECLARATION_VERSION } from '../ari/swagger.js';
import { SIM_RESOURCE } from './resource.js';

/** Operations are grouped by the first segment of their path; what each group is about. */
export const SIM_TAGS: Readonly<Record<string, string>> = {
  calls: 'Calls the far end places toward us',
  channels: 'What the far end of a live channel does, and what it was sent',
  history: 'Channels that have ended',
  endpoints: 'Endpoints as their far ends see them: registrations, qualify outcomes, text messages, scripts',
  clock: 'The simulated clock',
  faults: 'Faults injected into ARI operations and event delivery',
  events: 'A read-only copy of what applications\' event sockets receive',
};

/** The group of a simulation operation: `/channels/{channelId}/answer` → `channels`. */
export const simTagOf = (op: Operation): string => op.path.split('/')[1] ?? 'sim';

/** The OpenAPI document of /sim, made from the same declarations as /sim/api-docs.json. */
export function simOpenApi(served: (op: Operation) => boolean): OpenApiObject {
  return openApiDocument({
    title: 'Trunkline simulation API',
    description: [
      'The far end of every call: place inbound calls, answer, press digits, hold, talk, transfer and hang up as the caller would;',
      'read what the far end heard; move the virtual clock; inject faults. Write ARI users only.',
      'The same API in Swagger 1.1 is at /sim/api-docs.json.',
    ].join(' '),
    version: DECLARATION_VERSION,
    serverUrl: '/sim',
    resources: [SIM_RESOURCE],
    tagOf: simTagOf,
    tags: { ...SIM_TAGS },
    writeUsersOnly: true,
  }, served);
}
