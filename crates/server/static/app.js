// chess5d web GUI: plain modern JS in ES modules, no build step. This entry module loads the
// others and routes (#/, #/game/ID, #/editor, #/player/NAME). The page talks to its back-end through one
// interface (backend/remote.js describes it: the server's REST + WebSocket API, or the static
// site's local back-end).
//
// The modules stand in layers; a module imports only from the layers below it (and, where
// named, from the module before it in its own layer), never up. A call up (the home page's
// puzzle list after a puzzle dialog) is a function passed down as an argument.
//   1 basics   ui/dom.js      DOM helpers, escaping, the error line, which page is shown
//              ui/pieces.js   piece glyphs, board geometry
//              ui/state.js    the page's state object, a state's present, API calls (back-end)
//              ui/settings.js the player's settings (sounds, theme, board palette) and the sounds
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
//   4 pages    ui/editor.js   the position editor
//              ui/home.js     the home page (play the computer, a puzzle, saved games, custom game)
//              ui/hotseat.js  the home page's hot-seat card (the static site: no invites)
//              ui/learn.js    the course: lessons, demonstrations, exercises, stars (over game.js)
//   5 input    ui/pointer.js  picking pieces and moving them (clicks, drags, touch, promotion)
//              ui/review.js   reviewing earlier positions (buttons, keys, notation; over pointer.js)
//              ui/computer-review.js  the computer review: graph, accuracy, marks, best
//                             action's arrows (over review.js)
//              ui/move-input.js  moves typed by keyboard, with completion (over pointer.js)
//              ui/keyboard.js  keyboard reach: the review graph's points by keys, dialogs
//                             closed by Escape (over computer-review.js)
//   6 this entry module, which routes.
// Beneath them: backend/ (the back-end interface), online.js (seats, invites, presence, draw
// offers on the game page: its hooks) and people.js (accounts, quick pairing, players' pages,
// fair play and rating changes on the game page).
//
// The hooks for scripts (API.md) stay whatever module draws them: boards
// `g.board[data-l][data-t][data-color]`, squares `rect[data-square]`, pieces `[data-piece]`,
// `[data-eval]`, `[data-pv]`, `#play[data-review]`, window.__chess5dShow(l, t),
// window.__chess5dAnalysis(), window.chess5dOnline, window.chess5dBackend.
import './online.js';
import { openPlayer, endPlayer } from './people.js';
import { showHome } from './ui/home.js';
import { openGame } from './ui/game.js';
import { openEditor } from './ui/editor.js';
import { openView, endView } from './ui/share.js';
import './ui/camera.js';
import './ui/pointer.js';
import './ui/panel.js';
import './ui/review.js';
import './ui/computer-review.js';
import './ui/analysis.js';
import './ui/dialogs.js';
import './ui/lobby.js';
import { openLearn, endLearn, homeLearn } from './ui/learn.js';
import './ui/hotseat.js';
import './ui/move-input.js';
import './ui/keyboard.js';

function route() {
  const m = location.hash.match(/^#\/game\/([^/?]+)/);
  const v = location.hash.match(/^#\/view\/(.*)$/);
  if (v) { endLearn(); openView(v[1]); return; }
  endView();
  const p = location.hash.match(/^#\/player\/([^/?]+)/);
  endPlayer();
  if (p) { endLearn(); openPlayer(p[1]); return; }
  // The course (ui/learn.js): its pages, and its card on the home page.
  if (location.hash.startsWith('#/learn')) { openLearn(location.hash); return; }
  endLearn();
  if (!m && !location.hash.startsWith('#/editor')) homeLearn();
  if (location.hash.startsWith('#/editor')) openEditor();
  else if (m) openGame(m[1]);
  else showHome();
}

// A dialog belongs to the page it was opened on: when the page changes under it (the back
// button, a link, a game that ends elsewhere), it closes.
window.addEventListener('hashchange', () => {
  // (but the name asked for by an invite link, which online.js opens as the link is taken in)
  for (const d of document.querySelectorAll('dialog[open]:not(#join-dialog)')) d.close();
  route();
});
route();
