// `node --import tsx --import ./test/_helpers/trunkline-from-source.mjs …` runs code that imports
// the package by its name (`import { startTrunkline } from 'trunkline'`, as examples/ do) against
// this checkout's TypeScript source, with no `npm pack` or build first: the name resolves to
// client/index.ts, which tsx compiles. Outside the repository the same import finds the
// installed package.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const entry = pathToFileURL(new URL('../../client/index.ts', import.meta.url).pathname).href;
const hook = `export async function resolve(specifier, context, next) {
  return next(specifier === 'trunkline' ? ${JSON.stringify(entry)} : specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
