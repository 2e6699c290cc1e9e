// Small helpers to build HTML and SVG without a framework.

const SVG = 'http://www.w3.org/2000/svg';

/** An HTML element: h('div', {class: 'x', onclick: f}, child, 'text', ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Makes an SVG element act as a button for mouse, touch and keyboard. */
export function clickable(el, label, onActivate) {
  el.setAttribute('role', 'button');
  el.setAttribute('tabindex', '0');
  el.setAttribute('aria-label', label);
  el.addEventListener('click', e => { e.preventDefault(); onActivate(); });
  el.addEventListener('keydown', e => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onActivate(); }
  });
  return el;
}

export const GAME_NAMES = {
  'backgammon': 'Backgammon',
  'never-finishing': 'Never-Finishing',
  'grasshopper': 'Grasshopper',
  'halma-grasshopper': 'Grasshopper (Halma)',
};

/**
 * Whether boards are drawn in their compact layout: a screen too narrow for the wide one to
 * give each point 28 px (phones). Outside a browser (unit tests), never.
 */
export function narrowBoard() {
  return typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia('(max-width: 600px)').matches;
}

export const cap = t => t ? t[0].toUpperCase() + t.slice(1) : t;
export const other = c => (c === 'white' ? 'black' : 'white');

/** A player's name as text; a guest's marked "(guest)" so that nobody takes a guest for the
 * registered user or bot of a similar name. */
export function playerName(p) {
  if (!p) return 'empty seat';
  return p.kind === 'guest' ? `${p.name} (guest)` : p.name;
}

export function playerLink(p) {
  if (!p) return h('span', { class: 'muted' }, 'empty seat');
  return h('a', { href: `/player/${p.id}`, 'data-link': true }, p.name, p.kind === 'bot' ? ' (bot)' : p.kind === 'guest' ? ' (guest)' : '');
}
