import http from 'node:http';

/** The admin the repository benchmarks start Trunkline with. */
export const BENCH_ADMIN = { ADMIN_USERNAME: 'bench', ADMIN_PASSWORD: 'bench-password-1' };

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** A JSON request over a keep-alive agent (fetch costs more on the client side than the server under test). */
export function call(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any; text: string; ms: number }> {
  const t0 = performance.now();
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { ...headers, ...(data ? { 'content-type': 'application/json', 'content-length': String(data.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {}
        resolve({ status: res.statusCode!, body: parsed, text, ms: performance.now() - t0 });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** An all-scoped token for the bench admin, and a repository (auto-initialised) to work in. */
export async function setupRepo(base: string, name: string, opts: { autoInit?: boolean } = {}): Promise<{ auth: Record<string, string>; owner: string; repo: string }> {
  const basic = { authorization: `Basic ${Buffer.from(`${BENCH_ADMIN.ADMIN_USERNAME}:${BENCH_ADMIN.ADMIN_PASSWORD}`).toString('base64')}` };
  const tok = await call(`${base}/api/v1/users/${BENCH_ADMIN.ADMIN_USERNAME}/tokens`, 'POST', basic, { name: `bench-${name}`, scopes: ['all'] });
  if (tok.status !== 201) throw new Error(`token: ${tok.status} ${tok.text}`);
  const auth = { authorization: `token ${tok.body.sha1}` };
  const r = await call(`${base}/api/v1/user/repos`, 'POST', auth, { name, auto_init: opts.autoInit ?? true });
  if (r.status !== 201) throw new Error(`repo: ${r.status} ${r.text}`);
  return { auth, owner: BENCH_ADMIN.ADMIN_USERNAME, repo: name };
}
