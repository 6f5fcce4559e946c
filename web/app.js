// chess5d web GUI: plain modern JS in ES modules with JSDoc types (checked by `npx tsc -p .`), no
// build step. This entry module is the router: one controller per page (pages/*.js), created
// when the player comes to the page and closed when they leave it (#/, #/game/ID, #/editor,
// #/view/DATA, #/learn..., #/player/NAME). The page talks to its back-end through one
// interface (backend/remote.js describes it: the server's REST + WebSocket API, or the static
// site's local back-end).
//
// The services: this router makes each one once (the settings, the back-end door, online play's
// hooks, the typed calls and the service's info (ui/state.js's Door), the sounds, the board
// view's state (ui/state.js's Board)) and passes them in (types/pages.d.ts: Services): to each
// page's controller, and to each module below the pages by its `wire(services)`, called once
// before the first page opens. No module imports an instance of one; what a module draws or
// plays on is the one it was given.
//
// The modules stand in layers; a module imports only from the layers below it (and, where
// named, from the module before it in its own layer), never up. A call up (the home page's
// puzzle list after a puzzle dialog) is a function passed down as an argument.
//   1 basics   ui/dom.js      DOM helpers, escaping, the error line, which page is shown
//              ui/pieces.js   piece glyphs, board geometry
//              ui/state.js    the board view's state (class Board, every field declared and
//                             typed), a state's present, the typed calls and the service's
//                             info (class Door)
//              ui/settings.js the player's settings (sounds, theme, board palette) and the
//                             sounds (class Sound)
//   2 drawing  ui/boards.js   drawing the boards (culling, levels of detail, caching)
//              ui/variations.js  an imported game's variations in the notation (panel.js below it)
//              ui/panel.js    the side panel: players, clocks, status, notation, analysis panel
//              ui/dialogs.js  import / export, saving and proving puzzles
//              ui/camera.js   the view: present / fit / free camera, zoom, pointer to board and
//                             square, the overlays that follow it (boards.js below it)
//              ui/overlays.js  the overlays kept off the boards to play (below camera.js)
//              ui/multiverse.js  the multiverse: timelines, present, arrows, highlights,
//                             overview, the view's tools; render() (over camera.js, panel.js)
//   3 actions  ui/analysis.js  the analysis board
//              ui/game.js     opening a game, following it live, its actions (over analysis.js)
//              ui/share.js    a game shared by link (#/view/...): the link, the read-only view
//                             (over game.js)
//              ui/lobby.js    the home page's online cards (play a friend, the lobby, your games)
//   4 pages    ui/editor.js   the position editor (its model is its own)
//              ui/home.js     the home page (play the computer, a puzzle, saved games, custom game)
//              ui/hotseat.js  the home page's hot-seat card (the static site: no invites)
//              ui/learn.js    the course: lessons, demonstrations, exercises, stars (over game.js)
//              ui/pointer.js  picking pieces and moving them (clicks, drags, touch, promotion;
//                             in the editor, the board view's edit hook)
//              ui/review.js   reviewing earlier positions (buttons, keys, notation; over pointer.js)
//              ui/computer-review.js  the computer review: graph, accuracy, marks, best
//                             action's arrows (over review.js)
//              ui/move-input.js  moves typed by keyboard, with completion (over pointer.js)
//              ui/keyboard.js  keyboard reach: the review graph's points by keys, dialogs
//                             closed by Escape (over computer-review.js)
//   5 controllers  pages/*.js  one per page (types/pages.d.ts: their shape): home, game (its
//                             analysis, review, computer review and mistakes), editor, view
//                             (a shared game), learn (the course), player (players' pages).
//                             A controller opens its page's modules and closes what they
//                             started; no module writes another page's state.
//   6 this entry module, the router.
// Beneath them: backend/ (the back-end interface), online.js (seats, invites, presence, draw
// offers on the game page: its hooks) and people.js (accounts, quick pairing, players' pages,
// fair play and rating changes on the game page).
//
// The hooks for scripts (API.md) stay whatever module draws them: boards
// `g.board[data-l][data-t][data-color]`, squares `rect[data-square]`, pieces `[data-piece]`,
// `[data-eval]`, `[data-pv]`, `#play[data-review]`, window.__chess5dShow(l, t),
// window.__chess5dAnalysis(), window.chess5dOnline, window.chess5dBackend.
import { startOnline } from './online.js';
import { startPeople } from './people.js';
import { openBackend } from './backend/index.js';
import { Board, Door } from './ui/state.js';
import { openSettings, Sound } from './ui/settings.js';
import { homePage } from './pages/home.js';
import { gamePage } from './pages/game.js';
import { editorPage } from './pages/editor.js';
import { viewPage } from './pages/view.js';
import { learnPage } from './pages/learn.js';
import { playerPage } from './pages/player.js';
// The modules that take the services (each one's wire()); move-input.js and keyboard.js are the
// page-wide inputs (any page with a board or dialogs): typed moves, keyboard reach.
import * as analysis from './ui/analysis.js';
import * as boards from './ui/boards.js';
import * as camera from './ui/camera.js';
import * as computerReview from './ui/computer-review.js';
import * as dialogs from './ui/dialogs.js';
import * as editor from './ui/editor.js';
import * as game from './ui/game.js';
import * as home from './ui/home.js';
import * as hotseat from './ui/hotseat.js';
import * as keyboard from './ui/keyboard.js';
import * as learn from './ui/learn.js';
import * as lobby from './ui/lobby.js';
import * as mistakes from './ui/mistakes.js';
import * as moveInput from './ui/move-input.js';
import * as multiverse from './ui/multiverse.js';
import * as overlays from './ui/overlays.js';
import * as panel from './ui/panel.js';
import * as pointer from './ui/pointer.js';
import * as review from './ui/review.js';
import * as share from './ui/share.js';
import * as variations from './ui/variations.js';

/** @typedef {import('./types/pages.js').Page} Page */
/** @typedef {import('./types/pages.js').Services} Services */

/** The pages, the first whose pattern matches the hash taken. */
/** @type {{name: string, match: RegExp, create: (services: Services) => Page}[]} */
const PAGES = [
  { name: 'view', match: /^#\/view\/(.*)$/, create: viewPage },
  { name: 'player', match: /^#\/player\/([^/?]+)/, create: playerPage },
  { name: 'learn', match: /^#\/learn/, create: learnPage },
  { name: 'editor', match: /^#\/editor/, create: editorPage },
  { name: 'game', match: /^#\/game\/([^/?]+)/, create: gamePage },
  { name: 'home', match: /^/, create: homePage },
];

// The services, made once here and passed in (types/pages.d.ts): the settings first (the theme
// shows at once), the back-end door, online play on it (an invite link is taken in before the
// page routes), the sounds, the board view's state.
const settings = openSettings();
const backend = await openBackend();
const online = startOnline(backend);
/** @type {Services} */
const services = {
  backend,
  door: new Door(backend, online),
  board: new Board(),
  settings,
  sound: new Sound(settings),
  online,
};
for (const m of [analysis, boards, camera, computerReview, dialogs, editor, game, home, hotseat, keyboard, learn, lobby, mistakes, moveInput, multiverse, overlays, panel, pointer, review, share, variations]) m.wire(services);
startPeople(backend);
/** The page shown: its name and controller. @type {{name: string, page: Page} | null} */
let current = null;

function route() {
  const hash = location.hash;
  let found = PAGES[PAGES.length - 1];
  let m = null;
  for (const p of PAGES) { m = hash.match(p.match); if (m) { found = p; break; } }
  if (!current || current.name !== found.name) {
    // Leaving a page closes its controller first (its connection, analysis board, model).
    current?.page.close();
    current = { name: found.name, page: found.create(services) };
  }
  Promise.resolve(current.page.open(m)).catch((e) => console.warn(e));
}

// A dialog belongs to the page it was opened on: when the page changes under it (the back
// button, a link, a game that ends elsewhere), it closes.
window.addEventListener('hashchange', () => {
  // (but the name asked for by an invite link, which online.js opens as the link is taken in)
  for (const d of document.querySelectorAll('dialog[open]:not(#join-dialog)')) /** @type {HTMLDialogElement} */ (d).close();
  route();
});
route();
