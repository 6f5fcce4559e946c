// The diff engine of the differential harness: compares what 5d-chess-js (theirs) and
// chess5d (ours) gave for one call, and returns a list of differences, each with a `kind`
// (a short, stable label used to classify it) and details.
//
// An outcome is { status: 'ok', value, ms } | { status: 'throws', error, ms } | { status: 'missing' }.

const MAX_DIFFS = 12;

/** Runs `f(lib)` and wraps its result or error as an outcome, with its duration. */
export function outcome(f) {
  const t0 = performance.now();
  try {
    const value = f();
    return { status: 'ok', value, ms: performance.now() - t0 };
  } catch (e) {
    const ms = performance.now() - t0;
    if (e && e.__missing) return { status: 'missing', error: { name: 'Missing', message: e.message }, ms };
    return { status: 'throws', error: { name: e && e.name, message: String(e && e.message !== undefined ? e.message : e) }, ms };
  }
}

/** Throws a marker error when `obj[name]` is not a function (so outcome() reports 'missing'). */
export function callOf(obj, name, ...args) {
  if (typeof obj[name] !== 'function') {
    const e = new Error(`${name} is not a function`);
    e.__missing = true;
    throw e;
  }
  return obj[name](...args);
}

/** Reads a getter, marking it missing when the property is absent. */
export function getOf(obj, name) {
  if (!(name in obj)) {
    const e = new Error(`${name} is not a property`);
    e.__missing = true;
    throw e;
  }
  return obj[name];
}

export function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function posId(p) {
  if (!p || typeof p !== 'object') return String(p);
  return `${p.timeline}T${p.turn}${p.player ? p.player[0] : '?'}${p.file},${p.rank}`;
}

/** An identity for array elements that are moves, actions, pieces, turns or timelines (else null). */
export function identity(x) {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return null;
  if (x.start && x.end) return `${posId(x.start)}>${posId(x.end)}${x.promotion ? '=' + x.promotion : ''}`;
  if (Array.isArray(x.moves)) return 'A:' + x.moves.map(identity).join('|');
  if (x.position && 'piece' in x) return `${x.player}${x.piece}@${posId(x.position)}`;
  if (Array.isArray(x.pieces) && 'turn' in x) return `T${x.turn}${x.player}`;
  if (Array.isArray(x.turns) && 'timeline' in x) return `L${x.timeline}`;
  return null;
}

/** A path with array indices replaced by [] (the classification key of a field difference). */
export function normPath(path) {
  return path.replace(/\[\d+\]/g, '[]');
}

function short(v, n = 160) {
  let s;
  if (v === undefined) s = 'undefined';
  else if (typeof v === 'string') s = JSON.stringify(v);
  else {
    try {
      s = JSON.stringify(v);
    } catch (e) {
      s = String(v);
    }
  }
  if (s === undefined) s = String(v);
  return s.length > n ? s.slice(0, n) + `…(${s.length})` : s;
}
export { short };

/**
 * Deep comparison of two JSON-like values, pushing at most MAX_DIFFS differences into `out`,
 * one per normalised path and kind. Arrays whose elements have an identity are aligned by it.
 */
function walk(a, b, path, out, seen) {
  if (out.length >= MAX_DIFFS) return;
  const push = (kind, theirs, ours, extra) => {
    const key = kind + ' ' + normPath(path);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ kind, path: normPath(path), at: path || '(root)', theirs, ours, ...extra });
  };
  const ta = typeName(a);
  const tb = typeName(b);
  if (ta !== tb) return push('type', `${ta} ${short(a, 80)}`, `${tb} ${short(b, 80)}`);
  if (ta === 'array') {
    const ids = a.length && a.every((x) => identity(x) !== null) && b.every((x) => identity(x) !== null);
    if (ids) {
      const ia = a.map(identity);
      const ib = b.map(identity);
      const sa = new Map();
      ia.forEach((id, i) => sa.set(id, i));
      const sb = new Map();
      ib.forEach((id, i) => sb.set(id, i));
      const missing = ia.filter((id) => !sb.has(id)); // theirs only
      const extra = ib.filter((id) => !sa.has(id)); // ours only
      if (missing.length || extra.length) {
        push('set', `${a.length} items, only theirs: ${missing.slice(0, 4).join(' ')}`, `${b.length} items, only ours: ${extra.slice(0, 4).join(' ')}`, {
          missing: a.filter((x, i) => !sb.has(ia[i])),
          extra: b.filter((x, i) => !sa.has(ib[i])),
        });
      }
      const common = ia.filter((id) => sb.has(id));
      const commonB = ib.filter((id) => sa.has(id));
      if (common.join('\n') !== commonB.join('\n')) {
        const i = common.findIndex((id, k) => id !== commonB[k]);
        push('order', `…${common.slice(Math.max(0, i - 1), i + 3).join(' ')}`, `…${commonB.slice(Math.max(0, i - 1), i + 3).join(' ')}`);
      }
      for (const id of common) walk(a[sa.get(id)], b[sb.get(id)], `${path}[${sa.get(id)}]`, out, seen);
      return;
    }
    if (a.length !== b.length) push('length', `${a.length} ${short(a, 100)}`, `${b.length} ${short(b, 100)}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`, out, seen);
    return;
  }
  if (ta === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    const onlyA = ka.filter((k) => !(k in b));
    const onlyB = kb.filter((k) => !(k in a));
    if (onlyA.length) push('key-missing', onlyA.join(','), '(absent)');
    if (onlyB.length) push('key-extra', '(absent)', onlyB.join(','));
    const common = ka.filter((k) => k in b);
    const commonB = kb.filter((k) => k in a);
    if (common.join(',') !== commonB.join(',')) push('key-order', ka.join(','), kb.join(','));
    for (const k of common) walk(a[k], b[k], `${path}.${k}`, out, seen);
    return;
  }
  if (ta === 'string') {
    if (a !== b && /^[[{]/.test(a) && /^[[{]/.test(b)) {
      // JSON text: its exact text differs; report what differs inside, under 'json:'.
      let pa;
      let pb;
      try {
        pa = JSON.parse(a);
        pb = JSON.parse(b);
      } catch (e) {
        pa = undefined;
      }
      if (pa !== undefined) {
        const inner = [];
        walk(pa, pb, '', inner, new Set());
        if (!inner.length) return push('json-text', short(a, 80), short(b, 80));
        for (const d of inner) {
          const key = d.kind + ' json:' + d.path;
          if (seen.has(key) || out.length >= MAX_DIFFS) continue;
          seen.add(key);
          out.push({ ...d, path: `${normPath(path)} json:${d.path}`, at: `${path} json:${d.at}` });
        }
        return;
      }
    }
    if (a !== b) {
      if (a.includes('\n') || b.includes('\n')) return textDiff(a, b, path, push);
      push('value', short(a), short(b));
    }
    return;
  }
  if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) push('value', short(a), short(b));
}

/** Line-level difference of two multi-line strings. */
function textDiff(a, b, path, push) {
  // A final newline is its own kind of difference, apart from the lines.
  const na = a.endsWith('\n');
  const nb = b.endsWith('\n');
  if (na !== nb) {
    push('final-newline', na ? 'ends with \\n' : 'no final \\n', nb ? 'ends with \\n' : 'no final \\n');
    if (na) a = a.slice(0, -1);
    if (nb) b = b.slice(0, -1);
    if (a === b) return;
  }
  const la = a.split(/\r?\n/);
  const lb = b.split(/\r?\n/);
  const ca = new Map();
  for (const l of la) ca.set(l, (ca.get(l) || 0) + 1);
  const cb = new Map();
  for (const l of lb) cb.set(l, (cb.get(l) || 0) + 1);
  const missing = [];
  for (const [l, n] of ca) for (let i = 0; i < n - (cb.get(l) || 0); i++) missing.push(l);
  const extra = [];
  for (const [l, n] of cb) for (let i = 0; i < n - (ca.get(l) || 0); i++) extra.push(l);
  if (!missing.length && !extra.length) {
    if (a.replace(/\r/g, '') === b.replace(/\r/g, '')) return push('text-newlines', short(a, 80), short(b, 80));
    const i = la.findIndex((l, k) => l !== lb[k]);
    return push('line-order', `line ${i}: ${short(la[i])}`, `line ${i}: ${short(lb[i])}`);
  }
  push('lines', `${la.length} lines, only theirs: ${short(missing.slice(0, 4))}`, `${lb.length} lines, only ours: ${short(extra.slice(0, 4))}`, {
    missingLines: missing,
    extraLines: extra,
  });
}

/** The differences between two JSON-like values (empty when equal, key order included). */
export function valueDiffs(a, b) {
  const out = [];
  walk(a, b, '', out, new Set());
  return out;
}

/** The differences between two outcomes of the same call. */
export function outcomeDiffs(theirs, ours) {
  if (ours.status === 'missing' && theirs.status !== 'missing') {
    return [{ kind: 'missing', path: '', theirs: theirs.status === 'ok' ? short(theirs.value) : `throws ${theirs.error.name}`, ours: ours.error.message }];
  }
  if (theirs.status !== ours.status) {
    const d = (o) => (o.status === 'ok' ? `returns ${short(o.value, 120)}` : `throws ${o.error.name}: ${short(o.error.message, 120)}`);
    return [{ kind: theirs.status === 'throws' ? 'throws-theirs-only' : 'throws-ours-only', path: '', theirs: d(theirs), ours: d(ours) }];
  }
  if (theirs.status !== 'ok') return [];
  return valueDiffs(theirs.value, ours.value);
}
