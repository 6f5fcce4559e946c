// The page's shape (web/, issue 46): the services are made once by the router (app.js) and
// passed in, so no module below it imports an instance of one, and no module writes through an
// object another module exports (each one's state is written by its owner's functions). Read
// from the files' text, as the imports are written.
//
//   node --test tests/contract/page.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const web = join(repo, 'web');

/** Every module of the page (web/**\/*.js), as [path from web/, text]. */
function modules(dir = web) {
  /** @type {[string, string][]} */
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...modules(p));
    else if (name.endsWith('.js')) out.push([relative(web, p), readFileSync(p, 'utf8')]);
  }
  return out;
}

/** The names a module imports from other modules (`import { a, b as c }`, `import * as d`). */
function imported(text) {
  const names = new Set();
  for (const m of text.matchAll(/^import \{([^}]*)\} from '[^']+'/gm)) {
    for (const n of m[1].split(',')) { const name = n.trim().split(/\s+as\s+/).pop(); if (name) names.add(name); }
  }
  for (const m of text.matchAll(/^import \* as (\w+)/gm)) names.add(m[1]);
  return names;
}

test('only the router opens the back-end door; no module imports a Board, settings or sound instance', () => {
  const found = [];
  for (const [path, text] of modules()) {
    if (path === 'app.js') continue;
    if (/^import [^;]* from '[./]*backend\/index\.js'/m.test(text)) found.push(`${path}: imports backend/index.js`);
    if (/^import \{[^}]*\b(app|settings|play)\b[^}]*\} from '[./]*(ui\/)?(state|settings)\.js'/m.test(text)) found.push(`${path}: imports an instance from state.js or settings.js`);
  }
  const state = readFileSync(join(web, 'ui/state.js'), 'utf8');
  const settings = readFileSync(join(web, 'ui/settings.js'), 'utf8');
  if (/^export (const|let) \w+ = new /m.test(state)) found.push('ui/state.js exports an instance');
  if (/^export (const|let) settings\b/m.test(settings)) found.push('ui/settings.js exports the settings');
  assert.deepEqual(found, []);
});

test('no module writes through an object another module exports', () => {
  const writes = [];
  for (const [path, text] of modules()) {
    for (const name of imported(text)) {
      const re = new RegExp(`(?<![\\w.$])${name.replace(/\$/g, '\\$')}\\.[A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)*\\s*(?:=(?![=>])|\\+\\+|--|\\+=|-=|\\?\\?=)`, 'g');
      for (const m of text.matchAll(re)) writes.push(`${path}: ${m[0].trim()}`);
    }
  }
  assert.deepEqual(writes, []);
});
