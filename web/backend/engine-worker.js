// The engine of the static site, in a Web Worker so the page never freezes while it thinks.
// Messages in: {id, task: {start, actions, bot, budget}}; out: {id, moves, info} or {id, error}.
// Or {id, analyse: {start, actions, multipv}}: searches again and again with doubling times (0.2 s,
// 0.4 s... up to 6.4 s, then 6.4 s at a time), {id, engine: {depth, eval, nodes, nps, pv, lines}}
// after each (lines: the `multipv` best, as the server's; proven: a forced mate the solver proved
// after the first search, else null); the page ends it by terminating the
// worker (a search in wasm cannot be interrupted by a message).
// Or {id, puzzle: {text, from_game, mate_in, name}}: the puzzle maker's proof; out {id, made}
// (made: {name, mate_in, to_move, pgn}, or {error: {kind, code, message}} when refused).
// Or {id, review: {start, actions, result, nodes}}: a game's computer review; out {id, report}
// after each position (report: JSON {searched, positions, action}) and at the end (JSON
// {review}), or {id, error}. A review is stopped by terminating the worker.
// Or {id, judge: {start, actions, nodes}}: the judge's search of a mistake's puzzle answer (the
// position after it); out {id, win} (the win percentage of the side that played it).
import init, { engine_think, engine_analyse, make_puzzle, review_game, proven_mate, judge_answer } from '../pkg/chess5d_local.js';

const ready = init({ module_or_path: new URL('../pkg/chess5d_local_bg.wasm', import.meta.url) });

self.onmessage = async (e) => {
  const { id, task, analyse, puzzle, review, judge } = e.data;
  try {
    await ready;
    if (judge) {
      self.postMessage({ id, win: judge_answer(judge.start, judge.actions, judge.nodes) });
      return;
    }
    if (review) {
      const out = review_game(review.start, review.actions, review.result ?? undefined, review.nodes,
        (/** @type {string} */ report) => self.postMessage({ id, report }));
      self.postMessage({ id, report: `{"review":${out}}` });
      return;
    }
    if (puzzle) {
      self.postMessage({ id, made: JSON.parse(make_puzzle(puzzle.text, puzzle.from_game, puzzle.mate_in ?? undefined, puzzle.name ?? undefined)) });
      return;
    }
    if (analyse) {
      let best = null;
      let proven;
      for (let ms = 200; ; ms = Math.min(ms * 2, 6400)) {
        const info = JSON.parse(engine_analyse(analyse.start, analyse.actions, ms, analyse.multipv ?? 3));
        if (!best || info.depth >= best.depth) best = info;
        self.postMessage({ id, engine: { ...best, proven: proven ?? null } });
        if (proven === undefined && best.pv.length) {
          proven = JSON.parse(proven_mate(analyse.start, analyse.actions));
          if (proven) self.postMessage({ id, engine: { ...best, proven } });
        }
        await new Promise((r) => setTimeout(r, 0));
        if (!best.pv.length) return; // no legal action: nothing more to find
      }
    }
    const t0 = performance.now();
    const r = JSON.parse(engine_think(task.start, task.actions, task.bot, JSON.stringify(task.budget)));
    self.postMessage({ id, moves: r.moves, info: r.info, ms: performance.now() - t0 });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
