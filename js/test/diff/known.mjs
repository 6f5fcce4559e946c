// Known differences between 5d-chess-js 1.2.1 and chess5d that the differential test accepts.
// Each entry: `id`, `heading` ('their bug' or 'our deliberate extension'), `reason`, and
// `match(d)`: a predicate on one difference d = { call, args, kind, path, theirs, ours, ctx }.
// Keep every matcher narrow: it must match the shape of that one bug, never a whole call.
// (js/README.md lists the same entries for users.)

const isEnPassant = (m) => m && m.enPassant !== null && m.enPassant !== undefined;
const isCastling = (m) => m && m.castling !== null && m.castling !== undefined;
/** A castling whose rook starts exactly two files from the king (K a1, R c1). */
const castlesTwoAway = (m) => isCastling(m) && m.castling.start && Math.abs(m.castling.start.file - m.start.file) === 2;

/** Whether a custom start's 5DFEN has a king with an unmoved rook two files away (`K*1R*`). */
const rookTwoFromKing = (start) => /[Kk]\*1[Rr]\*|[Rr]\*1[Kk]\*/.test(start);

/**
 * For a difference in the moves after a state() round trip: whether each library's round trip
 * gives the moves of the game the state was taken from (null when an outcome is missing).
 */
function roundTrips(d) {
  if (d.call !== 'state' || d.path !== '.moves') return null;
  const { theirsBefore: tb, oursBefore: ob, theirsOutcome: t, oursOutcome: o } = d.ctx;
  if (![tb, ob, t, o].every((x) => x && x.status === 'ok')) return null;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  return { oursExact: same(o.value.moves, ob.value), theirsExact: same(t.value.moves, tb.value) };
}

/** The known differences that change what can be played (a game can go two ways after one). */
const PLAY_CHANGING = [
  'false-verdict',
  'timed-out-verdict',
  'promotion-pieces',
  'promotion-moves-refused',
  'promotion-checks',
  'list-of-known-items',
  'missed-en-passant',
  'castling-rook-two-away',
  'own-notation-refused',
  'pass-when-not-passable',
  'pass-refused-after-passable',
  'passable-copy-fails',
  'export-after-pass',
];

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
      (d.call === 'moveable' && d.ctx.onlyOurs && castlesTwoAway(d.ctx.move) && d.theirs === 'false' && d.ours === 'true') ||
      // The moves after a state() round trip or fen(text), as text: only ours has king moves
      // (a castling) on a start with a rook two files from the king.
      (['state', 'fen'].includes(d.call) &&
        d.path === '.moves' &&
        d.kind === 'lines' &&
        d.missingLines.length === 0 &&
        d.extraLines.length > 0 &&
        d.extraLines.every((l) => /^(\([^)]*\))?K[a-h]\d+$/.test(l)) &&
        rookTwoFromKing(String(d.ctx && d.ctx.start))),
  },
  {
    id: 'timed-out-verdict',
    heading: 'their bug',
    reason:
      '5d-chess-js 1.2.1 reports checkmate (and stalemate) when its search hits checkmateTimeout, and then lists no moves and refuses submit() and pass() (an action submittable() accepted a moment before: "Action is not complete"); a verdict reached after the timeout is no verdict (/work/shared/oracle/README.md, checkmateTimedOut).',
    match: (d) =>
      // Their copy() replays every action of the game by submit(), each asking the verdict
      // again under the timeout: a replayed submit that the same library accepted when the game
      // was played can be refused only by a verdict that timed out in the copy (the copy's own
      // instance, which the harness cannot ask; seen under load in custom_7x7, CI seed
      // 1527721856: "Cannot submit, currently in stalemate.", not reproduced alone).
      (d.call === 'copy' && d.kind === 'throws-theirs-only' && /^Error: "?Cannot submit, currently in (checkmate|stalemate)/.test(String(d.theirs).replace(/^throws /, ''))) ||
      (d.ctx.theirsTimedOut === true &&
      ((['inCheckmate', 'inStalemate'].includes(d.call) && d.kind === 'value' && d.theirs === 'true') ||
        (d.call === 'moves' && isEmptyList(d.ctx.theirsOutcome)) ||
        (d.call === 'state' && d.path === '.moves' && d.kind === 'type' && /^array \[\]$/.test(String(d.theirs))) ||
        // Their submit() and pass() ask the verdict again: timed out, it says mate, and the
        // action that submittable() accepted a moment before is refused (also on a copy the
        // harness plays on: `copy() then play on the copy`, whose moves() came back empty, seen
        // under load in custom_8x8, CI seed 1605751872, not reproduced alone).
        ((['submit', 'pass'].includes(d.call) || (d.call === 'copy' && /play on the copy/.test(String(d.args)))) &&
          d.kind === 'throws-theirs-only' &&
          /Action is not complete|currently in (checkmate|stalemate)/.test(String(d.theirs))))),
  },
  {
    id: 'promotion-pieces',
    heading: 'their bug',
    reason:
      '5d-chess-js 1.2.1 offers promotion to every piece type of the start position (=R, =N, =B, =S...; no queen where the start has none); the official game promotes to a queen only (rules.md section 3), more only with a Promotions header: the two lists differ only in promotion moves.',
    match: (d) => {
      if (!['moves', 'checks', 'actions'].includes(d.call) && !(d.call === 'state' && d.path === '.moves')) return false;
      const od = d.ctx && d.ctx.objDiff;
      // An item is a move object, an action's, or (in a text or identity list) its text.
      const promo = (m) =>
        typeof m === 'string' ? /=[A-Z]\b|"promotion":"[A-Z]"/.test(m) : m && (m.promotion || (m.moves && m.moves.some((x) => x.promotion)));
      // The object lists may differ in promotion moves only while the compared text or set shows
      // them as other items (e.g. one identity for several promotions): the text is tried then.
      if (od && od.missing.length + od.extra.length > 0 && [...od.missing, ...od.extra].every(promo)) return true;
      if (d.kind === 'set' && Array.isArray(d.missing) && Array.isArray(d.extra)) {
        const all = [...d.missing, ...d.extra];
        return all.length > 0 && all.every(promo);
      }
      if (d.kind === 'lines' && Array.isArray(d.missingLines)) {
        const all = [...d.missingLines, ...(d.extraLines || [])];
        return all.length > 0 && all.every((l) => /=[A-Z]\b/.test(l));
      }
      return false;
    },
  },
  {
    id: 'promotion-checks',
    heading: 'their bug',
    reason:
      "The check side of 'promotion-pieces': where every check is a pawn's (or brawn's) capture onto its last rank, 1.2.1, which does not promote to a queen there, does not see the check (inCheck false, the action submittable, the pass allowed); ours does.",
    match: (d) =>
      ((['inCheck'].includes(d.call) && d.kind === 'value' && d.theirs === 'false' && d.ours === 'true') ||
        (['submittable', 'passable'].includes(d.call) && d.kind === 'value' && d.theirs === 'true' && d.ours === 'false') ||
        (['submit', 'pass'].includes(d.call) && d.kind === 'throws-ours-only' && /could be captured/.test(String(d.ours)))) &&
      typeof d.ctx.promotionChecksOnly === 'function' &&
      d.ctx.promotionChecksOnly() === true,
  },
  {
    id: 'promotion-moves-refused',
    heading: 'their bug',
    reason: "The other side of 'promotion-pieces': 1.2.1's =R, =N, =B, =S moves (and ours to =Q) are refused by the other library.",
    match: (d) =>
      ['moveable', 'move', 'action'].includes(d.call) &&
      /=[A-Z]\b|"promotion":"[A-Z]"|promotion to a/.test(JSON.stringify(d.ctx && d.ctx.move) + String(d.args) + String(d.theirs) + String(d.ours)),
  },
  {
    id: 'actions-broken',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1's actions() throws in its default, object and json formats (ReferenceError: res is not defined) and in its text formats with no move under way (TypeError); with moves under way it returns an empty string where ours says to submit or undo first; once a pass was followed by moves (its state then broken, see export-after-pass) a text format can return an empty string where ours lists the legal actions.",
    match: (d) =>
      d.call === 'actions' &&
      ((d.kind === 'throws-theirs-only' && /ReferenceError|TypeError/.test(d.theirs)) ||
        (d.kind === 'throws-ours-only' && d.theirs === 'returns ""' && /submit or undo the moves under way/.test(d.ours)) ||
        (['lines', 'final-newline'].includes(d.kind) && d.ctx && d.ctx.hadPass === true && d.ctx.theirsEmpty === true)),
  },
  {
    id: 'checks-false-suffix',
    heading: 'their bug',
    reason: "5d-chess-js 1.2.1 writes the word 'false' (or 'true' with the active token) after every move of checks() in its text formats (Qxe8false) and ignores the superphysical token there.",
    match: (d) => d.call === 'checks' && d.kind === 'lines' && /\w(false|true)\b/.test(JSON.stringify(d.theirs)),
  },
  {
    id: 'compare-broken',
    heading: 'their bug',
    reason: "5d-chess-js 1.2.1's compare() answers -1 for two equal boards, 0 for two different moves, and throws on boards of different positions; ours answers 0 exactly when the two are the same (its other non-zero values are arbitrary, as its documentation says, and ours are -1 and 1).",
    match: (d) =>
      d.call === 'compare' &&
      (d.kind === 'throws-theirs-only' ||
        (d.kind === 'value' && (['-1', '0'].includes(String(d.theirs)) || (Number(d.theirs) !== 0 && Number(d.ours) !== 0)))),
  },
  {
    id: 'silent-failures',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1's import() of unreadable text or with an unknown variant, reset() and fen() with bad text change the game without an error (its documentation says they throw); ours throws and changes nothing.",
    match: (d) =>
      ['import', 'reset', 'fen'].includes(d.call) &&
      /'junk'|no_such_variant/.test(String(d.args)) &&
      ['.threw', '.unchanged'].includes(d.path),
  },
  {
    id: 'import-objects-nothing',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1's import() of Action objects (export('object'), export('json')) imports nothing, or a Standard game, while importable() says true; ours replays the actions.",
    match: (d) =>
      (d.call === 'import' && /export\('(object|json)'\)/.test(String(d.args))) ||
      (d.call === 'importable' && /export\('(object|json)'\)/.test(String(d.args))),
  },
  {
    id: 'variant-ignored',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1 ignores the variant of import('', variant) and a Board object given as the variant (new Chess(undefined, board)), and gives Standard; its documentation says both are used.",
    match: (d) =>
      (d.call === 'import' && /^\('', '/.test(String(d.args))) || (d.call === 'new Chess' && /Board object/.test(String(d.args))),
  },
  {
    id: 'pass-refused-after-passable',
    heading: 'their bug',
    reason: "5d-chess-js 1.2.1's pass() sometimes throws 'Action is not complete' right after its passable() said true (the harness passes only then); ours passes.",
    match: (d) => d.call === 'pass' && d.args === '() during play' && d.kind === 'throws-theirs-only' && /Action is not complete/.test(String(d.theirs)),
  },
  {
    id: 'pass-when-not-passable',
    heading: 'their bug',
    reason: "5d-chess-js 1.2.1's pass() sometimes changes the game although its passable() is false; ours refuses and changes nothing.",
    match: (d) => d.call === 'pass' && /when not passable/.test(String(d.args)),
  },
  {
    id: 'export-after-pass',
    heading: 'their bug',
    reason: "5d-chess-js 1.2.1's export() (and so copy() and state() checks that export) throws a TypeError once a pass is followed by moves; ours writes the passed action as its moves.",
    match: (d) => ['export', 'copy', 'state'].includes(d.call) && d.kind === 'throws-theirs-only' && /TypeError/.test(String(d.theirs)),
  },
  {
    id: 'passable-copy-fails',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1's passable() tries the pass on a copy() and answers false when that copy fails (its copy() replays its export(), which throws once a pass is followed by moves, see export-after-pass); ours answers whether the pass is legal.",
    match: (d) => d.call === 'passable' && d.kind === 'value' && d.theirs === 'false' && d.ours === 'true' && d.ctx.theirsCopyThrows === true,
  },
  {
    id: 'pass-records-misread',
    heading: 'their bug',
    reason:
      "A record of a game with a pass (`1.  / e5`, or an action that leaves boards unplayed), as ours exports it and as 1.2.1 writes it before its export breaks (export-after-pass): 1.2.1's import() reads it as another game (actions dropped or merged, or nothing, without an error); ours reads back the game it was written from (but for a pass at its very end, which no text record shows). The rule: any import of either library's text export of a game that had a pass.",
    match: (d) =>
      ['import', 'importable'].includes(d.call) &&
      /^\((our|their) export\('(notation|5dpgn)/.test(String(d.args)) &&
      d.ctx.hadPass === true &&
      d.kind !== 'throws-ours-only',
  },
  {
    id: 'false-verdict',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1 says the side to move is mated or stalemated (inCheckmate/inStalemate true, moves() [], submit() and pass() refused as 'currently in checkmate/stalemate', passable() and submittable() false though they say yes without that search) where a legal action exists: refereed by 1.2.1 itself, which plays the action ours finds, move by move, and calls it submittable.",
    match: (d) =>
      ((['inCheckmate', 'inStalemate'].includes(d.call) && d.kind === 'value' && d.theirs === 'true' && d.ours === 'false') ||
        (['moves', 'checks'].includes(d.call) && isEmptyList(d.ctx.theirsOutcome) && !isEmptyList(d.ctx.oursOutcome)) ||
        (d.call === 'state' && d.path === '.moves' && d.kind === 'type' && /^array \[\]$/.test(String(d.theirs))) ||
        (['submit', 'pass'].includes(d.call) && d.kind === 'throws-theirs-only' && /currently in (checkmate|stalemate)/.test(String(d.theirs))) ||
        (d.call === 'passable' && d.kind === 'value' && d.theirs === 'false' && d.ours === 'true' && d.ctx.theirsPassWithoutVerdict === true) ||
        (d.call === 'submittable' && d.kind === 'value' && d.theirs === 'false' && d.ours === 'true' && d.ctx.theirsSubmittableWithoutVerdict === true)) &&
      typeof d.ctx.refuted === 'function' &&
      d.ctx.refuted() === true,
  },
  {
    id: 'diverged-after-a-known-difference',
    heading: 'their bug',
    reason:
      'A random game in which the two libraries reach different positions after one of the differences above that changes what can be played (a verdict, a promotion, an en passant or castling move, a move refused); the harness then re-synchronises them or ends the game.',
    match: (d) =>
      d.call === 'game' &&
      d.kind === 'diverged' &&
      Array.isArray(d.ctx.priorKnown) &&
      d.ctx.priorKnown.some((id) =>
        PLAY_CHANGING.includes(id),
      ),
  },
  {
    id: 'import-reads-another-game',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1's import() of a record exported from the game under test (its own export or ours) reads another game, without an error (it stops early or drops actions); ours reads the game the record was exported from: its hash is the game's.",
    match: (d) => {
      if (d.call !== 'import' || !/export\(/.test(String(d.args))) return false;
      const t = d.ctx.theirsOutcome;
      const o = d.ctx.oursOutcome;
      const game = d.ctx.gameHashes || [];
      return !!(t && o && t.status === 'ok' && o.status === 'ok' && game.includes(o.value.hash) && !game.includes(t.value.hash));
    },
  },
  {
    id: 'royal-capturable-start',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1 sets up a start in which the side to move can capture a royal piece at once (a random custom start with a rook facing a royal queen); that position cannot arise in a game (the side that just moved would have left its royal piece capturable), and ours refuses it with the square and the attacker, as every door of chess5d does.",
    match: (d) =>
      d.call === 'setup' &&
      ['throws-ours-only', 'game-abandoned'].includes(d.kind) &&
      // (The message may be cut short in the report: matched by its start.)
      /invalid start position: the (white|black) [a-z ]+ on \S+ can be captured/.test(String(d.ours)),
  },
  {
    id: 'state-round-trip-lossy',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1's state(s), given the JSON of its own state(), makes a game with other moves than the game the state was taken from (castling rights and verdicts are lost); ours restores the same moves.",
    match: (d) => {
      const r = roundTrips(d);
      return r !== null && r.oursExact && !r.theirsExact;
    },
  },
  {
    id: 'state-round-trip-repeats',
    heading: 'their bug',
    reason:
      "Both state() round trips are exact, and the moves differ as the game's own moves() do, in a game where that difference was accepted above (en passant, castling two away, promotions, verdicts): the same difference, met again.",
    match: (d) => {
      const r = roundTrips(d);
      return (
        r !== null &&
        r.oursExact &&
        r.theirsExact &&
        Array.isArray(d.ctx.priorKnown) &&
        d.ctx.priorKnown.some((id) => PLAY_CHANGING.includes(id))
      );
    },
  },
  {
    id: 'list-of-known-items',
    heading: 'their bug',
    reason:
      'A list (moves, checks, actions) in which each item only one library lists is one of the items above: a promotion to another piece, an en passant capture or a castling with the rook two squares away (several of them in one list).',
    match: (d) => {
      if (!['moves', 'checks', 'actions'].includes(d.call)) return false;
      const od = d.ctx && d.ctx.objDiff;
      const sets = od ? od : d.kind === 'set' && Array.isArray(d.missing) ? { missing: d.missing, extra: d.extra } : null;
      if (!sets || sets.missing.length + sets.extra.length === 0) return false;
      const moves = (x) => (x && Array.isArray(x.moves) ? x.moves : [x]);
      const promo = (m) => m && m.promotion;
      const oursOnly = (m) => promo(m) || isEnPassant(m) || castlesTwoAway(m);
      return sets.missing.every((x) => moves(x).some(promo)) && sets.extra.every((x) => moves(x).some(oursOnly));
    },
  },
  {
    id: 'turn-without-size',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1 measures a Turn object's width from the rows' squares that hold a piece, so a Turn with no pieces (a board emptied by jumps: its pieces travelled away) has width 0, where its own Board object and every other Turn of the game give the board's size; ours gives the board's size. Met wherever a Board object is answered: board, boardHistory, and the board of a copy() or of a state() round trip.",
    match: (d) => {
      if (d.kind !== 'value' || d.theirs !== '0' || !(Number(d.ours) > 0)) return false;
      if (!/\.turns\[\]\.(width|height)$/.test(String(d.path))) return false;
      // The Turn itself, in their answer, by the exact path of this difference.
      const turn = valueAt(d.ctx && d.ctx.theirsOutcome && d.ctx.theirsOutcome.value, String(d.at).replace(/\.(width|height)$/, ''));
      return turn !== undefined && Array.isArray(turn.pieces) && turn.pieces.length === 0;
    },
  },
  {
    id: 'branch-written-as-hop',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1's export() writes some jumps that make a timeline as a jump onto a playable board, `(-1T2)Nb1>(-0T2)b3` (no `>>`, no `~`, no `(>L3)`), where both libraries made the new timeline (same position, one more timeline), and its own import() then refuses that record ('Notation invalid'); ours writes `>>`, `~` and the timeline token. The rule: every line that differs reads the same once ours' `>>` is `>` and its `~` and `(>L<n>)` are dropped (seen in Two Timelines and Reversed Royalty, even and odd starts alike).",
    match: (d) => {
      if (!['export', 'copy', 'state'].includes(d.call) || d.kind !== 'lines') return false;
      if (!['', '.export'].includes(d.path || '')) return false;
      const t = d.missingLines;
      const o = d.extraLines;
      if (!Array.isArray(t) || !Array.isArray(o) || t.length === 0 || t.length !== o.length) return false;
      const asHop = (l) => l.replace(/ \(>L-?\d+\)/g, '').replace(/>>/g, '>').replace(/~/g, '');
      const branches = (l) => (l.match(/>>/g) || []).length;
      const fits = (theirs) => o.some((ours) => asHop(ours) === asHop(theirs) && branches(ours) > branches(theirs));
      return t.every(fits) && o.every((ours) => t.some((theirs) => asHop(ours) === asHop(theirs)));
    },
  },
  {
    id: 'fen-full',
    heading: 'our deliberate extension',
    reason: 'fen(null, true) gives every board of the position now; 5d-chess-js 1.2.1 has no second argument.',
    match: (d) => d.call === 'fen' && /^\(null, true\)/.test(String(d.args)),
  },
  {
    id: 'state-own-object',
    heading: 'our deliberate extension',
    reason:
      "state() gives this library's own JSON-compatible object (the start, the actions, the moves under way), which state(s) restores; 5d-chess-js 1.2.1's raw arrays are its internals.",
    match: (d) => d.call === 'state' && ['key-missing', 'key-extra'].includes(d.kind) && /content/.test(String(d.args)),
  },
  {
    id: 'own-notation-refused',
    heading: 'their bug',
    reason: "5d-chess-js 1.2.1 refuses some moves written in its own notation (Black pawn captures such as 'ccxd3'; in an action given as its own 5DPGN too, 'ggxf4'); ours reads them.",
    match: (d) =>
      (d.call === 'move' && d.kind === 'throws-theirs-only' && /^\((notation|notation_short)\) during play/.test(String(d.args))) ||
      (d.call === 'action' &&
        d.kind === 'throws-theirs-only' &&
        /^\(5dpgn\) during play/.test(String(d.args)) &&
        /Notation invalid and an error has occurred with string: (\([^)]*\))?([a-z])\2x/.test(String(d.theirs))) ||
      (d.call === 'moveable' &&
        d.kind === 'value' &&
        d.theirs === 'false' &&
        d.ours === 'true' &&
        /^\(their notation/.test(String(d.args)) &&
        /^(\([^)]*\))?([a-z])\2x/.test(String(d.ctx && d.ctx.text))),
  },
  {
    id: 'fen-setter-keeps-start',
    heading: 'their bug',
    reason:
      "After fen(text), 5d-chess-js 1.2.1's fen() and export() still give the start from before (an export then replays, in its own import(), to another game than the one on its board); ours gives the boards the text put in, so the record replays to the game.",
    match: (d) => d.call === 'fen' && /setter on a new instance/.test(String(d.args)) && d.path === '.fen' && d.kind === 'lines',
  },
  {
    id: 'fen-setter-misplaces-boards',
    heading: 'their bug',
    reason:
      "5d-chess-js 1.2.1's fen(text) puts boards of turn 0 one turn later (T0 Black at T1 Black, T1 White at T2 White), and boards labelled -0/+0 beside the 0 of a game without them (three start timelines, a position no 5DFEN describes); its own import(text, 'custom') of the same text puts them where the text says, as ours does.",
    match: (d) =>
      d.call === 'fen' &&
      /setter on a new instance/.test(String(d.args)) &&
      d.path !== '.fen' &&
      /:[-+]0:|:0:b\]/.test(String(d.ctx && d.ctx.input)),
  },
];

function onlyTheirs(d, pred) {
  const od = d.ctx && d.ctx.objDiff;
  if (!od || od.extra.length !== 0 || od.missing.length === 0) return false;
  return od.missing.every(pred);
}

function isEmptyList(o) {
  if (!o || o.status !== 'ok') return false;
  const v = o.value;
  return (Array.isArray(v) && v.length === 0) || v === '' || v === '[]';
}

/** The value at `path` (`.a[2].b`, as the diff engine writes it) inside `value`, or undefined. */
function valueAt(value, path) {
  let v = value;
  for (const [, key, index] of path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[key !== undefined ? key : Number(index)];
  }
  return v;
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
