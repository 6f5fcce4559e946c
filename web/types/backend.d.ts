// The back-end door's interface (described in words at the top of backend/remote.js): remote.js
// and local.js each export one. Types only: neither door serves this folder.

/** What the back-end offers (the page hides what is false). */
export interface Features {
  online: boolean;
  invites: boolean;
  lobby: boolean;
  archive: boolean;
  analysis: boolean;
  puzzleMaker: boolean;
  backup: boolean;
}

/** Options of watch: onOpen(send) on every (re)connection; reconnect (default true). */
export interface WatchOptions {
  onOpen?: (send: (message: object) => void) => void;
  reconnect?: boolean;
}

/** The page's back-end door. */
export interface Backend {
  kind: 'remote' | 'local';
  features: Features;
  /** A typed call of the game service (backend/calls.js names them): the answer's JSON (or
   * text); rejects with an Error carrying .kind and .code. */
  call(name: string, args?: any, headers?: Record<string, string>): Promise<any>;
  /** (remote) A call's method and URL. */
  address?: (name: string, args?: any) => { method: string; path: string };
  /** (remote) A server-only API call by URL (online.js's seats, accounts, lobby). */
  request?: (method: string, path: string, body?: any, headers?: Record<string, string>) => Promise<any>;
  /** (remote) A text answer (5DPGN). */
  text?: (path: string) => Promise<string>;
  /** A '/api/.../ws' path's messages until the returned stop() is called. */
  watch(path: string, onMessage: (message: any) => void, options?: WatchOptions): () => void;
  /** (backup) Every game, one multi-game 5DPGN. */
  exportAll?: () => Promise<string>;
  /** (backup) A backup's games. */
  importGames?: (text: string) => Promise<{ created: any[]; failed: { game: number; line: number; message: string }[] }>;
  /** (local) The answer with its status, for scripts' fetch. */
  respond?: (method: string, path: string, body?: any) => Promise<any>;
  /** (local) The engine's last thinking time. */
  lastEngineMs?: number | null;
}
