// The engine of the static site, in a Web Worker so the page never freezes while it thinks.
// Messages in: {id, task: {start, actions, bot, movetime_ms}}; out: {id, moves, info} or {id, error}.
import init, { engine_think } from '../pkg/chess5d_local.js';

const ready = init({ module_or_path: new URL('../pkg/chess5d_local_bg.wasm', import.meta.url) });

self.onmessage = async (e) => {
  const { id, task } = e.data;
  try {
    await ready;
    const t0 = performance.now();
    const r = JSON.parse(engine_think(task.start, task.actions, task.bot, task.movetime_ms));
    self.postMessage({ id, moves: r.moves, info: r.info, ms: performance.now() - t0 });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
