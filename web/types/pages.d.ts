// The controllers' shape: what the router (app.js) creates for a page, opens with its route and
// closes when the player leaves the page. Types only.
import type { Backend } from './backend.js';
import type { Board, Door } from '../ui/state.js';
import type { Settings, Sound } from '../ui/settings.js';

/**
 * A page's controller: it owns the page's state (in its closure or in the modules it opens),
 * opens again when the route changes within the page (another game, another lesson), and closes
 * once, when the player goes to another page: what it started (a live connection, an analysis
 * board, a model) ends there.
 */
export interface Page {
  open(route: RegExpMatchArray): void | Promise<void>;
  close(): void;
}

/** What the router makes once and passes in to every controller and to the modules below the
 * pages (each module's `wire(services)`): no module reaches one through a global. */
export interface Services {
  /** The back-end door (the server's API, or the static site's local one). */
  backend: Backend;
  /** The typed calls through the door, with the seats' hooks, and the service's info. */
  door: Door;
  /** The board view's state (the game page's, and the pages that draw on the board view while
   * they are shown: a shared game, the course, the editor). */
  board: Board;
  /** The player's settings (the top bar's menu). */
  settings: Settings;
  /** The sounds. */
  sound: Sound;
  /** Online play's hooks (online.js): seats, invites, the game page's online panel. */
  online: typeof import('../online.js').online;
}
