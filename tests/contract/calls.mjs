// The page's table of typed calls (web/backend/calls.js) against the contract:
// it names exactly the calls the contract makes (which a Rust test holds to crates/play's
// `call::Call`), each call's URL is read back into the same call (the static site's fetch shim),
// and each URL is the one the server was asked at in the contract run (`Call::http`'s).
//
//   node --test tests/contract/calls.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { CALLS, address, callOf } = await import(pathToFileURL(join(repo, 'web/backend/calls.js')).href);
const { steps } = JSON.parse(readFileSync(join(repo, 'crates/server/tests/data/contract.json'), 'utf8'));

test('the page\'s table has every call of the contract, and only those', () => {
  const made = new Set(steps.filter((s) => s.call).map((s) => s.call.call));
  assert.deepEqual([...Object.keys(CALLS)].sort(), [...made].sort());
});

test('every call of the contract is read back from its URL as itself', () => {
  for (const s of steps.filter((x) => x.call)) {
    const { call: name, ...args } = s.call;
    const { method, path } = address(name, args);
    const back = callOf(method, path, args.body);
    assert.ok(back, `${name}: ${method} ${path} is read as no call`);
    assert.equal(back.name, name, `${method} ${path}`);
    for (const k of ['id', 'n', 'action']) if (k in args) assert.equal(back.args[k], String(args[k]), `${name}.${k}`);
    assert.deepEqual(back.args.query ?? {}, Object.fromEntries(Object.entries(args.query ?? {}).map(([k, v]) => [k, String(v)])));
  }
  assert.equal(callOf('GET', '/api/nowhere'), null);
  assert.equal(address('act', { id: '1/../x', action: 'move' }).path, '/api/games/1%2F..%2Fx/move');
});
