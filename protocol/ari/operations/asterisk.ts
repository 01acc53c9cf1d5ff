import { defineOperation, query } from '../../operation.js';
import { AsteriskInfo, AsteriskPing, Variable } from '../models/asterisk.js';

export const getInfo = defineOperation({
  resource: 'asterisk', method: 'GET', path: '/asterisk/info', nickname: 'getInfo',
  summary: 'What this server reports about itself: build, system, configuration and status sections.',
  params: {
    only: query.string({ description: 'Sections to include (all four when absent).', allowMultiple: true, values: ['build', 'system', 'config', 'status'] as const }),
  },
  responseClass: 'AsteriskInfo', response: AsteriskInfo.schema, success: 200, errors: [],
});

export const ping = defineOperation({
  resource: 'asterisk', method: 'GET', path: '/asterisk/ping', nickname: 'ping', since: ['13.25.0', '16.2.0'],
  summary: 'Liveness check: answers pong with the server id and the time.', params: {},
  responseClass: 'AsteriskPing', response: AsteriskPing.schema, success: 200, errors: [],
});

export const getGlobalVar = defineOperation({
  resource: 'asterisk', method: 'GET', path: '/asterisk/variable', nickname: 'getGlobalVar',
  summary: 'Reads a global variable (empty when unset), or evaluates a dialplan function outside any channel.',
  params: { variable: query.string({ description: 'Global variable name, or a function call.', required: true, missingMessage: 'Variable name is required' }) },
  responseClass: 'Variable', response: Variable.schema, success: 200,
  errors: [{ code: 400, reason: 'No variable name given, or a function that cannot be read.' }],
});

export const setGlobalVar = defineOperation({
  resource: 'asterisk', method: 'POST', path: '/asterisk/variable', nickname: 'setGlobalVar',
  summary: 'Sets or removes a global variable; applications subscribed to everything get ChannelVarset without a channel.',
  params: {
    variable: query.string({ description: 'Global variable name.', required: true, missingMessage: 'Variable name is required' }),
    value: query.string({ description: 'New value; without it the variable is removed.' }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No variable name given, or the limit on global variables is reached.' }],
});

export const asteriskOperations = [getInfo, ping, getGlobalVar, setGlobalVar] as const;
