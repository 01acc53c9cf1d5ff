import { requestJson, type ScenarioHost } from './scenario-host.js';

/** A live channel's variable (GET /ari/channels/{id}/variable): its value, or undefined when unset or unreadable. */
export async function liveVariable(host: ScenarioHost, channelId: string, name: string): Promise<string | undefined> {
  const r = await requestJson(host, 'GET', `/ari/channels/${encodeURIComponent(channelId)}/variable`, { variable: name });
  return r.status === 200 ? r.body.value : undefined;
}
