// The game service's typed calls (crates/play's `call::Call`) and their URLs (API.md), in one
// table: the HTTP client (remote.js) sends a call to its URL; the static site's back-end
// (local.js) hands the call to the WebAssembly service as it is and names its URL only in the
// `chess5d-api` event the browser tests wait for; the static site's fetch shim for scripts
// (js/site-src/config.js) reads a URL back into its call with the same table.
//
// A call is (name, args): args holds its fields, `id`, `n`, `action` (the path's parts),
// `query` (an object of texts) and `body` (the JSON body).

/** Each call's method and path pattern (`:id`, `:n`, `:action`: the args of that name).
 * @type {Record<string, [string, string]>} */
export const CALLS = {
  info: ['GET', '/api/info'],
  games: ['GET', '/api/games'],
  create_game: ['POST', '/api/games'],
  game: ['GET', '/api/games/:id'],
  delete_game: ['DELETE', '/api/games/:id'],
  game_moves: ['GET', '/api/games/:id/moves'],
  game_pgn: ['GET', '/api/games/:id/pgn'],
  retry_engine: ['POST', '/api/games/:id/retry-engine'],
  review: ['GET', '/api/games/:id/review'],
  start_review: ['POST', '/api/games/:id/review'],
  cancel_review: ['DELETE', '/api/games/:id/review'],
  mistakes: ['GET', '/api/games/:id/mistakes'],
  start_mistake: ['POST', '/api/games/:id/mistakes/:n'],
  act: ['POST', '/api/games/:id/:action'],
  my_games: ['POST', '/api/my-games'],
  challenges: ['GET', '/api/challenges'],
  lessons: ['GET', '/api/lessons'],
  start_exercise: ['POST', '/api/lessons/:id/:n'],
  puzzles: ['GET', '/api/puzzles'],
  puzzle_pgn: ['GET', '/api/puzzles/:id/pgn'],
  start_puzzle: ['POST', '/api/puzzles/:id'],
  make_puzzle: ['POST', '/api/user-puzzles'],
  create_analysis: ['POST', '/api/analysis'],
  analysis: ['GET', '/api/analysis/:id'],
  delete_analysis: ['DELETE', '/api/analysis/:id'],
  analysis_moves: ['GET', '/api/analysis/:id/moves'],
  analysis_pgn: ['GET', '/api/analysis/:id/pgn'],
  start_analysis: ['POST', '/api/analysis/:id/start'],
  stop_analysis: ['POST', '/api/analysis/:id/stop'],
  analysis_act: ['POST', '/api/analysis/:id/:action'],
};

/** The method and path (with its query) of a call. */
/** @param {string} name @param {Record<string, any>} [args] @returns {{method: string, path: string}} */
export function address(name, args = {}) {
  const c = CALLS[name];
  if (!c) throw Object.assign(new Error(`no such call: ${name}`), { kind: 'invalid', code: 'bad_body', status: 400 });
  const path = c[1].replace(/:(\w+)/g, (/** @type {string} */ _, /** @type {string} */ k) => encodeURIComponent(String(args[k])));
  const pairs = Object.entries(args.query ?? {}).filter(([, v]) => v !== undefined && v !== null);
  const q = new URLSearchParams(pairs.map(([k, v]) => [k, String(v)])).toString();
  return { method: c[0], path: q ? `${path}?${q}` : path };
}

/** The call of a method and URL path (with its query), or null: the table read backwards, for
 * scripts that fetch('/api/...') on the static site. The first pattern that fits wins (the
 * table lists fixed names before `:action`). */
/** @param {string} method @param {string} url @param {any} [body] @returns {{name: string, args: Record<string, any>} | null} */
export function callOf(method, url, body) {
  const [path, query] = url.split('?');
  for (const [name, [m, pattern]] of Object.entries(CALLS)) {
    if (m !== method) continue;
    /** @type {string[]} */
    const keys = [];
    const re = new RegExp(`^${pattern.replace(/:(\w+)/g, (/** @type {string} */ _, /** @type {string} */ k) => { keys.push(k); return '([^/]+)'; })}$`);
    const hit = path.match(re);
    if (!hit) continue;
    /** @type {Record<string, any>} */
    const args = {};
    keys.forEach((k, i) => { args[k] = decodeURIComponent(hit[i + 1]); });
    if (query) args.query = Object.fromEntries(new URLSearchParams(query));
    if (body !== undefined) args.body = body;
    return { name, args };
  }
  return null;
}
