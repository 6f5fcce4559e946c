// The game page's controller (#/game/ID): a game followed live, its analysis board, its review
// and computer review, learning from its mistakes. Its state is the board view's (ui/state.js's
// Board): this controller opens it on a game and clears it when the player leaves. The input
// modules (pointer, keys and buttons of the review, the computer review) are installed here.
import { openGame, leaveBoard } from '../ui/game.js';
import '../ui/pointer.js';
import '../ui/review.js';
import '../ui/computer-review.js';

/** @returns {import('../types/pages.js').Page} */
export function gamePage() {
  return {
    open(route) {
      return openGame(route[1]);
    },
    close() { leaveBoard(); },
  };
}
