// chess5d web GUI: plain modern JS in ES modules, no build step. This entry module loads the
// others and routes (#/, #/game/ID, #/editor). The page talks to its back-end through one
// interface (backend/remote.js describes it: the server's REST + WebSocket API, or the static
// site's local back-end).
//
// The modules (ui/):
//   dom.js         DOM helpers, escaping, the error line, which page is shown
//   state.js       the page's state object and API calls (through the back-end)
//   pieces.js      piece glyphs, board geometry
//   boards.js      drawing the boards (culling, levels of detail, caching)
//   multiverse.js  drawing the multiverse: timelines, present, arrows, highlights, overview
//   camera.js      the view: present / fit / free camera, zoom, pointer to board and square
//   pointer.js     picking pieces and moving them (clicks, drags, touch, promotion)
//   game.js        opening a game, following it live, its actions
//   panel.js       the side panel: players, clocks, status, notation
//   review.js      reviewing earlier positions (buttons, keys, notation)
//   analysis.js    the analysis board
//   editor.js      the position editor
//   dialogs.js     import / export, saving and proving puzzles
//   home.js        the home page (play the computer, a puzzle, saved games, custom game)
//   lobby.js       its online cards (play a friend, the lobby, your online games)
// and ../online.js: seats, invites, presence, draw offers on the game page (its hooks).
//
// The hooks for scripts (API.md) stay whatever module draws them: boards
// `g.board[data-l][data-t][data-color]`, squares `rect[data-square]`, pieces `[data-piece]`,
// `[data-eval]`, `[data-pv]`, `#play[data-review]`, window.__chess5dShow(l, t),
// window.__chess5dAnalysis(), window.chess5dOnline, window.chess5dBackend.
import './online.js';
import { showHome } from './ui/home.js';
import { openGame } from './ui/game.js';
import { openEditor } from './ui/editor.js';
import './ui/camera.js';
import './ui/pointer.js';
import './ui/panel.js';
import './ui/review.js';
import './ui/analysis.js';
import './ui/dialogs.js';
import './ui/lobby.js';

function route() {
  const m = location.hash.match(/^#\/game\/([^/?]+)/);
  if (location.hash.startsWith('#/editor')) openEditor();
  else if (m) openGame(m[1]);
  else showHome();
}

window.addEventListener('hashchange', route);
route();
