// The position editor's controller (#/editor): its model is ui/editor.js's, drawn on the board
// view; it goes when the player leaves (the next visit starts from the standard position).
import { leaveBoard } from '../ui/game.js';
import { openEditor, closeEditor } from '../ui/editor.js';
import '../ui/pointer.js';

/** @returns {import('../types/pages.js').Page} */
export function editorPage() {
  let opened = false;
  return {
    open() {
      if (opened) return; // (a hash with a query: the same editor)
      opened = true;
      leaveBoard(); // (from a page that does not draw on the board view: nothing to leave)
      openEditor();
    },
    close() {
      closeEditor();
      leaveBoard();
    },
  };
}
