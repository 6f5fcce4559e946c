// The TypeScript declarations: a usage file type-checks (tsc --noEmit, strict), and a misuse
// marked @ts-expect-error is an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

test('the declarations type-check a script using the API', () => {
  const tsc = join(here, '..', 'node_modules', 'typescript', 'bin', 'tsc');
  const out = execFileSync(
    'node',
    [tsc, '--noEmit', '--strict', '--target', 'es2020', '--module', 'commonjs', '--esModuleInterop', join(here, 'types', 'usage.ts')],
    { encoding: 'utf8' },
  );
  assert.equal(out, '');
});
