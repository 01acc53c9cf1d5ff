import { body, defineOperation, path, query } from '../operation.js';
import { MAX_SCRIPT_STEPS, SimEndpointScript, type ScriptStep } from './script.js';

// The script calls we place to an endpoint follow: set it (for the next N
// calls, or all), read it, or go back to the fixture's behaviour.

const tech = path.string({ description: 'Channel technology of the endpoint (PJSIP).' });
const resource = path.string({ description: 'Endpoint name within that technology (manual).' });
const e404 = { code: 404, reason: 'Endpoint not found' };

export const getEndpointScript = defineOperation({
  resource: 'sim', method: 'GET', path: '/endpoints/{tech}/{resource}/script', nickname: 'getEndpointScript',
  summary: 'The script the next call we place to the endpoint will follow, and how many calls are left for it.',
  params: { tech, resource },
  responseClass: 'SimEndpointScript', response: SimEndpointScript.schema, success: 200,
  errors: [{ code: 404, reason: 'Endpoint not found, or the endpoint has no script (set through the API or in its fixture)' }],
});

export const setEndpointScript = defineOperation({
  resource: 'sim', method: 'PUT', path: '/endpoints/{tech}/{resource}/script', nickname: 'setEndpointScript',
  summary: 'The far end of the next calls we place to the endpoint follows a script instead of its fixture\'s answer or reject timing.',
  notes: `Body: {"script": [{"wait_ms": 2500}, {"answer": true}, {"dtmf": "1"}, {"hangup": 16}], "calls": 2}. The script starts when we dial (the Dial event with an empty status); ringing still comes from the fixture (ringAfterMs), answering and refusing only from the script. A call whose script ends without answering rings on until the dial times out or the simulation API acts on it. Scripts have at most ${MAX_SCRIPT_STEPS} steps, and replace any script set before; once its calls are used up the endpoint goes back to its fixture's behaviour (its default script, if it has one). Kept across restarts.`,
  params: {
    tech, resource,
    script: body.fields<ScriptStep[]>('The steps, under the body\'s "script" key: a list of objects with one key each.'),
    calls: query.int({ description: 'How many of the next calls follow the script; default: every call, until DELETE.', min: 1, max: 1_000_000 }),
  },
  responseClass: 'SimEndpointScript', response: SimEndpointScript.schema, success: 200,
  errors: [{ code: 400, reason: 'No script, or a bad step (the message names its index), an unknown sound or recording, or calls out of range.' }, e404],
});

export const deleteEndpointScript = defineOperation({
  resource: 'sim', method: 'DELETE', path: '/endpoints/{tech}/{resource}/script', nickname: 'deleteEndpointScript',
  summary: 'Calls we place to the endpoint go back to its fixture\'s behaviour (its default script, if it has one); calls already following the script go on with it.',
  params: { tech, resource },
  responseClass: 'void', response: null, success: 204, errors: [e404],
});

export const simScriptOperations = [getEndpointScript, setEndpointScript, deleteEndpointScript] as const;
