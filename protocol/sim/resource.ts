import type { AriResource } from '../ari/resources.js';
import { CallerID, Channel, DialplanCEP } from '../ari/models/channel.js';
import { CallRecord, FarEnd, FarEndDtmf, SimChannel } from './models.js';
import { simOperations } from './operations.js';
import { FarEndMessage, FarEndRefer, SimContact, SimEndpoint } from './endpoint-models.js';
import { Endpoint } from '../ari/models/endpoint.js';
import { SimClock, SimClockAdvanced } from './clock-operations.js';
import { HeardItem, HeardList } from './heard.js';
import { SimFault } from './fault-operations.js';
import { SimEndpointScript, SimScript } from './script.js';
import { SimTappedEvent } from './tap.js';

/** The simulation API, documented at /sim/api-docs.json in the same Swagger 1.1 form as ARI's declarations. */
export const SIM_RESOURCE: AriResource = {
  name: 'sim',
  description: 'Simulation: what only the far end of a call can do',
  paths: {
    '/calls': 'Inbound calls', '/channels/{channelId}': 'A live channel, seen from the far end',
    '/channels/{channelId}/answer': 'Far-end answer', '/channels/{channelId}/hangup': 'Far-end hangup',
    '/channels/{channelId}/dtmf': 'Far-end DTMF', '/channels/{channelId}/hold': 'Far-end hold',
    '/channels/{channelId}/talk': 'Far-end talking', '/channels/{channelId}/audio': 'What the far end sends',
    '/channels/{channelId}/transfer': 'Far-end blind transfer (REFER)', '/channels/{channelId}/attendedTransfer': 'Far-end attended transfer (REFER with Replaces)', '/history': 'Ended channels',
    '/endpoints/{tech}/{resource}': 'An endpoint, seen from its far end', '/endpoints/{tech}/{resource}/contacts': 'Registrations',
    '/endpoints/{tech}/{resource}/contacts/qualify': 'Qualify outcomes', '/endpoints/{tech}/{resource}/messages': 'Text messages from the far end',
    '/clock': 'The simulated clock', '/clock/advance': 'Moving the virtual clock on',
    '/channels/{channelId}/heard': 'What the far end was sent', '/channels/{channelId}/heard.wav': 'The audio the far end was sent',
    '/faults': 'Injected faults', '/faults/{faultId}': 'One injected fault',
    '/endpoints/{tech}/{resource}/script': 'The script calls to an endpoint follow', '/events': 'A read-only copy of applications\' events',
  },
  operations: simOperations,
  models: [CallerID, DialplanCEP, Channel, FarEndDtmf, FarEnd, SimChannel, CallRecord, Endpoint, SimContact, FarEndMessage, FarEndRefer, SimEndpoint, SimClock, SimClockAdvanced, HeardItem, HeardList, SimFault, SimScript, SimEndpointScript, SimTappedEvent],
};
