// Layer 2 (drawing): the side panel of a game: players and clocks, the status line, the
// result, the buttons' states, the notation, and the analysis board's panel (evaluation, best
// line, actions tried). It draws from the state alone.
import { $, esc, cap } from './dom.js';
import { renderProven } from './proven.js';
import { presentOf } from './state.js';
import { shownVariation, variationRows, variationLabel, variationStep } from './variations.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** @type {import('../types/pages.js').Services['online']} */
let online;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
  online = s.online;
  setInterval(tick, 250);
}

export function fmtClock(ms) {
  if (ms == null) return '';
  ms = Math.max(0, ms);
  const t = Math.ceil(ms / 1000), m = Math.floor(t / 60), sec = t % 60;
  // Correspondence times (days a move): days and hours, or hours and minutes.
  if (t >= 86400) return `${Math.floor(t / 86400)} d ${Math.floor((t % 86400) / 3600)} h`;
  if (t >= 36000) return `${Math.floor(t / 3600)} h ${String(Math.floor((t % 3600) / 60)).padStart(2, '0')} min`;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

export function renderClocks() {
  const s = app.state;
  if (!s || !s.clock) { for (const c of document.querySelectorAll('#players .clock')) c.textContent = ''; return; }
  const el = performance.now() - app.clockBase.t;
  for (const side of ['white', 'black']) {
    let ms = app.clockBase[side];
    if (s.clock.running && s.to_move === side) ms -= el;
    $(`#p-${side} .clock`).textContent = fmtClock(ms);
  }
}
/** The seconds the engine of the side to move has been thinking: the state's `thinking_ms`
 * (when it was written) counted on from when it came. */
export function thinkingSeconds(s) {
  return Math.floor(((s.thinking_ms ?? 0) + (performance.now() - (app.clockBase?.t ?? performance.now()))) / 1000);
}

/** The clocks' and the thinking line's tick (started by wire: it reads the board view). */
function tick() {
  renderClocks();
  // "… is thinking… 3 s": ticks on while the engine thinks.
  if (app.thinking) { const text = app.thinking(); if ($('#status').textContent !== text) $('#status').textContent = text; }
}

export function renderSide() {
  const s = app.state, shown = app.shown;
  if (!s || app.edit) return;
  document.title = app.view ? 'chess5d: shared game' : `chess5d game ${s.id}`;
  for (const side of ['white', 'black']) {
    const p = $(`#p-${side}`);
    const name = p.querySelector('.name');
    name.textContent = s.players[side].display;
    // (cut with an ellipsis when it does not fit the line: the whole name on hover)
    name.title = s.players[side].display;
    p.classList.toggle('to-move', !s.result && s.to_move === side);
  }
  renderClocks();
  const live = app.review === null && !app.analysis;
  const c = app.cur();
  const playing = app.analysis ? !c.result && c.human_to_move : live && s.human_to_move;
  $('#btn-submit').disabled = !(playing && c.can_submit);
  $('#btn-undo').disabled = !(playing && c.pending.length > 0);
  $('#btn-resign').disabled = !!s.result || !live;
  $('#play').dataset.review = app.review ?? s.action_count;
  const at = app.review ?? s.action_count;
  const variation = shownVariation();
  const lastOff = variation !== null ? !variationStep(s, variation, 1) : at >= s.action_count;
  for (const [b, off] of /** @type {[string, boolean][]} */ ([['#btn-first', at <= 0], ['#btn-prev', at <= 0], ['#btn-next', lastOff], ['#btn-last', app.review === null]])) {
    $(b).disabled = off || !!app.analysis;
  }
  // The status line: whose move, the present, what must still be played; in review, which
  // action is shown. Engine output never goes here (it is in the analysis panel).
  let status, thinking = null;
  const shownState = app.analysis ? c : shown || s;
  const where = presentText(shownState);
  if (app.analysis) {
    status = c.result ? `Analysis board: game over (${c.result}).` : `Analysis board: ${cap(c.to_move)} to move. ${where}`;
    if (!c.result) status += stillToPlay(c);
  } else if (variation !== null) {
    status = `Reviewing a variation (not played in the game): ${variationLabel(s, variation)}. ${where}`;
  } else if (!live) {
    const a = s.actions[app.review - 1];
    status = app.review === 0
      ? `Reviewing the start position (action 0 of ${s.action_count}). ${where}`
      : `Reviewing action ${app.review} of ${s.action_count}: ${a.number}. ${cap(a.color)} ${shortAction(a.text)}. ${where}`;
  } else if (app.view) {
    status = `Shared game, read-only: ${s.result ? `over (${s.result})` : `${cap(s.to_move)} to move`}. ${where}`;
  } else if (s.result) {
    status = 'Game over.';
  } else if (s.engine_busy && !s.human_to_move) {
    thinking = () => `${cap(s.to_move)} (engine) is thinking… ${thinkingSeconds(s)} s. ${where}`;
    status = thinking();
  } else {
    status = `${cap(s.to_move)} to move. ${where}`;
    if (s.check) status += ' Check!';
    if (s.human_to_move) status += stillToPlay(s);
  }
  if (s.puzzle && !app.analysis) {
    // A lesson's exercise (s.puzzle.goal) is one action with a goal, not a mate to find.
    const b = s.puzzle.better;
    const puzzle = s.puzzle.goal ? `Exercise “${s.puzzle.name}”: ${cap(s.puzzle.solver)} to play one action. `
      : b ? `Learn from your mistakes: ${cap(s.puzzle.solver)} played ${b.played_text} here (a ${b.class}); find a better action. `
        : `Puzzle “${s.puzzle.name}”: ${cap(s.puzzle.solver)} mates in ${s.puzzle.mate_in}. `;
    status = puzzle + status;
    if (thinking) { const t = thinking; thinking = () => puzzle + t(); }
  }
  app.thinking = thinking;
  $('#status').textContent = status;
  // An engine that failed (crash, timeout, illegal answer): say so and offer a restart.
  const ep = $('#engine-problem');
  ep.classList.toggle('hidden', !(s.engine_error && !s.result));
  ep.querySelector('span').textContent = s.engine_error ? `${s.engine_error} ` : '';
  const go = $('#gameover');
  if (s.result && !app.analysis) {
    let text;
    if (s.puzzle && s.puzzle.goal) text = s.puzzle.status === 'solved' ? 'Exercise solved!' : 'Not quite: that action misses the goal.';
    else if (s.puzzle?.better?.answer) text = betterText(s.puzzle.better);
    else if (s.puzzle && s.puzzle.status === 'failed') text = `Puzzle failed: no mate within ${s.puzzle.mate_in} action${s.puzzle.mate_in > 1 ? 's' : ''}.`;
    else {
      const winner = s.result === '1-0' ? 'White wins' : s.result === '0-1' ? 'Black wins' : s.result === '*' ? 'No result' : 'Draw';
      const how = { checkmate: 'Checkmate', stalemate: 'Stalemate', resignation: 'Resignation', time: 'Time forfeit' }[s.termination] || cap(s.termination || 'Finished');
      text = `${how}: ${winner} (${s.result})`;
      if (s.puzzle && s.puzzle.status === 'solved') text += ' — Puzzle solved!';
    }
    go.textContent = text;
    go.classList.remove('hidden');
  } else go.classList.add('hidden');
  const rb = $('#review-bar');
  if (app.review !== null && !app.analysis) {
    rb.classList.remove('hidden');
    rb.querySelector('span').textContent = variation !== null
      ? `Reviewing a variation: the position after ${variationLabel(s, variation)}.`
      : `Reviewing the position after action ${app.review} of ${s.action_count}.`;
  } else rb.classList.add('hidden');
  // Analysis: allowed on any position but a puzzle still being solved.
  const puzzleOpen = s.puzzle && s.puzzle.status === 'playing';
  $('#btn-analyse').disabled = !!puzzleOpen || variation !== null;
  $('#btn-analyse').setAttribute('aria-pressed', String(!!app.analysis));
  $('#btn-analyse').classList.toggle('on', !!app.analysis);
  $('#btn-save-puzzle').disabled = !!puzzleOpen || variation !== null || (app.review === null && !app.analysis && s.pending.length > 0);
  renderAnalysis();
  // Notation, one line per turn; an imported game's variations as indented lines under the
  // action they branch from (variations.js), the turn's line cut there.
  const lines = variationRows(s);
  const rows = [];
  let row = null;
  for (const a of s.actions) {
    if (!row || a.color === 'white' || lines.has(a.index - 1)) { row = { turn: a.number, items: [], cut: a.color === 'black' && lines.has(a.index - 1) }; rows.push(row); }
    row.items.push(a);
  }
  const curIdx = variation !== null ? null : app.review ?? s.action_count;
  const html = (lines.get(0) ?? '') + rows.map((r) => `<li value="${r.turn}">${r.cut ? '… ' : ''}${r.items.map((a) =>
    `<span class="act ${a.index === curIdx ? 'current' : ''}" data-index="${a.index}" role="button" tabindex="0">${esc(a.text)}${app.actionMark?.(a.index) ?? ''}</span>`).join(' / ')}</li>${lines.get(r.items[r.items.length - 1].index) ?? ''}`).join('');
  if (html !== app.notationHtml) {
    app.notationHtml = html;
    $('#notation').innerHTML = html;
    // The current action in view inside the list (not by scrollIntoView, which would scroll the
    // page too: on a phone it pushed the boards out of the window).
    const list = $('#notation'), curEl = $('#notation .current');
    if (curEl) {
      const lr = list.getBoundingClientRect(), er = curEl.getBoundingClientRect();
      if (er.top < lr.top) list.scrollTop -= lr.top - er.top;
      else if (er.bottom > lr.bottom) list.scrollTop += er.bottom - lr.bottom;
    }
  }
  if (!app.view) online.onState(s); // hook: seat, links, draw offers; spectators' buttons off
  app.onSide?.(s); // hook: the computer review (computer-review.js)
  app.onMoveInput?.(); // hook: moves typed by keyboard (move-input.js)
}

/** " Still to play: (0T3), (1T3)." or " Ready to submit." for the player building an action. */
export function stillToPlay(s) {
  const must = s.boards.filter((b) => b.mandatory).map((b) => `(${b.label}T${b.turn})`);
  if (must.length) return ` Still to play: ${must.slice(0, 6).join(', ')}${must.length > 6 ? ` and ${must.length - 6} more` : ''}.`;
  if (s.can_submit) return s.pending.length ? ' Ready to submit.' : '';
  return s.submit_error ? ` (${s.submit_error})` : '';
}

/** Where the present is, said so that it cannot read as a contradiction of who is to move: a
 * jump back in the action being built moves it to the other side's half-turn. */
export function presentText(st) {
  const p = presentOf(st);
  if (p.color === st.to_move || st.result) return `The present is turn ${p.turn}.`;
  return `This action takes the present back to turn ${p.turn}, where ${cap(p.color)} plays next.`;
}

/** An action's text, summarised past four moves (a 40-move action would fill the panel). */
export function shortAction(text) {
  const moves = String(text).split(' ');
  return moves.length <= 4 ? text : `${moves.slice(0, 3).join(" ")} … and ${moves.length - 3} more moves`;
}

// ---------- the analysis board's panel (analysis.js runs the board) ----------

/** An evaluation (White's view: centipawns or "mate N") in words. */
export function fmtEval(e) {
  if (e == null) return '…';
  if (e.startsWith('mate')) { const n = Number(e.slice(5)); return n > 0 ? `White mates in ${n}` : `Black mates in ${-n}`; }
  const v = Number(e) / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}

/** An evaluation in a line's few characters: "+0.35", "#3" (White mates in 3), "#-2". */
export function fmtEvalShort(e) {
  if (e == null) return '…';
  if (e.startsWith('mate')) return `#${Number(e.slice(5))}`;
  const v = Number(e) / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}

/** One of the engine's lines: its evaluation, then its actions numbered as its text numbers them
 * ("5. e4 / e5 6. Nf3", or "5b. e5 6. Nf3" when Black plays first). */
function engineLineHtml(l, n) {
  const m = /^(\d+)(b?)\./.exec(l.text || '');
  let turn = m ? Number(m[1]) : null;
  const acts = (l.pv || []).map((x, k) => {
    let num = '';
    if (turn !== null) {
      if (x.color === 'white') num = `${turn}.`;
      else if (k === 0) num = `${turn}b.`;
      else num = '/';
      if (x.color === 'black') turn++;
    }
    const sel = app.pv && app.pv.line === n && app.pv.k === k;
    const title = k === 0 ? 'Play this action on the analysis board' : 'Show the line up to here as arrows';
    return `${num ? `<span class="pv-num">${num}</span> ` : ''}<span class="pv-act pv-${x.color}${k === 0 ? ' pv-first' : ''}${sel ? ' current' : ''}" data-line="${n}" data-k="${k}" role="button" tabindex="0" title="${title}">${esc(x.text)}</span>`;
  }).join(' ');
  const ev = l.eval ?? null;
  const side = ev == null ? '' : (ev.startsWith('mate') ? Number(ev.slice(5)) > 0 : Number(ev) >= 0) ? 'good-white' : 'good-black';
  return `<div class="pv-line" data-rank="${l.rank}" data-line-eval="${esc(ev ?? '')}" data-depth="${l.depth ?? ''}" title="${esc(l.text || '')}${l.depth ? ` (depth ${l.depth})` : ''}">`
    + `<span class="pv-eval ${side}">${fmtEvalShort(ev)}</span><span class="pv-moves">${acts}</span></div>`;
}

let pvHtml = null; // the lines last drawn (innerHTML reads back differently: compare the source)

export function renderAnalysis() {
  const a = app.analysis;
  $('#analysis').classList.toggle('hidden', !a);
  if (!a) return;
  const i = a.info || {};
  const ev = $('#eval');
  ev.dataset.eval = i.eval ?? '';
  ev.textContent = fmtEval(i.eval);
  // The bar: White's share, from the centipawns (a mate fills it).
  let share = 0.5;
  if (i.eval) share = i.eval.startsWith('mate') ? (Number(i.eval.slice(5)) > 0 ? 1 : 0) : 1 / (1 + Math.exp(-Number(i.eval) / 250));
  $('#eval-fill').style.height = `${Math.round(share * 100)}%`;
  $('#eval-depth').textContent = i.depth ? `depth ${i.depth}` : '';
  // A server's analysis runs up to its work limit (`analysis-nodes`), then pauses until started again.
  $('#eval-nps').textContent = i.spent && !i.running ? 'paused: work limit reached'
    : i.nps ? `${i.nps >= 1000 ? Math.round(i.nps / 1000) + 'k' : i.nps} nodes/s` : '';
  // The engine's best lines (MultiPV: three, fewer where there are fewer legal actions), best
  // first: each its evaluation and its actions, numbered. The first action of a line plays it on
  // the board; any action previews the line up to it as arrows (hover; a click on a later action
  // keeps the preview).
  const pv = i.pv || [];
  const lines = i.lines?.length ? i.lines : pv.length ? [{ rank: 1, eval: i.eval, depth: i.depth, text: '', pv }] : [];
  renderProven(i);
  const box = $('#pv');
  box.dataset.pv = pv.map((x) => x.text).join(' | ');
  box.dataset.lines = String(lines.length);
  const html = lines.map((l, n) => engineLineHtml(l, n)).join('');
  if (pvHtml !== html || !box.firstChild) { pvHtml = html; box.innerHTML = html || '<span class="muted">(the engine has not reported a line yet)</span>'; }
  const running = !!i.running;
  const t = $('#btn-engine-toggle');
  t.textContent = running ? 'Stop engine' : 'Start engine';
  t.setAttribute('aria-label', t.textContent);
  $('#analysis').dataset.engine = running ? 'running' : 'stopped';
  const tried = a.state.analysis.tried;
  $('#analysis-tried').textContent = tried ? `(${tried} action${tried > 1 ? 's' : ''} tried)` : '';
  // The actions tried on the board, numbered as the export writes them.
  const line = (a.state.actions || []).slice(a.state.analysis.base_actions);
  const lineHtml = line.map((x) => `<li value="${x.number}" class="tried-${x.color}">${x.color === 'black' ? '… ' : ''}${esc(x.text)}</li>`).join('');
  if ($('#analysis-line').innerHTML !== lineHtml) $('#analysis-line').innerHTML = lineHtml;
  $('#btn-takeback').disabled = !(tried || a.state.pending.length);
  const err = $('#analysis-error');
  if (i.error) { err.textContent = i.error; err.classList.remove('hidden'); } else if (running) err.classList.add('hidden');
}

/** The engine's verdict on an answer to a puzzle made from a mistake (mistakes.js). */
function betterText(b) {
  const a = b.answer;
  const best = b.best_text ? ` The engine's best: ${b.best_text}.` : '';
  if (a.by === 'played') return `That is ${b.played_text} again, the ${b.class}.${best}`;
  const chances = `your chances ${Math.round(a.win)}%, with the best ${Math.round(b.win_best)}%`;
  return a.accepted ? `Better action found! The engine agrees (${chances}).${a.by === 'best' ? '' : best}`
    : `Not better: ${chances}.${best}`;
}
