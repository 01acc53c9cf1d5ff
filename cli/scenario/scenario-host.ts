import { basicAuth } from '../../client/connection.js';
import type { SimClient } from '../../client/sim-client.js';

/**
 * The running server a scenario talks to: its base URL (what the app under test gets as
 * ARI_URL, as ari-client's connect takes it), the ARI credentials, and the simulation API.
 * A Trunkline from startTrunkline is one.
 */
export interface ScenarioHost {
  url: string;
  ari: { username: string; password: string };
  sim: SimClient;
}

/** An HTTP answer: status and parsed JSON body (or text when it is not JSON). */
export interface JsonReply {
  status: number;
  body: any;
}

/** One request with the host's ARI credentials; the body, if any, is sent as JSON. */
export async function requestJson(host: ScenarioHost, method: string, path: string, query: Record<string, string | undefined> = {}, json?: unknown): Promise<JsonReply> {
  const u = new URL(path, host.url);
  for (const [k, val] of Object.entries(query)) if (val !== undefined) u.searchParams.set(k, val);
  const headers: Record<string, string> = { authorization: basicAuth(host.ari) };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(u, { method, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: kept as text */
  }
  return { status: res.status, body };
}
