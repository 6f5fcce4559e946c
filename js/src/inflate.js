// Raw DEFLATE (RFC 1951) decoding, for the rules module's WebAssembly, which the package ships
// deflated (a third of its size) where no native inflate is at hand (a page; Node uses zlib).
// Canonical Huffman codes decoded bit by bit from their counts per length: small, and fast
// enough for the one module it decodes (about 10 ms for 450 kB).

const LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CODE_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** The decoded bytes of raw DEFLATE data `src` whose decoded length is `size`. */
function inflate(src, size) {
  const out = new Uint8Array(size);
  let op = 0;
  let ip = 0;
  let buf = 0;
  let cnt = 0;
  const bad = (what) => {
    throw new Error(`inflate: ${what} at byte ${ip}`);
  };
  const bits = (n) => {
    while (cnt < n) {
      if (ip >= src.length) bad('unexpected end');
      buf |= src[ip++] << cnt;
      cnt += 8;
    }
    const v = buf & ((1 << n) - 1);
    buf >>>= n;
    cnt -= n;
    return v;
  };
  /** A code from code lengths: [count per length, symbols in code order]. */
  const code = (lengths) => {
    const count = new Uint16Array(16);
    for (const l of lengths) count[l]++;
    count[0] = 0;
    const offset = new Uint16Array(16);
    for (let l = 1; l < 16; l++) offset[l] = offset[l - 1] + count[l - 1];
    const symbols = new Uint16Array(lengths.length);
    for (let s = 0; s < lengths.length; s++) if (lengths[s]) symbols[offset[lengths[s]]++] = s;
    return [count, symbols];
  };
  const decode = ([count, symbols]) => {
    let c = 0;
    let first = 0;
    let index = 0;
    for (let l = 1; l < 16; l++) {
      c |= bits(1);
      const n = count[l];
      if (c - n < first) return symbols[index + (c - first)];
      index += n;
      first = (first + n) << 1;
      c <<= 1;
    }
    return bad('bad code');
  };
  let fixed = null;
  for (let last = 0; !last; ) {
    last = bits(1);
    const type = bits(2);
    if (type === 0) {
      buf = 0;
      cnt = 0;
      const len = src[ip] | (src[ip + 1] << 8);
      ip += 4;
      if (ip + len > src.length || op + len > size) bad('bad stored block');
      out.set(src.subarray(ip, ip + len), op);
      ip += len;
      op += len;
      continue;
    }
    let lit;
    let dist;
    if (type === 1) {
      if (!fixed) {
        const l = new Uint8Array(288);
        l.fill(8, 0, 144);
        l.fill(9, 144, 256);
        l.fill(7, 256, 280);
        l.fill(8, 280, 288);
        fixed = [code(l), code(new Uint8Array(30).fill(5))];
      }
      [lit, dist] = fixed;
    } else if (type === 2) {
      const nlen = bits(5) + 257;
      const ndist = bits(5) + 1;
      const ncode = bits(4) + 4;
      const cl = new Uint8Array(19);
      for (let i = 0; i < ncode; i++) cl[CODE_ORDER[i]] = bits(3);
      const lencode = code(cl);
      const lengths = new Uint8Array(nlen + ndist);
      for (let i = 0; i < nlen + ndist; ) {
        const sym = decode(lencode);
        if (sym < 16) {
          lengths[i++] = sym;
          continue;
        }
        let repeat;
        let value = 0;
        if (sym === 16) {
          if (i === 0) bad('repeat with no length');
          value = lengths[i - 1];
          repeat = 3 + bits(2);
        } else repeat = sym === 17 ? 3 + bits(3) : 11 + bits(7);
        if (i + repeat > lengths.length) bad('too many lengths');
        lengths.fill(value, i, i + repeat);
        i += repeat;
      }
      lit = code(lengths.subarray(0, nlen));
      dist = code(lengths.subarray(nlen));
    } else bad('bad block type');
    for (;;) {
      const sym = decode(lit);
      if (sym < 256) {
        if (op >= size) bad('output too long');
        out[op++] = sym;
      } else if (sym === 256) break;
      else {
        const s = sym - 257;
        if (s >= 29) bad('bad length');
        const len = LEN_BASE[s] + bits(LEN_EXTRA[s]);
        const d = decode(dist);
        if (d >= 30) bad('bad distance');
        const back = DIST_BASE[d] + bits(DIST_EXTRA[d]);
        if (back > op || op + len > size) bad('bad distance');
        for (let k = 0; k < len; k++, op++) out[op] = out[op - back];
      }
    }
  }
  if (op !== size) bad(`decoded ${op} bytes, expected ${size}`);
  return out;
}
