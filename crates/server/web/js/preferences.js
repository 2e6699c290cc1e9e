// The player's preferences: auto-roll, auto-confirm of the only legal play, auto-pass, the
// "Your turn" signals (the tab's title, on by default; a tone, off by default), the
// animation speed of the opponent's moves, the board's orientation (backgammon and
// Never-Finishing: home board on the right or on the left) and the colour theme.
//
// Stored on the server for every logged-in player (`GET` / `PUT /api/me/preferences`), and in
// this browser's localStorage (`tabula.preferences`) for everyone: a visitor has only that,
// a guest reads it and also sends each change to the server, and a registered player reads
// the server's copy (the local one when the server cannot answer, e.g. an older server
// without the endpoint: silently, no error shown). Also the `/preferences` page.

import { api, get as apiGet } from './api.js';
import { h, clear } from './dom.js';
import { drawTables } from './board-tables.js';

const KEY = 'tabula.preferences';

export const DEFAULTS = Object.freeze({
  auto_roll: false,
  auto_confirm: false,
  auto_pass: false,
  animation: 'normal',
  orientation: 'home-right',
  colours: 'classic',
  turn_title: true,
  turn_sound: false,
});

export const CHOICES = Object.freeze({
  animation: [['off', 'Off'], ['fast', 'Fast'], ['normal', 'Normal'], ['slow', 'Slow']],
  orientation: [['home-right', 'Home board on the right'], ['home-left', 'Home board on the left']],
  colours: [['classic', 'Classic (wood and green felt)'], ['contrast', 'High contrast'], ['blue', 'Blue']],
});

/** Milliseconds per checker step of an animated move, by speed. */
const STEP_MS = { off: 0, fast: 100, normal: 220, slow: 450 };

let current = { ...DEFAULTS, ...clean(readLocal()) };
let loaded = null; // {who, promise}: the load made for this player (or visitor)
let serverMissing = false; // the server has no preferences endpoint (404): stop asking
let saves = 0; // a load that answers after a save must not undo it
applyColours();

/** Only known keys with allowed values; anything else is dropped. */
function clean(o) {
  const out = {};
  if (!o || typeof o !== 'object') return out;
  for (const k of ['auto_roll', 'auto_confirm', 'auto_pass', 'turn_title', 'turn_sound']) if (typeof o[k] === 'boolean') out[k] = o[k];
  for (const k of ['animation', 'orientation', 'colours']) if (CHOICES[k].some(([v]) => v === o[k])) out[k] = o[k];
  return out;
}

function readLocal() {
  try { return JSON.parse(localStorage.getItem(KEY) || 'null'); } catch (e) { return null; }
}

function writeLocal(p) {
  try { localStorage.setItem(KEY, JSON.stringify(p)); } catch (e) { /* private mode: kept for this page only */ }
}

function who(app) {
  return app && app.me ? `${app.me.kind}:${app.me.id}` : 'visitor';
}

/** Sets the colour theme on the document (`<html data-colours=...>`; the rules are in style.css). */
export function applyColours() {
  document.documentElement.setAttribute('data-colours', current.colours);
}

/**
 * Loads the preferences of whoever is logged in (once per player; `fresh` asks again).
 * Resolves to the preferences; never rejects.
 */
export function load(app, fresh = false) {
  const w = who(app);
  if (loaded && loaded.who === w && !fresh) return loaded.promise;
  const promise = (async () => {
    const local = { ...DEFAULTS, ...clean(readLocal()) };
    const before = saves;
    current = local;
    if (app && app.me && app.me.kind !== 'guest' && !serverMissing) {
      try {
        const fromServer = { ...DEFAULTS, ...clean(await apiGet('/api/me/preferences')) };
        if (saves === before) {
          current = fromServer;
          writeLocal(current);
        }
      } catch (e) {
        if (e.status === 404 || e.status === 405) serverMissing = true;
        // the server cannot say: this browser's copy stands
      }
    }
    applyColours();
    return { ...current };
  })();
  loaded = { who: w, promise };
  return promise;
}

/**
 * Saves the preferences: in this browser, and on the server for a logged-in player.
 * Resolves to {prefs, where: 'server' | 'browser', error}.
 */
export async function save(app, prefs) {
  saves++;
  current = { ...DEFAULTS, ...current, ...clean(prefs) };
  writeLocal(current);
  applyColours();
  loaded = { who: who(app), promise: Promise.resolve({ ...current }) };
  if (!app || !app.me || serverMissing) return { prefs: { ...current }, where: 'browser' };
  const body = {};
  for (const k of Object.keys(DEFAULTS)) body[k] = current[k];
  try {
    const stored = await api('PUT', '/api/me/preferences', body);
    if (app.me.kind !== 'guest') {
      current = { ...DEFAULTS, ...clean(stored) };
      writeLocal(current);
      applyColours();
      loaded = { who: who(app), promise: Promise.resolve({ ...current }) };
    }
    return { prefs: { ...current }, where: 'server' };
  } catch (e) {
    if (e.status === 404 || e.status === 405) { serverMissing = true; return { prefs: { ...current }, where: 'browser' }; }
    return { prefs: { ...current }, where: 'browser', error: e.message };
  }
}

/** One preference, as last loaded or saved. */
export function get(key) {
  return current[key];
}

/** All preferences (a copy). */
export function all() {
  return { ...current };
}

/** Whether the system asks for reduced motion (then nothing is animated). */
export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

/** Milliseconds per step of an animated move; 0 when animation is off or reduced motion is asked for. */
export function stepMs() {
  if (reducedMotion()) return 0;
  return STEP_MS[current.animation] ?? STEP_MS.normal;
}

// ---- the /preferences page --------------------------------------------------------------

function field(label, input, help) {
  return h('label', { class: 'field' }, h('span', {}, label), input, help ? h('small', { class: 'muted' }, help) : null);
}

function check(label, input, help) {
  return h('div', { class: 'pref-check' }, h('label', {}, input, ' ', label), help ? h('small', { class: 'muted' }, help) : null);
}

const START = { points: [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2], trapped: [], bar: { white: 0, black: 0 }, off: { white: 0, black: 0 } };

export async function preferencesPage(app, main) {
  document.title = 'Preferences — Tabula';
  const root = clear(main);
  root.append(h('h1', {}, 'Preferences'), h('p', { class: 'muted' }, 'Loading…'));
  const p = await load(app, true);
  const box = (k, testid) => h('input', { type: 'checkbox', checked: p[k], 'data-testid': testid, name: k });
  const sel = (k, testid) => h('select', { 'data-testid': testid, name: k },
    CHOICES[k].map(([v, t]) => h('option', { value: v, selected: v === p[k] }, t)));
  const autoRoll = box('auto_roll', 'pref-auto-roll');
  const autoConfirm = box('auto_confirm', 'pref-auto-confirm');
  const autoPass = box('auto_pass', 'pref-auto-pass');
  const turnTitle = box('turn_title', 'pref-turn-title');
  const turnSound = box('turn_sound', 'pref-turn-sound');
  const animation = sel('animation', 'pref-animation');
  const orientation = sel('orientation', 'pref-orientation');
  const colours = sel('colours', 'pref-colours');
  const msg = h('p', { class: 'message', role: 'status', 'data-testid': 'pref-message' });
  const preview = h('div', { class: 'pref-preview', 'data-testid': 'pref-preview' });
  const values = () => ({
    auto_roll: autoRoll.checked, auto_confirm: autoConfirm.checked, auto_pass: autoPass.checked,
    turn_title: turnTitle.checked, turn_sound: turnSound.checked,
    animation: animation.value, orientation: orientation.value, colours: colours.value,
  });
  const drawPreview = () => {
    const v = values();
    clear(preview).append(drawTables({
      board: START, bottom: 'white', dice: [5, 2], diceSide: 'white', cube: { value: 1, owner: null },
      homeLeft: v.orientation === 'home-left', label: 'Preview of the backgammon board with these settings',
    }));
    preview.firstChild.setAttribute('data-testid', 'pref-preview-board');
    preview.firstChild.setAttribute('aria-hidden', 'true'); // a picture of the choices, which the fields already say
    preview.setAttribute('data-colours', v.colours);
  };
  for (const el of [orientation, colours]) el.addEventListener('input', drawPreview);
  const where = app.me
    ? (app.me.kind === 'guest' ? 'in this browser (and with your guest player on the server)' : 'with your account on the server, so they follow you to any browser')
    : 'in this browser only (log in to keep them with an account)';
  const form = h('form', { class: 'card prefs', 'data-testid': 'pref-form', onsubmit: async e => {
    e.preventDefault();
    msg.className = 'message';
    msg.textContent = 'Saving…';
    const r = await save(app, values());
    if (r.error) {
      msg.className = 'message error';
      msg.textContent = `Saved in this browser; the server refused them: ${r.error}`;
    } else {
      msg.className = 'message ok';
      msg.textContent = r.where === 'server' ? 'Saved.' : 'Saved in this browser.';
    }
    msg.setAttribute('data-where', r.where);
  } },
  h('h2', {}, 'Playing'),
  check('Roll automatically', autoRoll, 'when it is your turn to roll and you cannot double (with the cube available, you still choose between Double and Roll)'),
  check('Play the only legal move at once', autoConfirm, 'when exactly one legal play exists, it is played without Confirm'),
  check('Pass automatically', autoPass, 'when passing is the only thing you can do'),
  h('h2', {}, 'Your turn'),
  check('Say “Your move” in the tab’s title', turnTitle, 'while it is your turn, so that you see it from another tab'),
  check('Play a sound', turnSound, 'a short tone when your turn begins, and another when 10 seconds are left on your clock'),
  h('h2', {}, 'The board'),
  h('div', { class: 'fields' },
    field('Animation of the opponent’s moves', animation, 'off also when your system asks for reduced motion'),
    field('Orientation (backgammon, Never-Finishing)', orientation),
    field('Colours', colours)),
  preview,
  h('p', { class: 'small muted' }, `Your preferences are kept ${where}.`),
  h('button', { type: 'submit', class: 'primary', 'data-testid': 'pref-save' }, 'Save'), msg);
  clear(root).append(h('h1', {}, 'Preferences'), form);
  drawPreview();
  return null;
}
