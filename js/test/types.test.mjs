// The TypeScript declarations against the files they describe. In a scratch project whose
// node_modules/chess5d is this package (a symlink, so package.json `exports` decide what is
// found), tsc compiles the ways of importing the package under each module setting, and node
// runs what it emitted:
//   - every documented way of importing the class type-checks and runs;
//   - a named import type-checks exactly when the file node loads defines it (otherwise tsc
//     rejects it and the emitted code gets undefined or fails to link);
//   - test/types/usage.ts (the whole API, strict) type-checks, and its misuses marked
//     @ts-expect-error are errors; the ES module declarations re-export every schema type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..');
const tsc = join(pkg, 'node_modules', 'typescript', 'bin', 'tsc');

const proj = mkdtempSync(join(tmpdir(), 'chess5d-types-'));
mkdirSync(join(proj, 'node_modules'));
symlinkSync(pkg, join(proj, 'node_modules', 'chess5d'), 'dir');
writeFileSync(join(proj, 'package.json'), JSON.stringify({ name: 'types-check', private: true }));
test.after(() => rmSync(proj, { recursive: true, force: true }));

/** Writes `files` into a fresh folder of the scratch project; returns its path. */
function folder(name, files) {
  const dir = join(proj, name);
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

/** Runs tsc (strict) on `files` of `dir` with `options`; returns { ok, out } (errors as text). */
function compile(dir, files, options) {
  const r = spawnSync('node', [tsc, '--strict', '--target', 'es2022', '--lib', 'es2022', '--pretty', 'false', ...options, ...files], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { ok: r.status === 0, out: r.stdout + r.stderr };
}

/** Runs an emitted file with node; returns { ok, out }. */
function run(file) {
  const r = spawnSync('node', [file], { cwd: dirname(file), encoding: 'utf8' });
  return { ok: r.status === 0, out: (r.stdout + r.stderr).trim() };
}

// The module settings: compiler options, the source extension (which decides the emitted file's
// module format under node16/nodenext), and a package.json for the folder (bundler output is an
// ES module in a .js file).
const SETTINGS = {
  commonjs: { options: ['--module', 'commonjs'], ext: 'ts' },
  'commonjs+esModuleInterop': { options: ['--module', 'commonjs', '--esModuleInterop'], ext: 'ts' },
  'nodenext .mts': { options: ['--module', 'nodenext'], ext: 'mts' },
  'nodenext .cts': { options: ['--module', 'nodenext'], ext: 'cts' },
  'node16 .mts': { options: ['--module', 'node16'], ext: 'mts' },
  'bundler (esnext)': { options: ['--module', 'esnext', '--moduleResolution', 'bundler'], ext: 'ts', type: 'module' },
  'bundler (preserve)': { options: ['--module', 'preserve'], ext: 'ts', type: 'module' },
  'es2020 + node10 + esModuleInterop (types field)': {
    options: ['--module', 'es2020', '--moduleResolution', 'node10', '--esModuleInterop'],
    ext: 'ts',
    type: 'module',
  },
};
// Without the DOM library (much faster to check), the one global the test files use.
const GLOBALS = 'declare const console: { log(...data: unknown[]): void };\n';
const emitted = (file) => file.replace(/\.mts$/, '.mjs').replace(/\.cts$/, '.cjs').replace(/\.ts$/, '.js');

// One game: the class constructs, a move is played, a schema type is used.
const BODY = `
const chess: Chess = new Chess();
chess.move('e3');
chess.submit();
const board: Board = chess.board;
const moves: Move[] = chess.moves();
console.log(JSON.stringify([typeof Chess, chess instanceof Chess, chess.player, board.timelines.length, moves.length > 0]));
`;
const EXPECTED = JSON.stringify(['function', true, 'black', 1, true]);
const TYPES = `import type { Board, Move } from 'chess5d';\n`;

// The imports of the class each setting must accept (and run).
const IMPORTS = {
  // (Without esModuleInterop a default import is an error, TS1259: the export has no `default`.)
  commonjs: { require: `import Chess = require('chess5d');`, named: `import { Chess } from 'chess5d';` },
  'commonjs+esModuleInterop': {
    require: `import Chess = require('chess5d');`,
    default: `import Chess from 'chess5d';`,
    named: `import { Chess } from 'chess5d';`,
  },
  'nodenext .mts': { default: `import Chess from 'chess5d';`, named: `import { Chess } from 'chess5d';` },
  'nodenext .cts': {
    require: `import Chess = require('chess5d');`,
    default: `import Chess from 'chess5d';`,
    named: `import { Chess } from 'chess5d';`,
  },
  'node16 .mts': { default: `import Chess from 'chess5d';`, named: `import { Chess } from 'chess5d';` },
  'bundler (esnext)': { default: `import Chess from 'chess5d';`, named: `import { Chess } from 'chess5d';` },
  'bundler (preserve)': { default: `import Chess from 'chess5d';`, named: `import { Chess } from 'chess5d';` },
  'es2020 + node10 + esModuleInterop (types field)': { default: `import Chess from 'chess5d';`, named: `import { Chess } from 'chess5d';` },
};

// Named value imports: type-checks exactly when defined at run time. The names both builds
// have (`Chess` and `version`: properties of the CommonJS export, exports of the ES module),
// `default` (an ES module's; in CommonJS only through esModuleInterop), instance members,
// schema types (no values) and nothing at all.
const NAMES = ['Chess', 'default', 'version', 'variants', 'board', 'moves', 'Board', 'Position', 'Chess5dError', 'nothingHere'];

// One tsc run per setting compiles both kinds of file (errors are reported per file, and tsc
// still emits every file).
for (const [setting, { options, ext, type }] of Object.entries(SETTINGS)) {
  test(setting, async (t) => {
    const imports = {};
    for (const [kind, line] of Object.entries(IMPORTS[setting])) imports[`${kind}.${ext}`] = `${line}\n${TYPES}${BODY}`;
    const named = {};
    // (Numbered files: names differ in case only, and file systems may not tell them apart.)
    const namedFile = (name) => `named_${NAMES.indexOf(name)}.${ext}`;
    for (const name of NAMES) {
      const local = name === 'default' ? 'theDefault' : name;
      named[namedFile(name)] = `import { ${name === 'default' ? 'default as theDefault' : name} } from 'chess5d';\nconsole.log(typeof ${local});\n`;
    }
    const dir = folder(setting.replace(/\W+/g, '-'), {
      ...imports,
      ...named,
      'globals.d.ts': GLOBALS,
      ...(type ? { 'package.json': JSON.stringify({ type }) } : {}),
    });
    const c = compile(dir, [...Object.keys(imports), ...Object.keys(named), 'globals.d.ts'], options);
    const rejected = (file) => c.out.split('\n').some((l) => l.startsWith(`${file}(`));
    assert.ok(!/chess5d\.d\.m?ts/.test(c.out), `errors in the declarations themselves:\n${c.out}`);

    await t.test('every import of the class type-checks and runs', () => {
      for (const f of Object.keys(imports)) {
        assert.ok(!rejected(f), `tsc ${options.join(' ')}: ${f}:\n${c.out}`);
        const r = run(join(dir, emitted(f)));
        assert.ok(r.ok, `${setting}, ${f}: ${r.out}`);
        assert.equal(r.out, EXPECTED, `${setting}, ${f}`);
      }
    });

    await t.test('a named import type-checks only if it is defined at run time', () => {
      const accepted = {};
      for (const name of NAMES) {
        const file = namedFile(name);
        const r = run(join(dir, emitted(file)));
        // Defined: the emitted code prints its type. Not: CommonJS reads undefined, an ES module
        // fails to link, and an import tsc elided (a type used as a value) leaves nothing to read.
        const defined = r.ok && r.out !== 'undefined';
        if (!defined) assert.match(r.out, /^undefined$|does not provide an export named|ReferenceError/, `${setting}, ${name}`);
        accepted[name] = !rejected(file);
        assert.equal(accepted[name], defined, `${setting}: import { ${name} }: tsc ${accepted[name] ? 'accepts' : 'rejects'} it, at run time it is ${defined ? r.out : 'not defined'}\n${c.out}`);
      }
      for (const name of ['Chess', 'version']) assert.ok(accepted[name], name);
      for (const name of ['variants', 'board', 'moves', 'Board', 'Position', 'Chess5dError', 'nothingHere']) assert.ok(!accepted[name], name);
    });
  });
}

test('the whole API type-checks (test/types/usage.ts), and its misuses are errors', () => {
  const usage = readFileSync(join(here, 'types', 'usage.ts'), 'utf8');
  const dir = folder('usage', { 'usage.ts': usage, 'globals.d.ts': GLOBALS });
  const c = compile(dir, ['usage.ts', 'globals.d.ts'], ['--noEmit', '--module', 'commonjs']);
  assert.ok(c.ok, c.out);
  // Every @ts-expect-error is needed (tsc reports an unused one), so each misuse is an error:
  // without the directives the file has one error per directive.
  const stripped = usage.replaceAll('// @ts-expect-error', '//');
  const directives = usage.split('// @ts-expect-error').length - 1;
  assert.ok(directives >= 10, `only ${directives} misuses`);
  const dir2 = folder('usage-stripped', { 'usage.ts': stripped, 'globals.d.ts': GLOBALS });
  const c2 = compile(dir2, ['usage.ts', 'globals.d.ts'], ['--noEmit', '--module', 'commonjs']);
  const errors = c2.out.split('\n').filter((l) => /^usage\.ts\(\d+,\d+\): error/.test(l));
  const lines = new Set(errors.map((l) => /\((\d+),/.exec(l)[1]));
  assert.equal(lines.size, directives, c2.out);
});

test('the ES module declarations export every schema type of the CommonJS ones', () => {
  const cjs = readFileSync(join(pkg, 'src', 'chess5d.d.ts'), 'utf8');
  const ns = cjs.slice(cjs.indexOf('declare namespace Chess {'));
  // Generic types get `string` for their parameters.
  const names = [...ns.matchAll(/^ {2}(?:type|interface) (\w+)(<)?/gm)].filter((m) => m[1] !== 'Chess');
  const use = (m) => (m[2] ? `${m[1]}<string>` : m[1]);
  const list = names.map((m) => m[1]);
  assert.ok(list.length > 20 && list.includes('Chess5dError') && list.includes('Board'), list.join(' '));
  // Each type of the ES module declarations is the CommonJS one (both ways assignable).
  const cjsType = (m) => `import('chess5d', { with: { 'resolution-mode': 'require' } }).${use(m)}`;
  const file =
    `import type { ${list.join(', ')} } from 'chess5d';\n` +
    names
      .map((m, i) => `type Same${i} = [${use(m)}] extends [${cjsType(m)}] ? ([${cjsType(m)}] extends [${use(m)}] ? true : never) : never;\nconst same${i}: Same${i} = true;\n`)
      .join('') +
    `console.log(${names.map((_, i) => `same${i}`).join(', ')});\n`;
  const dir = folder('esm-types', { 'all.mts': file, 'globals.d.ts': GLOBALS });
  const c = compile(dir, ['all.mts', 'globals.d.ts'], ['--noEmit', '--module', 'nodenext']);
  assert.ok(c.ok, c.out);
});

test('dist holds the declarations as src has them (npm run build copies them)', () => {
  for (const f of ['chess5d.d.ts', 'chess5d.d.mts']) {
    const built = join(pkg, 'dist', f);
    assert.ok(existsSync(built), `${built}: run npm run build`);
    assert.equal(readFileSync(built, 'utf8'), readFileSync(join(pkg, 'src', f), 'utf8'), f);
  }
});

// The class's members as declared, against the class the package loads: every declared method
// is a function of the prototype, every read-only field a getter, every writable field a
// property of a new instance, every static a property of the class. (A todo until the runtime
// has the whole 1.2.x API: the failures it reports are the members still missing.)
test('every member the declarations give the class exists at run time', async () => {
  const ts = (await import('typescript')).default;
  const file = join(pkg, 'src', 'chess5d.d.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const cls = source.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === 'Chess');
  const Chess = (await import(join(pkg, 'dist', 'chess5d.js'))).default;
  const instance = new Chess();
  const missing = [];
  const seen = new Set();
  for (const m of cls.members) {
    if (!m.name) continue;
    const name = m.name.text;
    const isStatic = m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
    const readonly = m.modifiers?.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword);
    if (seen.has(name)) continue;
    seen.add(name);
    if (isStatic) {
      if (Chess[name] === undefined) missing.push(`static ${name}`);
    } else if (ts.isMethodDeclaration(m)) {
      if (typeof Chess.prototype[name] !== 'function') missing.push(`${name}()`);
    } else if (readonly) {
      if (typeof Object.getOwnPropertyDescriptor(Chess.prototype, name)?.get !== 'function') missing.push(`get ${name}`);
    } else if (!Object.prototype.hasOwnProperty.call(instance, name)) {
      missing.push(name);
    }
  }
  assert.ok(seen.size > 35, [...seen].join(' '));
  assert.deepEqual(missing, []);
});
