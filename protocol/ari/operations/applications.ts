import * as v from 'valibot';
import { defineOperation, path, query } from '../../operation.js';
import { Application } from '../models/application.js';

const applicationName = path.string({ description: 'Application\'s name' });
const eventSource = query.string({
  description: 'URI for event source (channel:{channelId}, bridge:{bridgeId}, endpoint:{tech}[/{resource}], deviceState:{deviceName}',
  required: true, allowMultiple: true, missingMessage: 'Missing parameter eventSource',
});

export const listApplications = defineOperation({
  resource: 'applications', method: 'GET', path: '/applications', nickname: 'list',
  summary: 'List all applications.', params: {},
  responseClass: 'List[Application]', response: v.array(Application.schema), success: 200, errors: [],
});

export const getApplication = defineOperation({
  resource: 'applications', method: 'GET', path: '/applications/{applicationName}', nickname: 'get',
  summary: 'Get details of an application.', params: { applicationName },
  responseClass: 'Application', response: Application.schema, success: 200,
  errors: [{ code: 404, reason: 'Application does not exist.' }],
});

export const subscribe = defineOperation({
  resource: 'applications', method: 'POST', path: '/applications/{applicationName}/subscription', nickname: 'subscribe',
  summary: 'Subscribe an application to a event source.',
  notes: 'Returns the state of the application after the subscriptions have changed',
  params: { applicationName, eventSource },
  responseClass: 'Application', response: Application.schema, success: 200,
  errors: [
    { code: 400, reason: 'Missing parameter.' },
    { code: 404, reason: 'Application does not exist.' },
    { code: 422, reason: 'Event source does not exist.' },
  ],
});

export const unsubscribe = defineOperation({
  resource: 'applications', method: 'DELETE', path: '/applications/{applicationName}/subscription', nickname: 'unsubscribe',
  summary: 'Unsubscribe an application from an event source.',
  notes: 'Returns the state of the application after the subscriptions have changed',
  params: { applicationName, eventSource },
  responseClass: 'Application', response: Application.schema, success: 200,
  errors: [
    { code: 400, reason: 'Missing parameter; event source scheme not recognized.' },
    { code: 404, reason: 'Application does not exist.' },
    { code: 409, reason: 'Application not subscribed to event source.' },
    { code: 422, reason: 'Event source does not exist, or the application is not subscribed to it.' },
  ],
});

export const applicationOperations = [listApplications, getApplication, subscribe, unsubscribe] as const;
