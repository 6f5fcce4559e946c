// Layer 1 (basics): the player's settings, remembered in this browser (localStorage): sounds on
// or off, the light or dark theme, the board palette; and the sounds themselves, made with Web
// Audio (no sound files to load), and whether checks are marked on the boards. The top bar's
// Settings menu changes them; a change is told as a `chess5d-settings` event on the window.
import { $ } from './dom.js';

const KEY = 'chess5d.settings';
const DEFAULTS = { sound: true, theme: 'dark', palette: 'wood', checks: true };
const THEMES = ['dark', 'light'];
const PALETTES = ['wood', 'blue'];

function load() {
  try {
    const s = { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
    return {
      sound: s.sound !== false,
      checks: s.checks !== false,
      theme: THEMES.includes(s.theme) ? s.theme : DEFAULTS.theme,
      palette: PALETTES.includes(s.palette) ? s.palette : DEFAULTS.palette,
    };
  } catch {
    return { ...DEFAULTS };
  }
}

/** The player's settings. @typedef {{sound: boolean, checks: boolean, theme: string, palette: string}} Settings */

/** The player's settings as remembered, with the top bar's Settings menu wired to them (the
 * router calls it once and passes the object in: types/pages.d.ts's Services).
 * @returns {Settings} */
export function openSettings() {
  /** @type {Settings} */
  const settings = load();
  const apply = () => {
    document.documentElement.dataset.theme = settings.theme;
    document.documentElement.dataset.palette = settings.palette;
    $('#set-sound').checked = settings.sound;
    $('#set-checks').checked = settings.checks;
    $('#set-theme').value = settings.theme;
    $('#set-palette').value = settings.palette;
  };
  const save = () => {
    try { localStorage.setItem(KEY, JSON.stringify(settings)); } catch { /* private mode: this page only */ }
    apply();
    dispatchEvent(new CustomEvent('chess5d-settings'));
  };
  $('#set-sound').addEventListener('change', () => { settings.sound = $('#set-sound').checked; save(); });
  $('#set-checks').addEventListener('change', () => { settings.checks = $('#set-checks').checked; save(); });
  $('#set-theme').addEventListener('change', () => { settings.theme = $('#set-theme').value; save(); });
  $('#set-palette').addEventListener('change', () => { settings.palette = $('#set-palette').value; save(); });
  // The menu closes on a click elsewhere.
  document.addEventListener('click', (e) => {
    if (!/** @type {HTMLElement} */ (e.target).closest('#settings')) $('#settings').open = false;
  });
  apply();
  return settings;
}

// ---------- sounds ----------

// Each sound a few short tones: [frequency Hz, start s, length s, type].
/** @type {Record<string, [number, number, number, OscillatorType][]>} */
const TONES = {
  move: [[520, 0, 0.07, 'triangle']],
  capture: [[330, 0, 0.05, 'square'], [220, 0.05, 0.09, 'triangle']],
  check: [[660, 0, 0.08, 'triangle'], [880, 0.09, 0.12, 'triangle']],
  end: [[523, 0, 0.18, 'sine'], [659, 0.12, 0.18, 'sine'], [784, 0.24, 0.32, 'sine']],
};

/** The page's sounds, played where the settings say sounds are on. */
export class Sound {
  /** @type {AudioContext | null} */
  #audio = null;
  /** @param {Settings} settings */
  constructor(settings) {
    this.settings = settings;
    /** The sounds played, in order (`move`, `capture`, `check`, `end`): for scripts and tests
     * (window.__chess5dSounds). @type {string[]} */
    this.played = [];
    window.__chess5dSounds = this.played;
  }

  /** Plays sound `name` if sounds are on. @param {string} name */
  play(name) {
    if (!this.settings.sound || !TONES[name]) return;
    this.played.push(name);
    try {
      this.#audio ??= new AudioContext();
      const audio = this.#audio;
      const t0 = audio.currentTime + 0.01;
      for (const [f, at, len, type] of TONES[name]) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = type;
        osc.frequency.value = f;
        gain.gain.setValueAtTime(0.0001, t0 + at);
        gain.gain.exponentialRampToValueAtTime(0.18, t0 + at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
        osc.connect(gain).connect(audio.destination);
        osc.start(t0 + at);
        osc.stop(t0 + at + len + 0.02);
      }
    } catch { /* no audio here: silence */ }
  }
}

/** The sound for a game going from state `a` to state `b` (the same game), if any: the end of
 * the game, a check, a capture or a move (an action submitted, or a move tried). */
/** @param {any} a @param {any} b @returns {string | null} */
export function soundOf(a, b) {
  if (!a || a.id !== b.id) return null;
  const over = (/** @type {any} */ s) => !!s.result && s.result !== '*';
  if (!over(a) && over(b)) return 'end';
  const moved = b.action_count > a.action_count ? b.last_action
    : b.pending.length > a.pending.length ? b.pending.slice(a.pending.length) : null;
  if (!moved || !moved.length) return null;
  if (b.check) return 'check';
  // This page's own moves, submitted: they sounded when they were tried.
  if (b.action_count > a.action_count && a.pending.length === b.last_action.length && a.pending.length > 0) return null;
  return moved.some((/** @type {{capture?: string}} */ m) => m.capture) ? 'capture' : 'move';
}
