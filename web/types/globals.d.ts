// The page's hooks on window (API.md: for scripts and the browser tests) and the static site's
// choice of back-end (js/site-src/config.js).
interface Window {
  CHESS5D_BACKEND?: 'local' | 'remote';
  chess5dBackend?: Promise<import('./backend.js').Backend>;
  chess5dOnline?: any;
  __chess5dShow?: (l: number, t: number) => void;
  __chess5dAnalysis?: () => any;
  __chess5dAnalysisSeat?: any;
  __chess5dSounds?: any;
}
