// The type check's view of the static site's WebAssembly module (crates/local, which
// build-site.mjs writes to site/pkg/ with wasm-bindgen): what backend/local.js and
// backend/engine-worker.js import. tsconfig.json's rootDirs lays web/types over web/.
export default function init(options?: { module_or_path?: URL | string }): Promise<unknown>;
export class Backend {
  constructor(puzzles: string);
  [method: string]: any;
}
export function engine_think(...args: any[]): any;
export function engine_analyse(...args: any[]): any;
export function make_puzzle(...args: any[]): any;
export function review_game(...args: any[]): any;
export function proven_mate(...args: any[]): any;
export function judge_answer(...args: any[]): any;
