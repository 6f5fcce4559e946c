// Layer 2 (drawing): the variations of an imported game in the notation panel (the state's
// `variations`, API.md): each line drawn as an indented row under the action it branches from
// (a variation of a variation one step further in), its moves clickable (review.js shows the
// position after one, read-only, with `?variation=k`), and the steps from one move of a
// variation to the next or back. panel.js places the rows; it draws from the state alone.
import { esc } from './dom.js';

/** A move of a variation (API.md: the state's `variations`): its node, number, colour, text. */
/** @typedef {{node: number, number: number, color: string, text: string}} VariationMove */
/** A variation line: the main line's action count it branches after, its depth, the variation
 * move it branches from (parent, or null), its moves. */
/** @typedef {{at: number, depth: number, parent?: number | null, moves: VariationMove[]}} VariationLine */
/** What of a game state this module reads. @typedef {{variations?: VariationLine[] | null}} WithVariations */

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
}

/** The variation move shown, or null (a variation is shown only while reviewing). */
export function shownVariation() {
  return app.review !== null && app.variation != null ? app.variation : null;
}

/** The rows of `s`'s variation lines by the main line's action count they branch after (0: before
 * the first action), as HTML: `Map(at -> html)`. */
/** @param {WithVariations} s @returns {Map<number, string>} */
export function variationRows(s) {
  /** @type {Map<number, string>} */
  const rows = new Map();
  const cur = shownVariation();
  for (const line of s.variations || []) {
    /** @type {string[]} */
    const parts = [];
    line.moves.forEach((m, i) => {
      if (m.color === 'white') parts.push(`${m.number}.`);
      else parts.push(i === 0 ? `${m.number}…` : '/');
      parts.push(`<span class="var-act${m.node === cur ? ' current' : ''}" data-node="${m.node}" role="button" tabindex="0">${esc(m.text)}</span>`);
    });
    const html = `<li class="variation" data-depth="${line.depth}">${parts.join(' ')}</li>`;
    rows.set(line.at, (rows.get(line.at) ?? '') + html);
  }
  return rows;
}

/** Variation move `k` of `s`: `{line, i, move}`, or null. */
/** @param {WithVariations} s @param {number} k */
function find(s, k) {
  for (const line of s.variations || []) {
    const i = line.moves.findIndex((m) => m.node === k);
    if (i >= 0) return { line, i, move: line.moves[i] };
  }
  return null;
}

/** Variation move `k` as the status line says it: "1… c5", "2. Nf3". */
/** @param {WithVariations} s @param {number} k */
export function variationLabel(s, k) {
  const f = find(s, k);
  if (!f) return '';
  const { move: m } = f;
  return `${m.number}${m.color === 'white' ? '.' : '…'} ${m.text}`;
}

/** Where a step from variation move `k` goes: `{variation: k'}`, `{review: n}` (the main line,
 * where the line branches off) or null (no further). `dir`: -1 back, +1 on. */
/** @param {WithVariations} s @param {number} k @param {-1 | 1} dir
 * @returns {{variation: number} | {review: number} | null} */
export function variationStep(s, k, dir) {
  const f = find(s, k);
  if (!f) return null;
  const next = f.line.moves[f.i + dir];
  if (next) return { variation: next.node };
  if (dir > 0) return null;
  return f.line.parent != null ? { variation: f.line.parent } : { review: f.line.at };
}
