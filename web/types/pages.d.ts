// The controllers' shape: what the router (app.js) creates for a page, opens with its route and
// closes when the player leaves the page. Types only.
import type { Backend } from './backend.js';

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

/** What the router passes in to every controller. */
export interface Services {
  /** The back-end door (the server's API, or the static site's local one). */
  backend: Backend;
}
