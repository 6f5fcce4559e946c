// The two libraries under comparison: 5d-chess-js 1.2.1 (the reference, "theirs") and our
// package chess5d ("ours", js/dist by default; CHESS5D_OURS=<path> to test another build).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';

const require = createRequire(import.meta.url);

/** `oursPath` overrides CHESS5D_OURS (the self-test passes 5d-chess-js itself as ours). */
export function loadLibraries(oursPathArg) {
  const Theirs = require('5d-chess-js');
  const theirsVersion = require('5d-chess-js/package.json').version;
  const oursPath = oursPathArg || process.env.CHESS5D_OURS || fileURLToPath(new URL('../../dist/chess5d.js', import.meta.url));
  if (!existsSync(oursPath)) {
    throw new Error(`our package is not built: ${oursPath} is missing (cd js && npm run build)`);
  }
  const Ours = require(oursPath);
  return { Theirs, Ours, theirsVersion, oursPath };
}
