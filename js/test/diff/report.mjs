// Collects the differences of many games, classifies them by (call, args, kind[, path]) and
// prints a summary table with the first example of each class (seed, step, both outputs).
import { loadLibraries } from './libs.mjs';
import { Game } from './game.mjs';
import { knownFor } from './known.mjs';

/** Normalises argument labels so that classes do not split on incidental values. */
function classArgs(call, args) {
  return args;
}

export function classKey(d) {
  return [d.call, classArgs(d.call, d.args), d.kind, d.path || ''].join(' | ');
}

/**
 * Plays `games` games from `seed` (game i uses seed + i) and returns the classes:
 * Map key -> { call, args, kind, path, count, known, first }.
 */
export function runGames({ oursPath, ignoreTimedOut = false, games, seed, variant, timeout = 500, maxActions = 14, maxSteps = 60, fullRate = 0.35, actionsCap = 300, onGame, roundTrip = !oursPath } = {}) {
  const { Theirs, Ours } = loadLibraries(oursPath);
  const classes = new Map();
  const stats = { games: 0 };
  const sink = (d) => {
    if (ignoreTimedOut && d.ctx && (d.ctx.theirsTimedOut || d.ctx.oursTimedOut)) return;
    const key = classKey(d);
    let c = classes.get(key);
    if (!c) {
      const k = knownFor(d);
      if (d.repro) d.reproText = d.repro();
      c = { call: d.call, args: d.args, kind: d.kind, path: d.path || '', count: 0, known: k ? k.id : null, first: d, games: new Set() };
      classes.set(key, c);
    } else if (c.known) {
      // A class is known only if every one of its members matches.
      const k = knownFor(d);
      if (!k) {
        c.known = null;
        if (d.repro) d.reproText = d.repro();
        c.first = d;
      }
    }
    c.count++;
    c.games.add(d.seed);
  };
  const t0 = Date.now();
  for (let i = 0; i < games; i++) {
    const g = new Game({ Theirs, Ours, seed: seed + i, variant, timeout, sink, maxActions, fullRate, actionsCap, stats, roundTrip });
    try {
      g.play(maxSteps);
    } catch (e) {
      sink({ call: 'harness', args: '', kind: 'harness-error', theirs: '', ours: String(e && e.stack).slice(0, process.env.DIFF_DEBUG ? 3000 : 300), seed: seed + i, variant: g.start.name, step: g.step, ctx: {} });
    }
    stats.games++;
    if (onGame) onGame(i, stats, classes);
  }
  stats.ms = Date.now() - t0;
  return { classes, stats };
}

function trunc(s, n) {
  s = String(s);
  return s.length > n ? s.slice(0, n) + '…' : s;
}

/** The report as text: unknown classes first, then known ones. */
export function formatReport({ classes, stats }, { width = 200, maxClasses = Infinity } = {}) {
  const rows = [...classes.values()].sort((a, b) => (a.known ? 1 : 0) - (b.known ? 1 : 0) || a.call.localeCompare(b.call) || b.count - a.count);
  const lines = [];
  lines.push(`differential harness: ${stats.games} games, ${stats.steps || 0} steps, ${stats.ops || 0} operations, ${stats.calls || 0} compared calls, ${stats.resyncs || 0} resyncs, ${(stats.ms / 1000).toFixed(1)} s`);
  if (stats.time) lines.push('time by call (ms, 5d-chess-js/chess5d): ' + Object.entries(stats.time).sort((a, b) => b[1][0] + b[1][1] - a[1][0] - a[1][1]).filter(([, v]) => v[0] + v[1] >= 10).map(([k, v]) => `${k} ${v[0].toFixed(0)}/${v[1].toFixed(0)}`).join(', '));
  const unknown = rows.filter((r) => !r.known);
  lines.push(`${classes.size} classes of differences, ${unknown.length} not in known.mjs`);
  // Grouped: one line per (call, kind, path), with the argument combinations it occurs with.
  const groups = new Map();
  for (const r of rows) {
    const key = `${r.known ? 'known ' + r.known : 'UNKNOWN'} | ${r.call} | ${r.kind}${r.path ? ' at ' + r.path : ''}`;
    const g = groups.get(key) || { count: 0, args: [], first: r.first };
    g.count += r.count;
    g.args.push(r.args);
    groups.set(key, g);
  }
  lines.push('');
  lines.push('Grouped by call, kind and path:');
  for (const [key, g] of groups) {
    lines.push(`  ${key} — ${g.count}× — args: ${trunc(g.args.join('; '), 300)} — first: seed ${g.first.seed} ${g.first.variant} step ${g.first.step}`);
  }
  lines.push('');
  lines.push('Every class with its first example:');
  let n = 0;
  for (const r of rows) {
    n++;
    if (n > maxClasses) {
      lines.push('', `… ${rows.length - maxClasses} more classes (node test/diff/run.mjs prints them all)`);
      break;
    }
    const f = r.first;
    lines.push('');
    lines.push(`#${n} ${r.known ? `[known: ${r.known}]` : '[UNKNOWN]'} ${r.call} ${r.args} — ${r.kind}${r.path ? ' at ' + r.path : ''} — ${r.count}× in ${r.games.size} games`);
    lines.push(`   first: seed ${f.seed} variant ${f.variant} step ${f.step}${f.at && f.at !== r.path ? ' at ' + f.at : ''}`);
    lines.push(`   5d-chess-js: ${trunc(f.theirs, width)}`);
    lines.push(`   chess5d:     ${trunc(f.ours, f.kind === "harness-error" && process.env.DIFF_DEBUG ? 3000 : width)}`);
    if (f.reproText) lines.push(`   repro: ${trunc(f.reproText, 2 * width)}`);
    if (f.ctx && f.ctx.input !== undefined) lines.push(`   input: ${trunc(typeof f.ctx.input === 'string' ? f.ctx.input : JSON.stringify(f.ctx.input), width)}`);
  }
  return lines.join('\n');
}
