// ari-client ships no types; this declares the little the tests use.
declare module 'ari-client' {
  import type { EventEmitter } from 'node:events';
  export interface Resource extends EventEmitter {
    [method: string]: any;
  }
  export interface Client extends EventEmitter {
    // Methods are built at connect time from the served docs.
    channels: any;
    asterisk: any;
    applications: any;
    endpoints: any;
    Channel(id?: string): Resource;
    start(apps: string | string[], subscribeAll?: boolean): Promise<void>;
    stop(): void;
    [k: string]: any;
  }
  export function connect(url: string, user: string, password: string): Promise<Client>;
  const ari: { connect: typeof connect };
  export default ari;
}
