import * as v from 'valibot';
import { body, defineOperation, path, query, type ErrorResponse, type Params } from '../../operation.js';
import { AsteriskInfo, AsteriskPing, ConfigTuple, LogChannel, Module, Variable } from '../models/asterisk.js';

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

const moduleName = path.string({ description: 'The module, by its file name as listed (app_dial.so).' });
const notLoaded = { code: 404, reason: 'No loaded module has that name.' };

/** A whole collection: no parameters, a list of the model. */
const listOf = <M extends { id: string; schema: v.GenericSchema }>(path: string, nickname: string, since: string, summary: string, model: M) =>
  defineOperation({
    resource: 'asterisk', method: 'GET', path, nickname, since: [since], summary, params: {},
    responseClass: `List[${model.id}]`, response: v.array(model.schema), success: 200, errors: [],
  });

export const listModules = listOf('/asterisk/modules', 'listModules', '13.5.0', 'Every module of the server\'s fixed catalogue, by name, loaded or not, with its use count.', Module);

export const getModule = defineOperation({
  resource: 'asterisk', method: 'GET', path: '/asterisk/modules/{moduleName}', nickname: 'getModule', since: ['13.5.0'],
  summary: 'One loaded module. The name is matched as listed; the same name without .so passes the first check but finds no entry (409), as in Asterisk.',
  params: { moduleName },
  responseClass: 'Module', response: Module.schema, success: 200,
  errors: [
    notLoaded,
    { code: 409, reason: 'The module is loaded but was asked for by another spelling of its name.' },
  ],
});

/** An operation answering 204 and nothing else on success. */
const action = <const P extends Params>(method: 'POST' | 'DELETE' | 'PUT', path: string, nickname: string, since: string, summary: string, params: P, errors: ErrorResponse[]) =>
  defineOperation({ resource: 'asterisk', method, path, nickname, since: [since], summary, params, responseClass: 'void', response: null, success: 204, errors });
/** Load, unload and reload share their path and their one parameter. */
const moduleAction = (method: 'POST' | 'DELETE' | 'PUT', nickname: string, summary: string, errors: ErrorResponse[]) =>
  action(method, '/asterisk/modules/{moduleName}', nickname, '13.5.0', summary, { moduleName }, errors);

export const loadModule = moduleAction('POST', 'loadModule', 'Loads a module of the catalogue again after an unload (kept across restarts).', [
  { code: 409, reason: 'Already loaded, not in the catalogue, or a module it needs is not loaded.' },
]);

export const unloadModule = moduleAction('DELETE', 'unloadModule', 'Unloads a module nothing uses: it is listed as Not Running (kept across restarts). See the README for what that changes.', [
  notLoaded,
  { code: 409, reason: 'The module is in use, or serves this API and stays loaded.' },
]);

export const reloadModule = moduleAction('PUT', 'reloadModule', 'Reloads a loaded module that supports it; the server\'s last reload time (asterisk/info) moves to now.', [
  notLoaded,
  { code: 409, reason: 'The module has nothing to reload.' },
]);

const logChannelName = path.string({ description: 'The log channel: console, syslog.<facility>, or a file name (relative to the log directory, or a full path).' });

export const listLogChannels = listOf('/asterisk/logging', 'listLogChannels', '13.6.0', 'Every log channel, the ones added at run time first (newest first), then the configured ones.', LogChannel);

export const addLog = defineOperation({
  resource: 'asterisk', method: 'POST', path: '/asterisk/logging/{logChannelName}', nickname: 'addLog', since: ['13.6.0'],
  summary: 'Adds a log channel with the given levels (kept across restarts). It is a record: the server\'s own log output does not change.',
  params: {
    logChannelName,
    configuration: query.string({ description: 'Levels, comma-separated (notice,warning,error,verbose(3),*); unknown words are ignored.', required: true, missingMessage: 'Configuration levels are required' }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [
    { code: 400, reason: 'No levels given, a name that cannot be a log channel, or as many channels added at run time as the server keeps.' },
    { code: 409, reason: 'A log channel with that name exists.' },
  ],
});

export const deleteLog = action('DELETE', '/asterisk/logging/{logChannelName}', 'deleteLog', '13.6.0', 'Removes a log channel added at run time; configured ones stay.', { logChannelName }, [
  { code: 404, reason: 'No log channel added at run time has that name.' },
]);

export const rotateLog = action('PUT', '/asterisk/logging/{logChannelName}/rotate', 'rotateLog', '13.6.0', 'Rotates a file log channel (console and syslog channels have no file to rotate).', { logChannelName }, [
  { code: 404, reason: 'No file log channel has that name.' },
]);

const configParams = {
  configClass: path.string({ description: 'The configuration class: res_pjsip.' }),
  objectType: path.string({ description: 'The object type: endpoint, aor or auth.' }),
  id: path.string({ description: 'The object\'s id (for an endpoint, the resource of PJSIP/<id>).' }),
};
const configNotFound = { code: 404, reason: 'No such configuration class, object type or object.' };

export const getObject = defineOperation({
  resource: 'asterisk', method: 'GET', path: '/asterisk/config/dynamic/{configClass}/{objectType}/{id}', nickname: 'getObject', since: ['13.5.0'],
  summary: 'Every attribute of a configuration object and its value; the fixture endpoints are readable too.',
  params: configParams,
  responseClass: 'List[ConfigTuple]', response: v.array(ConfigTuple.schema), success: 200, errors: [configNotFound],
});

export const updateObject = defineOperation({
  resource: 'asterisk', method: 'PUT', path: '/asterisk/config/dynamic/{configClass}/{objectType}/{id}', nickname: 'updateObject', since: ['13.5.0'],
  summary: 'Creates or changes a configuration object (kept across restarts). A res_pjsip endpoint made here is an endpoint of the simulation at once; its sim_* attributes set how it answers.',
  params: {
    ...configParams,
    fields: body.fields('JSON body {"fields": [{"attribute": "…", "value": "…"}]}: the attributes to set. Required to change an existing object; a new one may be created without it.'),
  },
  responseClass: 'List[ConfigTuple]', response: v.array(ConfigTuple.schema), success: 200,
  errors: [
    { code: 400, reason: 'No fields for an existing object, an unknown attribute, a value the attribute cannot take, an id that cannot be used, or a new object when as many of its type are kept as the server allows.' },
    { code: 403, reason: 'The object comes from the fixtures and cannot be changed here.' },
    { code: 404, reason: 'No such configuration class or object type.' },
  ],
});

export const deleteObject = defineOperation({
  resource: 'asterisk', method: 'DELETE', path: '/asterisk/config/dynamic/{configClass}/{objectType}/{id}', nickname: 'deleteObject', since: ['13.5.0'],
  summary: 'Deletes a configuration object made here. A deleted endpoint takes no new calls; its live calls go on.',
  params: configParams,
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 403, reason: 'The object comes from the fixtures and cannot be deleted.' }, configNotFound],
});

export const asteriskOperations = [
  getObject, updateObject, deleteObject, getInfo, ping, listModules, getModule, loadModule, unloadModule, reloadModule,
  listLogChannels, addLog, deleteLog, rotateLog, getGlobalVar, setGlobalVar,
] as const;
