// Proven mates where players meet them (the solver's, `chess5d_play::mates`): the analysis
// board's "Mate in N (proven)" line above the engine's lines, and the computer review's
// "missed a forced mate in N". Unproven stays silent: nothing is drawn.
import { $, esc, cap } from './dom.js';

/** An action in the notation's words. @typedef {{text: string}} Action */
/** A proven mate (the analysis board's report): in how many, for which side, its line. */
/** @typedef {{mate_in: number, text: string, side: string, pv: Action[]}} Proven */

/** Draws (or hides) the analysis board's proven mate, from the board's report `info`. */
/** @param {{proven?: Proven | null} | null | undefined} info */
export function renderProven(info) {
  let box = $('#proven');
  if (!box) {
    box = document.createElement('div');
    box.id = 'proven';
    box.setAttribute('aria-label', 'Proven mate');
    $('#pv').before(box);
  }
  const p = info?.proven;
  box.classList.toggle('hidden', !p);
  box.dataset.proven = p ? String(p.mate_in) : '';
  const html = p ? `<b>${esc(p.text)}</b> <span class="muted">for ${esc(p.side)}:</span> ${p.pv.map((a) => esc(a.text)).join(' | ')}` : '';
  if (box.innerHTML !== html) box.innerHTML = html;
}

/** The review's words on an action that gave up a proven forced mate (HTML), or ''. */
/** @param {{missed_mate?: number | null, player: string} | null | undefined} a */
export function missedMateHtml(a) {
  return a?.missed_mate ? ` <span class="cr-missed-mate" data-missed="${a.missed_mate}">${esc(cap(a.player))} missed a forced mate in ${a.missed_mate}.</span>` : '';
}
