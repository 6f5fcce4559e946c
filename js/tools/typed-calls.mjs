#!/usr/bin/env node
// Codemod: the page's API calls by URL, `api('GET', `/api/games/${id}?at=${n}`)`, become typed
// calls, `api('game', { id, query: { at: n } })`, and `backend.text('/api/...')` becomes
// `backend.call(...)`, read against the one table of calls (backend/calls.js). Rerunnable: a
// call already typed is left as it is; what it cannot read (a URL built elsewhere, an action
// chosen at run time that may be another call) is listed for a hand, not changed.
//
//   node js/tools/typed-calls.mjs [DIR]      (default: the page's folder; --check: change
//                                             nothing, exit 1 if anything is left to convert)
import { readFileSync, writeFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const dirArg = args.find((a) => !a.startsWith('--'));
const candidates = [dirArg, 'web'].filter(Boolean).map((d) => resolve(repo, d));
const root = candidates.find((d) => existsSync(join(d, 'backend', 'calls.js')));
if (!root) { console.error(`typed-calls: no page folder with backend/calls.js among ${candidates.join(', ')}`); process.exit(2); }
const { CALLS } = await import(pathToFileURL(join(root, 'backend', 'calls.js')).href);

/** The end of a balanced argument list starting after `(` at i (strings, templates, nesting). */
function argsEnd(src, i) {
  const stack = [')'];
  while (i < src.length) {
    const c = src[i];
    if (c === '\'' || c === '"') { i = stringEnd(src, i); continue; }
    if (c === '`') { i = templateEnd(src, i); continue; }
    if ('([{'.includes(c)) stack.push({ '(': ')', '[': ']', '{': '}' }[c]);
    else if (')]}'.includes(c)) { if (stack.pop() !== c) return -1; if (!stack.length) return i; }
    i++;
  }
  return -1;
}
function stringEnd(src, i) {
  const q = src[i++];
  while (i < src.length && src[i] !== q) i += src[i] === '\\' ? 2 : 1;
  return i + 1;
}
function templateEnd(src, i) {
  i++;
  while (i < src.length && src[i] !== '`') {
    if (src[i] === '\\') { i += 2; continue; }
    if (src[i] === '$' && src[i + 1] === '{') { i = argsEndBrace(src, i + 2); continue; }
    i++;
  }
  return i + 1;
}
function argsEndBrace(src, i) {
  let depth = 1;
  while (i < src.length) {
    const c = src[i];
    if (c === '\'' || c === '"') { i = stringEnd(src, i); continue; }
    if (c === '`') { i = templateEnd(src, i); continue; }
    if (c === '{') depth++;
    if (c === '}' && --depth === 0) return i + 1;
    i++;
  }
  return i;
}
/** The top-level comma-separated parts of an argument list. */
function split(text) {
  const parts = [];
  let depth = 0; let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\'' || c === '"') { i = stringEnd(text, i) - 1; continue; }
    if (c === '`') { i = templateEnd(text, i) - 1; continue; }
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) depth--;
    if (c === ',' && depth === 0) { parts.push(text.slice(start, i).trim()); start = i + 1; }
  }
  if (text.slice(start).trim()) parts.push(text.slice(start).trim());
  return parts;
}
/** A URL literal as pieces: {text} and {expr}. */
function pieces(lit) {
  if (lit[0] === '\'' || lit[0] === '"') return [{ text: lit.slice(1, -1) }];
  if (lit[0] !== '`') return null;
  const out = [];
  let i = 1; let text = '';
  while (i < lit.length - 1) {
    if (lit[i] === '$' && lit[i + 1] === '{') {
      const end = argsEndBrace(lit, i + 2);
      if (text) out.push({ text }); text = '';
      out.push({ expr: lit.slice(i + 2, end - 1).trim() });
      i = end;
      continue;
    }
    text += lit[i++];
  }
  if (text) out.push({ text });
  return out;
}
const unwrap = (e) => e.replace(/^encodeURIComponent\(([\s\S]*)\)$/, '$1');
const quote = (t) => `'${t.replace(/'/g, "\\'")}'`;
/** A URL's pieces read against the table: {name, fields} or null. */
function typed(method, ps) {
  // Path and query: the query starts at the first literal '?'.
  const path = []; const query = [];
  let inQuery = false;
  for (const p of ps) {
    if (p.text !== undefined && !inQuery && p.text.includes('?')) {
      const [a, b] = p.text.split('?');
      if (a) path.push({ text: a });
      inQuery = true;
      if (b) query.push({ text: b });
      continue;
    }
    (inQuery ? query : path).push(p);
  }
  // Segments: each a literal or one expression.
  const segs = [];
  let cur = [];
  const flush = () => { segs.push(cur); cur = []; };
  for (const p of path) {
    if (p.expr !== undefined) { cur.push(p); continue; }
    const bits = p.text.split('/');
    bits.forEach((b, i) => { if (i > 0) flush(); if (b) cur.push({ text: b }); });
  }
  flush();
  const segments = segs.slice(1); // the text before the first '/'
  if (segments.some((s) => s.length !== 1)) return null;
  let q = null;
  if (query.length) {
    // name=${expr}&name=literal...
    const fields = [];
    let text = '';
    for (const p of query) text += p.text !== undefined ? p.text : `\u0000${fields.push(unwrap(p.expr)) - 1}\u0000`;
    q = text.split('&').map((kv) => {
      const [k, v] = kv.split('=');
      const m = v.match(/^\u0000(\d+)\u0000$/);
      return m ? `${k}: ${fields[Number(m[1])]}` : v.includes('\u0000') ? null : `${k}: ${quote(decodeURIComponent(v))}`;
    });
    if (q.includes(null)) return null;
  }
  for (const [name, [m, pattern]] of Object.entries(CALLS)) {
    if (m !== method) continue;
    const pat = pattern.split('/').slice(1);
    if (pat.length !== segments.length) continue;
    const fields = [];
    let ok = true;
    for (let i = 0; i < pat.length && ok; i++) {
      const s = segments[i][0];
      if (pat[i].startsWith(':')) {
        const k = pat[i].slice(1);
        if (s.expr !== undefined) {
          // An action chosen at run time may be another call (start, stop): by hand.
          if (k === 'action' && !/^[\w.]+$/.test(s.expr)) { ok = false; break; }
          const v = unwrap(s.expr);
          fields.push(v === k ? k : `${k}: ${v}`);
        } else {
          // A fixed name another call of the table has is that call.
          fields.push(`${k}: ${quote(decodeURIComponent(s.text))}`);
        }
      } else if (s.text !== pat[i]) ok = false;
    }
    if (ok) return { name, fields: q ? [...fields, `query: { ${q.join(', ')} }`] : fields };
  }
  return null;
}

const files = (d) => readdirSync(d).flatMap((f) => {
  const p = join(d, f);
  if (statSync(p).isDirectory()) return f === 'node_modules' || f === 'pkg' ? [] : files(p);
  return f.endsWith('.js') || f.endsWith('.mjs') ? [p] : [];
});
let changed = 0; const left = [];
for (const file of files(root)) {
  if (file.includes(`${join('backend', '')}`) && !file.endsWith('index.js')) continue;
  const src = readFileSync(file, 'utf8');
  let out = ''; let i = 0;
  const re = /\b(api|backend\.text)\(/g;
  let m;
  while ((m = re.exec(src))) {
    if (/[\w.]$/.test(src.slice(0, m.index)) || src.slice(m.index - 9, m.index).endsWith('function ')) continue;
    const open = m.index + m[0].length;
    const end = argsEnd(src, open);
    if (end < 0) continue;
    const parts = split(src.slice(open, end));
    const isText = m[1] === 'backend.text';
    const [method, url, body] = isText ? ['\'GET\'', parts[0], undefined] : parts;
    const line = src.slice(0, m.index).split('\n').length;
    if (!/^'(GET|POST|DELETE)'$/.test(method ?? '')) continue; // already typed (or not a call)
    const ps = pieces(url ?? '');
    const t = ps && typed(method.slice(1, -1), ps);
    if (!t) { left.push(`${file.slice(repo.length + 1)}:${line}: ${src.slice(m.index, end + 1).replace(/\s+/g, ' ')}`); continue; }
    const fields = body !== undefined ? [...t.fields, `body: ${body}`] : t.fields;
    const argText = fields.length ? `, { ${fields.join(', ')} }` : '';
    const call = isText ? `backend.call('${t.name}'${argText})` : `api('${t.name}'${argText})`;
    out += src.slice(i, m.index) + call;
    i = end + 1;
    re.lastIndex = end + 1;
    changed++;
  }
  out += src.slice(i);
  if (out !== src && !check) writeFileSync(file, out);
}
console.log(`typed-calls: ${changed} call(s) ${check ? 'to convert' : 'converted'} in ${root.slice(repo.length + 1)}`);
if (left.length) console.log(`left for a hand (${left.length}):\n  ${left.join('\n  ')}`);
process.exit(check && (changed || left.length) ? 1 : 0);
