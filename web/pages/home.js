// The home page's controller (#/): play the computer, a friend, a puzzle; saved games, the lobby,
// the course's card. The cards are ui/home.js, ui/lobby.js, ui/hotseat.js and ui/learn.js's.
import { showHome } from '../ui/home.js';
import { homeLearn } from '../ui/learn.js';
import '../ui/lobby.js';
import '../ui/hotseat.js';

/** @returns {import('../types/pages.js').Page} */
export function homePage() {
  return {
    open() {
      homeLearn();
      return showHome();
    },
    close() {},
  };
}
