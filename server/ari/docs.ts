import type { Hono } from 'hono';
import type { Operation } from '../../protocol/operation.js';
import { ARI_RESOURCES, type AriResource } from '../../protocol/ari/resources.js';
import { ariOpenApi } from '../../protocol/ari/openapi.js';
import { apiDeclaration, resourceListing } from '../../protocol/ari/swagger.js';
import { simOpenApi } from '../../protocol/sim/openapi.js';
import { SIM_RESOURCE } from '../../protocol/sim/resource.js';

/**
 * Serves the Swagger 1.1 documents generated from protocol/, listing only
 * what is actually mounted. basePath follows the request's Host header, as
 * Asterisk rewrites it, because ari-client fetches every declaration from it.
 * The OpenAPI 3 documents of both APIs sit beside them, behind the same
 * credentials (Asterisk asks for them before serving api-docs); their server
 * URLs are host-relative, so one text serves every Host.
 */
export function mountDocs(app: Hono<any>, served: (op: Operation) => boolean): void {
  // Computed on first use: routes are mounted after the docs.
  let resources: AriResource[] | undefined;
  let byFile = new Map<string, AriResource>();
  const listed = () => {
    if (!resources) {
      resources = ARI_RESOURCES.filter((r) => r.operations.some(served));
      byFile = new Map(resources.map((r) => [`${r.name}.json`, r]));
    }
    return resources;
  };
  const cache = new Map<string, string>();
  const cached = (key: string, make: () => unknown) => {
    let text = cache.get(key);
    if (text === undefined) {
      text = JSON.stringify(make(), null, 2);
      if (cache.size > 256) cache.clear();
      cache.set(key, text);
    }
    return text;
  };
  const json = (text: string) => new Response(text, { headers: { 'content-type': 'application/json' } });
  const base = (host: string | undefined, prefix: string) => (host ? `http://${host}${prefix}` : undefined);

  app.get('/ari/api-docs/:file', (c) => {
    const file = c.req.param('file');
    const host = c.req.header('host');
    const all = listed();
    if (file === 'resources.json') return json(cached(`listing|${host}`, () => resourceListing(base(host, '/ari'), all)));
    const resource = byFile.get(file);
    if (!resource) return c.json({ message: 'Resource not found' }, 404);
    return json(cached(`${file}|${host}`, () => apiDeclaration(resource, base(host, '/ari'), served)));
  });
  app.all('/ari/api-docs/:file', (c) => c.json({ message: 'Invalid method' }, 405, { Allow: 'GET' }));

  app.get('/sim/api-docs.json', (c) => {
    const host = c.req.header('host');
    return json(cached(`sim|${host}`, () => apiDeclaration(SIM_RESOURCE, base(host, '/sim'), served)));
  });

  for (const [path, make] of [['/ari/openapi.json', ariOpenApi], ['/sim/openapi.json', simOpenApi]] as const) {
    app.get(path, () => json(cached(path, () => make(served))));
    app.all(path, (c) => c.json({ message: 'Invalid method' }, 405, { Allow: 'GET' }));
  }
}
