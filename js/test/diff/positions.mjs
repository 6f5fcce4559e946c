// Start positions of the differential harness: the variants both libraries have built in, the
// start boards of the official variants the library loads as custom 5DFEN (from the oracle
// corpus in /work/shared/oracle, copied below as plain 5DFEN facts), and random custom boards
// of 4x4 to 8x8 with the fairy pieces 5d-chess-js 1.2.1 accepts in 5DFEN (checked by running
// it: P B N R Q K, S princess, W brawn, C common king, Y royal queen, U unicorn, D dragon;
// every other letter is "invalid piece").

export const BUILTIN = ['standard', 'defended_pawn', 'half_reflected', 'princess', 'turn_zero', 'two_timelines', 'reversed_royalty'];

/** Official variants that 5d-chess-js loads only as custom boards: [name, size, 5DFEN boards]. */
export const OFFICIAL_CUSTOM = [
  ['simple_no_queens', '7x7', ['[r*nbk*nbr*/p*p*p*p*p*p*p*/7/7/7/P*P*P*P*P*P*P*/R*NBK*NBR*:0:1:w]']],
  ['simple_knights_vs_bishops', '6x6', ['[r*bqk*br*/p*p*p*p*p*p*/6/6/P*P*P*P*P*P*/R*NQK*NR*:0:1:w]']],
  ['simple_no_rooks', '6x6', ['[nbqk*bn/p*p*p*p*p*p*/6/6/P*P*P*P*P*P*/NBQK*BN:0:1:w]']],
  ['simple_simple_set', '6x6', ['[r*nbqk*r*/p*p*p*p*p*p*/6/6/P*P*P*P*P*P*/R*K*QBNR*:0:1:w]']],
  ['small', '5x5', ['[k*qbnr*/p*p*p*p*p*/5/P*P*P*P*P*/K*QBNR*:0:1:w]']],
  ['small_flipped', '5x5', ['[nbr*qk*/p*p*p*p*p*/5/P*P*P*P*P*/K*QR*BN:0:1:w]']],
  ['small_centered', '5x5', ['[r*nk*qr*/p*p*p*p*p*/5/P*P*P*P*P*/R*QK*NR*:0:1:w]']],
  ['small_open', '5x5', ['[p*r*nbk*/3p*p*/5/P*P*3/K*BNR*P*:0:1:w]']],
  ['very_small', '4x4', ['[nbr*k*/p*p*p*p*/P*P*P*P*/K*R*BN:0:1:w]']],
  ['very_small_open', '4x4', ['[nbr*k*/3p*/P*3/K*R*BN:0:1:w]']],
  ['timeline_invasion', '5x5', ['[nbk*r*b/p*p*p*p*p*/5/5/P*P*P*P*P*:-0:1:w]', '[p*p*p*p*p*/5/5/P*P*P*P*P*/NBK*R*B:+0:1:w]']],
  ['timeline_tactitian', '4x4', ['[k*bnr*/p*p*p*p*/4/4:-0:1:w]', '[4/4/P*P*P*P*/K*BNR*:+0:1:w]']],
  ['timeline_strategos', '5x5', ['[nbk*ur*/p*p*p*p*p*/5/5/5:-0:1:w]', '[5/5/5/P*P*P*P*P*/R*UK*BN:+0:1:w]']],
  ['timeline_battlegrounds', '5x5', ['[r*r*k*r*r*/bbqbb/p*p*p*p*p*/5/P*P*P*P*P*:-1:1:w]', '[nnnnn/p*p*p*p*p*/5/P*P*P*P*P*/NNNNN:0:1:w]', '[p*p*p*p*p*/5/P*P*P*P*P*/BBQBB/R*R*K*R*R*:+1:1:w]']],
  ['timeline_marauders', '5x5', ['[w*r*k*r*w*/1w*w*w*1/5/5/5:-1:1:w]', '[w*1w*1w*/5/5/5/W*1W*1W*:0:1:w]', '[5/5/5/1W*W*W*1/W*R*K*R*W*:+1:1:w]']],
  ['king_of_kings', '5x5', ['[cck*cc/5/5/5/CCK*CC:0:1:w]']],
  ['royal_queen_showdown', '6x6', ['[4y1/6/6/6/6/1Y4:0:1:w]']],
  ['excessive', '7x7', ['[k*r*uqdr*k*/r*nbk*nbr*/p*p*p*p*p*p*p*/7/P*P*P*P*P*P*P*/R*NBK*NBR*/K*R*UQDR*K*:0:1:w]']],
  ['just_knights', '5x5', ['[n1k*n1/5/5/5/1NK*1N:0:1:w]']],
  ['just_brawns', '5x5', ['[w*w*w*w*k*/5/5/5/K*W*W*W*W*:0:1:w]']],
  ['just_unicorns', '5x5', ['[1u1uk*/5/5/5/K*U1U1:0:1:w]']],
  ['just_dragons', '5x5', ['[2ddk*/5/5/5/K*DD2:0:1:w]']],
];

/** 5DPGN headers and boards of a custom start position. */
export function customPgn(size, fens) {
  return `[Board "custom"]\n[Size "${size}"]\n${fens.join('\n')}\n`;
}

function rowFen(cells) {
  let s = '';
  let empty = 0;
  for (const c of cells) {
    if (c === null) {
      empty++;
      continue;
    }
    if (empty) s += empty;
    empty = 0;
    s += c;
  }
  if (empty) s += empty;
  return s;
}

/** A random custom start position (4x4 to 8x8, fairy pieces, 1 to 3 start timelines). */
export function randomCustom(rnd) {
  const w = 4 + rnd.int(5);
  const h = 4 + rnd.int(5);
  const royal = rnd.chance(0.2) ? 'Y' : 'K';
  const officers = 'RNBQSCUD'.split('');
  const back = [];
  const kingFile = rnd.int(w);
  for (let f = 0; f < w; f++) {
    if (f === kingFile) back.push(royal + (royal === 'K' ? '*' : ''));
    else if (rnd.chance(0.15)) back.push(null);
    else {
      const p = rnd.chance(0.35) ? 'R' : rnd.pick(officers);
      back.push(p + (p === 'R' ? '*' : ''));
    }
  }
  const pawns = [];
  for (let f = 0; f < w; f++) {
    if (rnd.chance(0.15)) pawns.push(null);
    else pawns.push(rnd.chance(0.2) ? 'W*' : 'P*');
  }
  const lower = (cells) => cells.map((c) => (c === null ? null : c.toLowerCase()));
  const rows = [rowFen(lower(back)), rowFen(lower(pawns))];
  for (let i = 0; i < h - 4; i++) rows.push(String(w));
  rows.push(rowFen(pawns), rowFen(back));
  const board = rows.join('/');
  const shape = rnd.int(4);
  const labels = shape === 0 ? ['-0', '+0'] : shape === 1 ? ['-1', '0', '+1'] : ['0'];
  const fens = labels.map((l) => `[${board}:${l}:1:w]`);
  return { name: `custom_${w}x${h}`, pgn: customPgn(`${w}x${h}`, fens) };
}

/** The start position of a game: { name, variant } (built in) or { name, pgn } (custom). */
export function pickStart(rnd, only) {
  if (only) {
    if (BUILTIN.includes(only)) return { name: only, variant: only };
    const off = OFFICIAL_CUSTOM.find(([n]) => n === only);
    if (off) return { name: off[0], pgn: customPgn(off[1], off[2]) };
    if (only === 'custom') return randomCustom(rnd);
    throw new Error(`unknown variant ${only}: use ${[...BUILTIN, ...OFFICIAL_CUSTOM.map((o) => o[0]), 'custom'].join(', ')}`);
  }
  const r = rnd.next();
  if (r < 0.55) {
    const v = rnd.pick(BUILTIN);
    return { name: v, variant: v };
  }
  if (r < 0.8) {
    const [n, size, fens] = rnd.pick(OFFICIAL_CUSTOM);
    return { name: n, pgn: customPgn(size, fens) };
  }
  return randomCustom(rnd);
}
