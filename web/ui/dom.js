// Layer 1 (basics): small helpers of the page: the DOM, HTML escaping, the error line, which page is shown.

/** The page's element that selector `s` names. The page's own elements (index.html's, and those
 * its modules add at start) are taken as present and of the kind their id says: any.
 * @param {string} s @returns {any} */
export const $ = (s) => document.querySelector(s);
export const SVGNS = 'http://www.w3.org/2000/svg';
/** @type {Record<string, string>} */
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text escaped for HTML. @param {unknown} s @returns {string} */
export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Shows `msg` on the error line (none: hides it). @param {string | null | undefined} msg */
export function showError(msg) {
  const e = $('#error');
  if (!msg) { e.classList.add('hidden'); e.textContent = ''; return; }
  e.textContent = msg;
  e.classList.remove('hidden');
}

/** Shows one of the pages (home, play, notfound). */
export function showPage(/** @type {string} */ id) {
  for (const p of ['home', 'play', 'notfound']) $(`#${p}`).classList.toggle('hidden', p !== id);
}

/** The clock of a form's `PREFIX-minutes` and `PREFIX-inc` fields, as the API takes it (none
 * for 0 minutes). */
export function clockOf(/** @type {string} */ prefix) {
  const min = Number($(`#${prefix}-minutes`).value);
  if (!min) return undefined;
  return { initial_ms: Math.round(min * 60000), increment_ms: Math.round(Number($(`#${prefix}-inc`).value || 0) * 1000) };
}

/** Offers `text` to the browser as a download named `file`. */
export function download(/** @type {string} */ text, /** @type {string} */ file) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = file;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Copies an input's text to the clipboard (selecting it where the clipboard is refused); the
 * button says "Copied" a moment. */
export async function copyFrom(/** @type {HTMLInputElement | HTMLTextAreaElement} */ input, /** @type {HTMLElement} */ button) {
  try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand('copy'); }
  const was = button.textContent;
  button.textContent = 'Copied';
  setTimeout(() => { button.textContent = was; }, 1200);
}

/** `s` with a capital first letter. @template {string | null | undefined} S @param {S} s @returns {S} */
export function cap(s) { return /** @type {S} */ (s ? s[0].toUpperCase() + s.slice(1) : s); }
