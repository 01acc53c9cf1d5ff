import { defineOperation, query } from '../../operation.js';
import { AsteriskInfo, AsteriskPing, Variable } from '../models/asterisk.js';

export const getInfo = defineOperation({
  resource: 'asterisk', method: 'GET', path: '/asterisk/info', nickname: 'getInfo',
  summary: 'Gets Asterisk system information.',
  params: {
    only: query.string({ description: 'Filter information returned', allowMultiple: true, values: ['build', 'system', 'config', 'status'] as const }),
  },
  responseClass: 'AsteriskInfo', response: AsteriskInfo.schema, success: 200, errors: [],
});

export const ping = defineOperation({
  resource: 'asterisk', method: 'GET', path: '/asterisk/ping', nickname: 'ping', since: ['13.25.0', '16.2.0'],
  summary: 'Response pong message.', params: {},
  responseClass: 'AsteriskPing', response: AsteriskPing.schema, success: 200, errors: [],
});

export const getGlobalVar = defineOperation({
  resource: 'asterisk', method: 'GET', path: '/asterisk/variable', nickname: 'getGlobalVar',
  summary: 'Get the value of a global variable.',
  params: { variable: query.string({ description: 'The variable to get', required: true, missingMessage: 'Variable name is required' }) },
  responseClass: 'Variable', response: Variable.schema, success: 200,
  errors: [{ code: 400, reason: 'Missing variable parameter.' }],
});

export const setGlobalVar = defineOperation({
  resource: 'asterisk', method: 'POST', path: '/asterisk/variable', nickname: 'setGlobalVar',
  summary: 'Set the value of a global variable.',
  params: {
    variable: query.string({ description: 'The variable to set', required: true, missingMessage: 'Variable name is required' }),
    value: query.string({ description: 'The value to set the variable to' }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Missing variable parameter.' }],
});

export const asteriskOperations = [getInfo, ping, getGlobalVar, setGlobalVar] as const;
