// The course's controller (#/learn, #/learn/LESSON, #/learn/LESSON/N): lessons, demonstrations,
// exercises and stars (ui/learn.js, whose exercises play on the board view).
import { openLearn, endLearn } from '../ui/learn.js';
import { leaveBoard } from '../ui/game.js';
import '../ui/pointer.js';
import '../ui/review.js';

/** @returns {import('../types/pages.js').Page} */
export function learnPage() {
  return {
    open() { return openLearn(location.hash); },
    close() { endLearn(); leaveBoard(); },
  };
}
