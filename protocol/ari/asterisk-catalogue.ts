/**
 * Every operation of Asterisk 22's ARI (its `rest-api/api-docs/*.json`), in
 * Asterisk's order: the yardstick for what we serve. What we serve is what
 * `resources.ts` declares; an operation we do not serve says why here.
 * `test/protocol/ari-catalogue.test.ts` keeps the two honest (an operation is
 * served or has a reason, never both, never neither) and renders the table in
 * the README from them.
 */
export interface AsteriskOperation {
  /** The api-docs file it is declared in (`channels` for channels.json). */
  resource: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  nickname: string;
  /** Why we do not serve it; absent for the operations we serve. */
  notServed?: string;
}

type Row = [AsteriskOperation['method'], string, string, string?];

function resource(name: string, rows: Row[]): AsteriskOperation[] {
  return rows.map(([method, path, nickname, notServed]) => ({ resource: name, method, path, nickname, ...(notServed ? { notServed } : {}) }));
}

const CONFIG = '/asterisk/config/dynamic/{configClass}/{objectType}/{id}';
const MODULE = '/asterisk/modules/{moduleName}';
const LOG = '/asterisk/logging/{logChannelName}';
const CH = '/channels/{channelId}';
const BR = '/bridges/{bridgeId}';
const STORED = '/recordings/stored/{recordingName}';
const LIVE = '/recordings/live/{recordingName}';
const APP = '/applications/{applicationName}';

export const ASTERISK_22_OPERATIONS: readonly AsteriskOperation[] = [
  ...resource('asterisk', [
    ['GET', CONFIG, 'getObject'], ['PUT', CONFIG, 'updateObject'], ['DELETE', CONFIG, 'deleteObject'],
    ['GET', '/asterisk/info', 'getInfo'], ['GET', '/asterisk/ping', 'ping'],
    ['GET', '/asterisk/modules', 'listModules'], ['GET', MODULE, 'getModule'], ['POST', MODULE, 'loadModule'],
    ['DELETE', MODULE, 'unloadModule'], ['PUT', MODULE, 'reloadModule'],
    ['GET', '/asterisk/logging', 'listLogChannels'], ['POST', LOG, 'addLog'], ['DELETE', LOG, 'deleteLog'],
    ['PUT', `${LOG}/rotate`, 'rotateLog'],
    ['GET', '/asterisk/variable', 'getGlobalVar'], ['POST', '/asterisk/variable', 'setGlobalVar'],
  ]),
  ...resource('endpoints', [
    ['GET', '/endpoints', 'list'], ['PUT', '/endpoints/sendMessage', 'sendMessage'], ['POST', '/endpoints/refer', 'refer'],
    ['GET', '/endpoints/{tech}', 'listByTech'], ['GET', '/endpoints/{tech}/{resource}', 'get'],
    ['PUT', '/endpoints/{tech}/{resource}/sendMessage', 'sendMessageToEndpoint'],
    ['POST', '/endpoints/{tech}/{resource}/refer', 'referToEndpoint'],
  ]),
  ...resource('channels', [
    ['GET', '/channels', 'list'], ['POST', '/channels', 'originate'], ['POST', '/channels/create', 'create'],
    ['GET', CH, 'get'], ['POST', CH, 'originateWithId'], ['DELETE', CH, 'hangup'],
    ['POST', `${CH}/continue`, 'continueInDialplan'], ['POST', `${CH}/move`, 'move'], ['POST', `${CH}/redirect`, 'redirect'],
    ['POST', `${CH}/answer`, 'answer'], ['POST', `${CH}/ring`, 'ring'], ['DELETE', `${CH}/ring`, 'ringStop'],
    ['POST', `${CH}/progress`, 'progress'], ['POST', `${CH}/dtmf`, 'sendDTMF'],
    ['POST', `${CH}/mute`, 'mute'], ['DELETE', `${CH}/mute`, 'unmute'], ['POST', `${CH}/hold`, 'hold'], ['DELETE', `${CH}/hold`, 'unhold'],
    ['POST', `${CH}/moh`, 'startMoh'], ['DELETE', `${CH}/moh`, 'stopMoh'], ['POST', `${CH}/silence`, 'startSilence'], ['DELETE', `${CH}/silence`, 'stopSilence'],
    ['POST', `${CH}/play`, 'play'], ['POST', `${CH}/play/{playbackId}`, 'playWithId'], ['POST', `${CH}/record`, 'record'],
    ['GET', `${CH}/variable`, 'getChannelVar'], ['POST', `${CH}/variable`, 'setChannelVar'],
    ['GET', `${CH}/variables`, 'getChannelVars'], ['POST', `${CH}/variables`, 'setChannelVars'],
    ['POST', `${CH}/snoop`, 'snoopChannel'], ['POST', `${CH}/snoop/{snoopId}`, 'snoopChannelWithId'],
    ['POST', `${CH}/dial`, 'dial'], ['GET', `${CH}/rtp_statistics`, 'rtpstatistics'], ['POST', '/channels/externalMedia', 'externalMedia'],
    ['POST', `${CH}/transfer_progress`, 'transfer_progress'],
  ]),
  ...resource('bridges', [
    ['GET', '/bridges', 'list'], ['POST', '/bridges', 'create'], ['POST', BR, 'createWithId'], ['GET', BR, 'get'], ['DELETE', BR, 'destroy'],
    ['POST', `${BR}/addChannel`, 'addChannel'], ['POST', `${BR}/removeChannel`, 'removeChannel'],
    ['POST', `${BR}/videoSource/{channelId}`, 'setVideoSource'], ['DELETE', `${BR}/videoSource`, 'clearVideoSource'],
    ['POST', `${BR}/moh`, 'startMoh'], ['DELETE', `${BR}/moh`, 'stopMoh'],
    ['POST', `${BR}/play`, 'play'], ['POST', `${BR}/play/{playbackId}`, 'playWithId'], ['POST', `${BR}/record`, 'record'],
    ['GET', `${BR}/variable`, 'getBridgeVar'], ['POST', `${BR}/variable`, 'setBridgeVar'],
    ['GET', `${BR}/variables`, 'getBridgeVars'], ['POST', `${BR}/variables`, 'setBridgeVars'],
  ]),
  ...resource('recordings', [
    ['GET', '/recordings/stored', 'listStored'], ['GET', STORED, 'getStored'], ['DELETE', STORED, 'deleteStored'],
    ['GET', `${STORED}/file`, 'getStoredFile'], ['POST', `${STORED}/copy`, 'copyStored'],
    ['GET', LIVE, 'getLive'], ['DELETE', LIVE, 'cancel'], ['POST', `${LIVE}/stop`, 'stop'],
    ['POST', `${LIVE}/pause`, 'pause'], ['DELETE', `${LIVE}/pause`, 'unpause'], ['POST', `${LIVE}/mute`, 'mute'], ['DELETE', `${LIVE}/mute`, 'unmute'],
  ]),
  ...resource('sounds', [['GET', '/sounds', 'list'], ['GET', '/sounds/{soundId}', 'get']]),
  ...resource('playbacks', [
    ['GET', '/playbacks/{playbackId}', 'get'], ['DELETE', '/playbacks/{playbackId}', 'stop'], ['POST', '/playbacks/{playbackId}/control', 'control'],
  ]),
  ...resource('deviceStates', [
    ['GET', '/deviceStates', 'list'], ['GET', '/deviceStates/{deviceName}', 'get'],
    ['PUT', '/deviceStates/{deviceName}', 'update'], ['DELETE', '/deviceStates/{deviceName}', 'delete'],
  ]),
  ...resource('mailboxes', [
    ['GET', '/mailboxes', 'list'], ['GET', '/mailboxes/{mailboxName}', 'get'],
    ['PUT', '/mailboxes/{mailboxName}', 'update'], ['DELETE', '/mailboxes/{mailboxName}', 'delete'],
  ]),
  ...resource('events', [
    ['GET', '/events', 'eventWebsocket'], ['POST', '/events/user/{eventName}', 'userEvent'], ['POST', '/events/claim', 'claimChannel'],
  ]),
  ...resource('applications', [
    ['GET', '/applications', 'list'], ['GET', APP, 'get'],
    ['POST', `${APP}/subscription`, 'subscribe'], ['DELETE', `${APP}/subscription`, 'unsubscribe'], ['PUT', `${APP}/eventFilter`, 'filter'],
  ]),
];
