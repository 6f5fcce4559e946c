// Layer 1 (basics): small helpers of the page: the DOM, HTML escaping, the error line, which page is shown.

export const $ = (s) => document.querySelector(s);
export const SVGNS = 'http://www.w3.org/2000/svg';

export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

export function showError(msg) {
  const e = $('#error');
  if (!msg) { e.classList.add('hidden'); e.textContent = ''; return; }
  e.textContent = msg;
  e.classList.remove('hidden');
}

/** Shows one of the pages (home, play, notfound). */
export function showPage(id) {
  for (const p of ['home', 'play', 'notfound']) $(`#${p}`).classList.toggle('hidden', p !== id);
}

/** The clock of a form's `PREFIX-minutes` and `PREFIX-inc` fields, as the API takes it (none
 * for 0 minutes). */
export function clockOf(prefix) {
  const min = Number($(`#${prefix}-minutes`).value);
  if (!min) return undefined;
  return { initial_ms: Math.round(min * 60000), increment_ms: Math.round(Number($(`#${prefix}-inc`).value || 0) * 1000) };
}

/** Offers `text` to the browser as a download named `file`. */
export function download(text, file) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = file;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Copies an input's text to the clipboard (selecting it where the clipboard is refused); the
 * button says "Copied" a moment. */
export async function copyFrom(input, button) {
  try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand('copy'); }
  const was = button.textContent;
  button.textContent = 'Copied';
  setTimeout(() => { button.textContent = was; }, 1200);
}

export function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }
