import { basicAuth, request, type Outgoing, type Reply } from './request.js';

export type { Reply } from './request.js';

/** An ARI/sim request: what `request` carries, plus the credentials to send. */
export interface RequestOptions extends Outgoing {
  /** `user:password` for Basic auth; null sends none. Default asterisk:asterisk. */
  auth?: string | null;
}

/** A request through the ARI/sim client. */
export type AriHttp = <T = any>(method: string, path: string, opts?: RequestOptions) => Promise<Reply<T>>;

/** The ARI/sim client of a test server: `request` with Basic credentials (`defaultAuth` unless a request names its own). */
export function ariHttp(base: string, defaultAuth = 'asterisk:asterisk'): AriHttp {
  return (method, path, opts = {}) => {
    const { auth: given, ...out } = opts;
    const auth = given === undefined ? defaultAuth : given;
    const headers = { ...out.headers, ...(auth ? { authorization: basicAuth(auth) } : {}) };
    return request(base, method, path, { ...out, headers });
  };
}
