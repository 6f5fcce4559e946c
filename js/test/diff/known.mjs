// Known differences between 5d-chess-js 1.2.1 and chess5d that the differential test accepts.
// Each entry: `id`, `heading` ('their bug' or 'our deliberate extension'), `reason`, and
// `match(d)`: a predicate on one difference d = { call, args, kind, path, theirs, ours, ctx }.
// Keep every matcher narrow: it must match the shape of that one bug, never a whole call.
// (js/README.md lists the same entries for users.)

const isEnPassant = (m) => m && m.enPassant !== null && m.enPassant !== undefined;
const isCastling = (m) => m && m.castling !== null && m.castling !== undefined;
/** A castling whose rook starts exactly two files from the king (K a1, R c1). */
const castlesTwoAway = (m) => isCastling(m) && m.castling.start && Math.abs(m.castling.start.file - m.start.file) === 2;

/** A difference in a list call where ours lists extra items only, each satisfying `pred`. */
function onlyExtra(d, pred) {
  const od = d.ctx && d.ctx.objDiff;
  if (!od || od.missing.length !== 0 || od.extra.length === 0 || !od.extra.every(pred)) return false;
  if (d.kind === 'set') return d.missing.length === 0 && d.extra.length === od.extra.length;
  if (d.kind === 'lines') return d.missingLines.length === 0 && d.extraLines.length === od.extra.length;
  if (d.kind === 'length') return true; // e.g. an empty 5dpgn string against a list
  return false;
}

export const KNOWN = [
  {
    id: 'missed-en-passant',
    heading: 'their bug',
    reason:
      '5d-chess-js 1.2.1 leaves out some en passant captures (of a pawn or brawn that double-stepped on the previous half-turn); /work/shared/oracle/README.md, oracle records s1101-small-g0-a3 etc.',
    match: (d) =>
      (d.call === 'moves' && onlyExtra(d, isEnPassant)) ||
      (d.call === 'actions' && onlyExtra(d, (a) => a.moves.some(isEnPassant))) ||
      (d.call === 'moveable' && d.ctx.onlyOurs && isEnPassant(d.ctx.move) && d.theirs === 'false' && d.ours === 'true'),
  },
  {
    id: 'castling-rook-two-away',
    heading: 'their bug',
    reason:
      '5d-chess-js 1.2.1 never castles with a rook two squares from the king (K a1, R c1 on small boards): its rule needs the two squares next to the king empty before the rook; /work/shared/oracle/README.md (Castling on small boards).',
    match: (d) =>
      (d.call === 'moves' && onlyExtra(d, castlesTwoAway)) ||
      (d.call === 'actions' && onlyExtra(d, (a) => a.moves.some(castlesTwoAway))) ||
      (d.call === 'moveable' && d.ctx.onlyOurs && castlesTwoAway(d.ctx.move) && d.theirs === 'false' && d.ours === 'true'),
  },
  {
    id: 'timed-out-verdict',
    heading: 'their bug',
    reason:
      '5d-chess-js 1.2.1 reports checkmate (and stalemate) when its search hits checkmateTimeout, and then lists no moves; a verdict reached after the timeout is no verdict (/work/shared/oracle/README.md, checkmateTimedOut).',
    match: (d) =>
      d.ctx.theirsTimedOut === true &&
      ((['inCheckmate', 'inStalemate'].includes(d.call) && d.kind === 'value' && d.theirs === 'true') ||
        (d.call === 'moves' && isEmptyList(d.ctx.theirsOutcome))),
  },
];

function isEmptyList(o) {
  if (!o || o.status !== 'ok') return false;
  const v = o.value;
  return (Array.isArray(v) && v.length === 0) || v === '' || v === '[]';
}

/** The known entry that accepts difference d, or null. */
export function knownFor(d) {
  for (const k of KNOWN) {
    try {
      if (k.match(d)) return k;
    } catch (e) {
      /* a matcher that throws does not match */
    }
  }
  return null;
}
