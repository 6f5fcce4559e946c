// A shared game's controller (#/view/DATA): the game in the link, read-only, on the board view
// (ui/share.js), with an analysis board of its own that ends when the player leaves.
import { openView, endView } from '../ui/share.js';
import { leaveBoard } from '../ui/game.js';
import '../ui/review.js';

/** @returns {import('../types/pages.js').Page} */
export function viewPage() {
  return {
    open(route) { return openView(route[1]); },
    close() { endView(); leaveBoard(); },
  };
}
