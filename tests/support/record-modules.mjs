// Preloaded with `node --import` by the start-up tests (src/server/server.test.ts): appends to the
// file named by LOADED_MODULES_FILE every module the process loads, one path or URL a line: ES
// modules as they are resolved, CommonJS ones as they are required.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const file = process.env.LOADED_MODULES_FILE;
if (!file) throw new Error('LOADED_MODULES_FILE is not set');

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(file)}, result.url + '\\n');
  return result;
}`),
);

const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, [request, parent, isMain]);
  try {
    appendFileSync(file, `${Module._resolveFilename(request, parent, isMain)}\n`);
  } catch {
    // a built-in module
  }
  return loaded;
};
