import { body, defineOperation, path, query } from '../../operation.js';
import { Variable, Variables } from '../models/asterisk.js';

// Bridge variables, which Asterisk 20.20, 22.10 and 23.4 added: the channel variable operations'
// counterparts on a bridge (plain variables only: there are no dialplan functions on a bridge).

const bridgeId = path.string({ description: 'Id of the bridge.' });
const missing = { code: 404, reason: 'Bridge not found' };
const since = ['20.20.0', '22.10.0', '23.4.0'];

export const getBridgeVar = defineOperation({
  resource: 'bridges', method: 'GET', path: '/bridges/{bridgeId}/variable', nickname: 'getBridgeVar', since,
  summary: 'Reads a variable of the bridge.',
  params: { bridgeId, variable: query.string({ description: 'Variable name.', required: true, missingMessage: 'Variable name is required' }) },
  responseClass: 'Variable', response: Variable.schema, success: 200,
  errors: [{ code: 400, reason: 'No variable name given.' }, { code: 404, reason: 'No such bridge, or no such variable on it.' }],
});

export const setBridgeVar = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/variable', nickname: 'setBridgeVar', since,
  summary: 'Sets a variable of the bridge; without a value the variable is removed.',
  params: {
    bridgeId,
    variable: query.string({ description: 'Variable name.', required: true, missingMessage: 'Variable name is required' }),
    value: query.string({ description: 'New value; without it the variable is removed.' }),
    report_events: query.boolean({ description: 'Include the variable in the bridgevars of the bridge in every later answer and event.', default: false }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No variable name given, a function name, or more variables than a bridge may hold.' }, missing],
});

export const getBridgeVars = defineOperation({
  resource: 'bridges', method: 'GET', path: '/bridges/{bridgeId}/variables', nickname: 'getBridgeVars', since,
  summary: 'Reads several variables of the bridge in one request; names that are not set are left out.',
  params: { bridgeId, variables: query.string({ description: 'Comma-separated variable names.', required: true, allowMultiple: true, missingMessage: 'Variable names are required' }) },
  responseClass: 'Variables', response: Variables.schema, success: 200,
  errors: [{ code: 400, reason: 'No variable names given.' }, missing],
});

export const setBridgeVars = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/variables', nickname: 'setBridgeVars', since,
  summary: 'Sets several variables of the bridge in one request, in the order given.',
  params: {
    bridgeId,
    variables: body.variables('JSON body {"variables": {"NAME": "value", "OTHER": {"value": "…", "report_events": true}}}; names are trimmed.'),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No variables, a malformed one, a function name, or more variables than a bridge may hold.' }, missing],
});

/** The bridge variable operations, in the order the docs list them. */
export const bridgeVariableOperations = [getBridgeVar, setBridgeVar, getBridgeVars, setBridgeVars] as const;
