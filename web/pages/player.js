// A player's page (#/player/NAME): ratings, their graph, games (people.js).
import { openPlayer, endPlayer } from '../people.js';

/** @returns {import('../types/pages.js').Page} */
export function playerPage() {
  return {
    open(route) { return openPlayer(route[1]); },
    close() { endPlayer(); },
  };
}
