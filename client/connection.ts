/** Where a client reaches a Trunkline server, and the ARI user it acts as. */
export interface Connection {
  /** The server's base URL, without a trailing slash: http://127.0.0.1:PORT. */
  url: string;
  username: string;
  password: string;
}

/** The Authorization header value for a connection's user. */
export function basicAuth(c: Pick<Connection, 'username' | 'password'>): string {
  return `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;
}
