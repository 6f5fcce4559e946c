// Layer 4 (pages), over game.js: the course (#/learn, #/learn/ID, #/learn/ID/N). The lessons are
// the game service's (GET /api/lessons, the same in both builds, offline in the static site);
// a lesson's demonstration is a game the page plays by itself on the multiverse view, and each
// exercise a game made by POST /api/lessons/ID/N whose goal the service judges when the player
// submits (any action reaching it counts). Stars and progress stay in this browser (IndexedDB).
import { $, esc, showError, showPage } from './dom.js';
import { openGame, setState, closeWs, freshPage } from './game.js';
import { endAnalysis } from './analysis.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** @type {import('./state.js').Door['api']} */
let api;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
  api = s.door.api;
}

// ---------- progress: IndexedDB `chess5d-learn`, store `progress` of {id: 'LESSON/N', stars} ----------
let dbp = null;
function db() {
  dbp ??= new Promise((resolve, reject) => {
    const r = indexedDB.open('chess5d-learn', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('progress', { keyPath: 'id' });
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  return dbp;
}
async function store(mode, f) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const t = d.transaction('progress', mode);
    const req = f(t.objectStore('progress'));
    t.oncomplete = () => resolve(req && req.result);
    t.onerror = () => reject(t.error);
  });
}
/** Every exercise's best stars: Map 'LESSON/N' -> 1..3. */
export async function progress() {
  try { return new Map((await store('readonly', (s) => s.getAll())).map((r) => [r.id, r.stars])); } catch { return new Map(); }
}
async function award(key, stars) {
  const had = (await progress()).get(key) ?? 0;
  if (stars > had) await store('readwrite', (s) => s.put({ id: key, stars }));
}

// ---------- the course ----------
let course = null;
async function lessons() {
  course ??= api('lessons').then((r) => r.lessons).catch((e) => { course = null; throw e; });
  return course;
}

const starText = (n, of = 3) => '★'.repeat(n) + '☆'.repeat(Math.max(0, of - n));

/** The page's own elements, made once: the course page, the lesson panel beside the boards,
 * the home page's card. */
function ensureDom() {
  if ($('#learn')) return;
  const main = document.createElement('main');
  main.id = 'learn';
  main.className = 'page hidden';
  main.innerHTML = '<section class="card"><h2>Learn 5D chess</h2><p class="hint">Twenty short lessons, from the boards to tactics across timelines. Each shows a demonstration, then gives you small exercises: any action that reaches the goal counts.</p><ol id="learn-list" class="learn-list"></ol><p><a href="#/">Back to the home page</a></p></section>';
  $('#home').after(main);
  const panel = document.createElement('section');
  panel.id = 'lesson-panel';
  panel.className = 'hidden';
  panel.setAttribute('aria-label', 'Lesson');
  $('#side').prepend(panel);
  const lead = $('#lead');
  if (lead && !$('#learn-card')) {
    const card = document.createElement('section');
    card.className = 'card lead';
    card.id = 'learn-card';
    card.innerHTML = '<h2>Learn 5D chess</h2><p class="hint">New to time travel? A course of short lessons with demonstrations and exercises, from how a rook moves through time to mates across timelines.</p><p id="learn-progress" class="muted"></p><a class="button primary big" id="learn-start" href="#/learn">Start learning</a>';
    lead.append(card);
  }
}
ensureDom();

/** The home card's line on progress. */
export async function homeLearn() {
  ensureDom();
  const p = await progress();
  const n = [...p.values()].reduce((a, b) => a + b, 0);
  $('#learn-progress').textContent = n ? `${n} star${n > 1 ? 's' : ''} earned so far.` : '';
}

// ---------- pages ----------
let run = 0;          // a token: a demonstration stops when the page changes
let lessonGame = null; // the game of the demonstration or exercise shown (deleted when left)
let attempt = null;   // {key, fails, hint}: the exercise being tried

function leaveGame() {
  // (no longer followed first: a deleted game being watched sends the page home)
  if (lessonGame !== null && app.wsGame === lessonGame) closeWs();
  if (lessonGame !== null) { api('delete_game', { id: lessonGame }).catch(() => {}); lessonGame = null; }
}

/** Hides the course's parts when another page is routed. */
export function endLearn() {
  run++;
  leaveGame();
  attempt = null;
  $('#lesson-panel').classList.add('hidden');
  $('#play').classList.remove('lesson');
  $('#learn').classList.add('hidden');
}

/** Routes #/learn, #/learn/ID (its demonstration) and #/learn/ID/N (its exercise N). */
export async function openLearn(hash) {
  ensureDom();
  const [, id, n] = hash.match(/^#\/learn(?:\/([^/]+))?(?:\/(\d+))?/) ?? [];
  endLearn();
  const token = run;
  showError(null);
  let all;
  try { all = await lessons(); } catch (e) { showPage('learn'); $('#learn').classList.remove('hidden'); showError(e.message); return; }
  if (token !== run) return;
  if (!id) { await showCourse(all); return; }
  const i = all.findIndex((l) => l.id === id);
  if (i < 0) { location.hash = '#/learn'; return; }
  if (n) await openExercise(all, i, Number(n), token); else await openDemo(all, i, token);
}

async function showCourse(all) {
  closeWs();
  endAnalysis();
  app.state = null;
  showPage('learn');
  $('#learn').classList.remove('hidden');
  document.title = 'chess5d: learn';
  const p = await progress();
  $('#learn-list').innerHTML = all.map((l) => {
    const got = l.exercises.reduce((a, _, k) => a + (p.get(`${l.id}/${k + 1}`) ?? 0), 0);
    const of = 3 * l.exercises.length;
    return `<li data-lesson="${esc(l.id)}"><a href="#/learn/${esc(l.id)}">${esc(l.title)}</a> <span class="stars" aria-label="${got} of ${of} stars">${starText(got, of)}</span></li>`;
  }).join('');
}

/** The lesson panel: title, text, the exercises with their stars, and `body` below. */
async function panel(all, i, body) {
  const l = all[i];
  const p = await progress();
  const ex = l.exercises.map((_, k) => {
    const s = p.get(`${l.id}/${k + 1}`) ?? 0;
    return `<a href="#/learn/${esc(l.id)}/${k + 1}" class="button" data-exercise="${k + 1}" aria-label="Exercise ${k + 1}, ${s} of 3 stars">${k + 1} <span class="stars">${starText(s)}</span></a>`;
  }).join(' ');
  const el = $('#lesson-panel');
  delete el.dataset.demo;
  el.innerHTML = `<p class="muted"><a href="#/learn">Course</a> · lesson ${i + 1} of ${all.length}</p>
    <h2 id="lesson-title">${esc(l.title)}</h2>
    <div id="lesson-body">${body}</div>
    <div class="row" id="lesson-nav"><a href="#/learn/${esc(l.id)}" class="button" id="lesson-demo">Demonstration</a> ${ex}</div>`;
  el.classList.remove('hidden');
  $('#play').classList.add('lesson');
}

async function openDemo(all, i, token) {
  const l = all[i];
  const text = l.text.map((t) => `<p>${esc(t)}</p>`).join('');
  await panel(all, i, `${text}<p id="lesson-caption" class="caption" role="status" aria-live="polite"></p>
    <div class="row"><button type="button" id="lesson-replay">Replay</button>
    <a href="#/learn/${esc(l.id)}/1" class="button primary" id="lesson-exercises">Exercises</a></div>`);
  document.title = `chess5d: ${l.title}`;
  $('#lesson-replay').addEventListener('click', () => { if (token === run) { run++; playDemo(l, run); } });
  await playDemo(l, token);
}

/** A lesson's positions are small: every board in view (the past ones matter). */
const fitAll = () => $('#btn-fit')?.click();

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** Plays the demonstration on a game of its own, an action every two seconds. */
async function playDemo(l, token) {
  leaveGame();
  const caption = (t) => { const c = $('#lesson-caption'); if (c) c.textContent = t; };
  let g;
  try {
    g = await api('create_game', { body: { import: l.demo.start } });
  } catch (e) { showError(e.message); return; }
  if (token !== run) { api('delete_game', { id: g.id }).catch(() => {}); return; }
  lessonGame = g.id;
  // (the static site may give the new game the id of the one just deleted: start afresh)
  freshPage();
  await openGame(String(g.id));
  fitAll();
  caption('Watch…');
  $('#lesson-panel').dataset.demo = 'playing';
  for (let k = 0; k < l.demo.actions.length; k++) {
    await pause(1500);
    if (token !== run) return;
    caption(l.demo.captions[k]);
    try {
      for (const mv of l.demo.actions[k].split(/\s+/).filter(Boolean)) {
        setState(await api('act', { id: g.id, action: 'move', body: { move: mv } }));
        await pause(500);
        if (token !== run) return;
      }
      setState(await api('act', { id: g.id, action: 'submit' }));
    } catch (e) { showError(e.message); return; }
  }
  if (token === run) $('#lesson-panel').dataset.demo = 'done';
}

async function openExercise(all, i, n, token) {
  const l = all[i];
  const e = l.exercises[n - 1];
  if (!e) { location.hash = `#/learn/${l.id}`; return; }
  const key = `${l.id}/${n}`;
  if (!attempt || attempt.key !== key) attempt = { key, fails: 0, hint: false };
  const next = n < l.exercises.length ? `#/learn/${l.id}/${n + 1}` : (all[i + 1] ? `#/learn/${all[i + 1].id}` : '#/learn');
  await panel(all, i, `<p><strong>Exercise ${n} of ${l.exercises.length}.</strong> <span id="lesson-prompt">${esc(e.prompt)}</span></p>
    <p id="lesson-hint" class="hint hidden"></p>
    <p id="lesson-result" role="status" aria-live="polite"></p>
    <div class="row"><button type="button" id="lesson-hint-btn">Hint</button>
    <button type="button" id="lesson-retry" class="hidden">Try again</button>
    <a href="${next}" class="button primary hidden" id="lesson-next">${n < l.exercises.length ? 'Next exercise' : 'Next lesson'}</a></div>`);
  document.title = `chess5d: ${l.title}, exercise ${n}`;
  $(`#lesson-nav [data-exercise="${n}"]`)?.setAttribute('aria-current', 'page');
  $('#lesson-hint-btn').addEventListener('click', () => {
    attempt.hint = true;
    $('#lesson-hint').textContent = e.hint;
    $('#lesson-hint').classList.remove('hidden');
  });
  $('#lesson-retry').addEventListener('click', () => { run++; openExercise(all, i, n, run); });
  leaveGame();
  let g;
  try { g = await api('start_exercise', { id: l.id, n }); } catch (err) { showError(err.message); return; }
  if (token !== run) { api('delete_game', { id: g.id }).catch(() => {}); return; }
  lessonGame = g.id;
  // (the static site may give the new game the id of the one just deleted: start afresh)
  freshPage();
  await openGame(String(g.id));
  fitAll();
  // The service settles the exercise when the action is submitted: wait for its verdict.
  while (token === run) {
    await pause(150);
    const s = app.state;
    if (!s || s.id !== g.id || !s.puzzle || s.puzzle.status === 'playing') continue;
    const solved = s.puzzle.status === 'solved';
    const r = $('#lesson-result');
    if (solved) {
      const stars = Math.max(1, 3 - attempt.fails - (attempt.hint ? 1 : 0));
      await award(key, stars);
      r.innerHTML = `Solved! <span class="stars" aria-label="${stars} of 3 stars">${starText(stars)}</span>`;
      r.dataset.result = 'solved';
      $('#lesson-next').classList.remove('hidden');
      const b = $(`#lesson-nav [data-exercise="${n}"] .stars`);
      if (b) b.textContent = starText(Math.max(stars, (await progress()).get(key) ?? 0));
    } else {
      attempt.fails++;
      r.textContent = 'Not quite: that action does not reach the goal. Try again (a hint may help).';
      r.dataset.result = 'failed';
      $('#lesson-retry').classList.remove('hidden');
    }
    return;
  }
}
