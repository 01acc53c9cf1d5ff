import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// The house rules of ARCHITECTURE.md, checked on every run: no import circles, protocol/ depends on
// nothing of the server, the engine and the services know nothing of HTTP, the console reaches the
// server only over its public APIs, and no source file grows past 400 lines.
const test = suite('architecture');
const root = join(import.meta.dirname, '..');
const MAX_LINES = 400;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const files = ['server', 'protocol', 'client', 'cli', 'console'].flatMap((d) => sources(join(root, d)));
const known = new Set(files);
const rel = (p: string) => relative(root, p).split(sep).join('/');

/** Static imports and re-exports (type-only ones included: a circle of types is still a circle of modules). */
function importsOf(file: string): { local: string[]; bare: string[] } {
  const text = readFileSync(file, 'utf8');
  const local: string[] = [];
  const bare: string[] = [];
  const re = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (spec.endsWith('.css')) continue; // the console's style sheet, bundled by esbuild
    if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts')).replace(/\.mjs\.ts$/, '.mjs');
      // A .js specifier names a .ts or, in the console, a .tsx file.
      local.push(known.has(target) || !known.has(`${target}x`) ? target : `${target}x`);
    }
    else bare.push(spec);
  }
  return { local, bare };
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

test('no import circles in server/, protocol/, client/, cli/ and console/', () => {
  // Tarjan's strongly connected components; any component of more than one module is a circle.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)?.local ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(rel(w));
      } while (w !== v);
      if (comp.length > 1) circles.push(comp.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  assert.equal(circles, []);
});

test('every local import resolves to a file', () => {
  const missing: string[] = [];
  for (const [f, { local }] of graph) for (const target of local) if (!graph.has(target)) missing.push(`${rel(f)} → ${rel(target)}`);
  assert.equal(missing, []);
});

test('protocol/ imports nothing from server/ and no runtime library but valibot', () => {
  const bad: string[] = [];
  for (const [f, { local, bare }] of graph) {
    if (!rel(f).startsWith('protocol/')) continue;
    for (const t of local) if (!rel(t).startsWith('protocol/')) bad.push(`${rel(f)} → ${rel(t)}`);
    for (const b of bare) if (b !== 'valibot' && !b.startsWith('@valibot/')) bad.push(`${rel(f)} → ${b}`);
  }
  assert.equal(bad, []);
});

test('client/ (the package a user imports) reaches the server only as a process: no import of server/ or cli/', () => {
  const bad: string[] = [];
  for (const [f, { local, bare }] of graph) {
    if (!rel(f).startsWith('client/')) continue;
    for (const t of local) if (!/^(client|protocol)\//.test(rel(t))) bad.push(`${rel(f)} → ${rel(t)}`);
    for (const b of bare) if (!b.startsWith('node:') && b !== 'valibot') bad.push(`${rel(f)} → ${b}`);
  }
  assert.equal(bad, []);
});

test('console/ (the page at /) imports nothing of the server, client or cli, only preact and type-only protocol/', () => {
  const bad: string[] = [];
  for (const [f, { local, bare }] of graph) {
    if (!rel(f).startsWith('console/')) continue;
    const text = readFileSync(f, 'utf8');
    for (const t of local) {
      if (rel(t).startsWith('console/')) continue;
      // protocol/ only for its types: nothing of it (nor valibot) may end up in the bundle.
      const spec = relative(dirname(f), t).split(sep).join('/').replace(/\.ts$/, '');
      const typeOnly = new RegExp(`^\\s*import\\s+type\\s[^'"]*from\\s+['"][./]*${spec.replace(/^(\.\.\/)+/, '')}\\.js['"]`, 'm').test(text);
      if (!rel(t).startsWith('protocol/') || !typeOnly) bad.push(`${rel(f)} → ${rel(t)}`);
    }
    for (const b of bare) if (b !== 'preact' && !b.startsWith('preact/')) bad.push(`${rel(f)} → ${b}`);
  }
  assert.equal(bad, []);
});

test('the engine and the services know nothing of HTTP', () => {
  const layer = (p: string) => /^server\/ari\/engine\//.test(p) || /^server\/[^/]+\/services\//.test(p);
  const bad: string[] = [];
  for (const [f, { local, bare }] of graph) {
    const r = rel(f);
    if (!layer(r)) continue;
    for (const b of bare) if (b === 'hono' || b.startsWith('hono/') || b.startsWith('@hono/') || b === 'node:http' || b === 'ws') bad.push(`${r} → ${b}`);
    for (const t of local) if (/^server\/(http|[^/]+\/(routes|web|http))\//.test(rel(t))) bad.push(`${r} → ${rel(t)}`);
    if (/\bnew Response\(|\bResponse\.json\(/.test(readFileSync(f, 'utf8'))) bad.push(`${r} builds a Response`);
  }
  assert.equal(bad, []);
});

test(`no source file over ${MAX_LINES} lines`, () => {
  const long = files.map((f) => [rel(f), readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > MAX_LINES);
  assert.equal(long.map(([f, n]) => `${f}: ${n}`), []);
});

test.run();
