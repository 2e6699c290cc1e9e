// The Grasshopper (Halma) board in SVG: 8x8 or 10x10 squares, both camps shaded, pieces,
// the last move's jump path, and the highlights of the move being chosen. Squares are keyed
// by name (`c3`); files a.. from White's left, ranks 1.. from White's side.

import { s, clickable } from './dom.js';

const SQ = 50, M = 26;

export const squareName = (f, r) => String.fromCharCode(97 + f) + (r + 1);
export function squareCoords(name) {
  return { f: name.charCodeAt(0) - 97, r: Number(name.slice(1)) - 1 };
}

/** The centre of square `name` (viewBox units) on a board of `size` with `bottom` at the bottom, and a piece's radius. */
export function squareCentre(name, size, bottom) {
  const { f, r } = squareCoords(name);
  const flip = bottom === 'black';
  return { x: M + (flip ? size - 1 - f : f) * SQ + SQ / 2, y: M + (flip ? r : size - 1 - r) * SQ + SQ / 2, r: SQ * 0.36 };
}

/** Whether square (f, r) is in White's camp (`white`) or Black's (`black`) on a board of `size`. */
export function camp(f, r, size) {
  const k = size === 8 ? 3 : 4;
  if (f + r <= k) return 'white';
  if ((size - 1 - f) + (size - 1 - r) <= k) return 'black';
  return null;
}

/**
 * `o`: view (the halma view), bottom ('white'|'black'), sources/dests (Sets of square
 * names), selected, last {actor, path:[names]}, onClick(name).
 */
export function drawHalma(o) {
  const v = o.view, n = v.size;
  const side = n * SQ + 2 * M;
  const svg = s('svg', { viewBox: `0 0 ${side} ${side}`, class: 'board halma', 'data-testid': 'board', role: 'group', 'aria-label': o.label || 'Halma board' });
  svg.append(s('rect', { x: 0, y: 0, width: side, height: side, rx: 10, class: 'frame' }));
  const flip = o.bottom === 'black';
  const pos = (f, r) => ({
    x: M + (flip ? n - 1 - f : f) * SQ,
    y: M + (flip ? r : n - 1 - r) * SQ,
  });
  const at = {};
  for (const c of ['white', 'black']) for (const sq of v.pieces[c]) at[sq] = c;
  const sources = o.sources || new Set(), dests = o.dests || new Set();
  const hl = s('g'), pieces = s('g'), hits = s('g');
  for (let f = 0; f < n; f++) {
    for (let r = 0; r < n; r++) {
      const { x, y } = pos(f, r);
      const name = squareName(f, r);
      const cp = camp(f, r, n);
      svg.append(s('rect', { x, y, width: SQ, height: SQ, class: `square ${(f + r) % 2 ? 'light' : 'dark'}${cp ? ' camp-' + cp : ''}` }));
      if (at[name]) {
        const c = s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.36, class: `checker ${at[name]}` });
        if (o.selected === name) c.classList.add('selected');
        pieces.append(c);
      }
      if (dests.has(name)) hl.append(s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: 10, class: 'dest-dot' }));
      if (sources.has(name)) hl.append(s('rect', { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: 'source-box' }));
      const describe = `${name}${cp ? ` (${cp}'s camp)` : ''}: ${at[name] ? at[name] + ' piece' : 'empty'}`;
      const rect = s('rect', { x, y, width: SQ, height: SQ, class: 'hit', 'data-testid': `sq-${name}`, 'data-key': name });
      if (sources.has(name)) rect.setAttribute('data-source', '1');
      if (dests.has(name)) rect.setAttribute('data-dest', '1');
      if (o.onClick) {
        clickable(rect, describe + (dests.has(name) ? ', move here' : sources.has(name) ? ', can move' : ''), () => o.onClick(name));
        if (!sources.has(name) && !dests.has(name) && o.selected !== name) rect.setAttribute('tabindex', '-1');
      } else { rect.setAttribute('role', 'img'); rect.setAttribute('aria-label', describe); } // read-only: a described picture
      hits.append(rect);
    }
  }
  // coordinates
  for (let i = 0; i < n; i++) {
    const { x } = pos(i, 0), { y } = pos(0, i);
    svg.append(s('text', { x: x + SQ / 2, y: side - 8, class: 'label', 'text-anchor': 'middle' }, String.fromCharCode(97 + i)));
    svg.append(s('text', { x: M / 2, y: y + SQ / 2 + 5, class: 'label', 'text-anchor': 'middle' }, String(i + 1)));
  }
  if (o.last && o.last.path.length >= 2) {
    const pts = o.last.path.map(name => {
      const { f, r } = squareCoords(name);
      const p = pos(f, r);
      return `${p.x + SQ / 2},${p.y + SQ / 2}`;
    });
    const g = s('g', { class: 'last-move', 'data-testid': 'last-move' });
    g.append(s('polyline', { points: pts.join(' '), class: 'path', 'marker-end': 'url(#halma-arrow)' }));
    for (const p of pts.slice(1, -1)) {
      const [x, y] = p.split(',');
      g.append(s('circle', { cx: x, cy: y, r: 5, class: 'path-stop' }));
    }
    svg.append(s('defs', {}, s('marker', { id: 'halma-arrow', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse' },
      s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }))));
    svg.append(pieces, g, hl, hits);
  } else svg.append(pieces, hl, hits);
  return svg;
}

/** A legal move text's start and end squares (`c3:e5:g7`, `c3-d4`), or null. */
export function moveEnds(text) {
  if (!/^[a-j]\d{1,2}([:-][a-j]\d{1,2})+$/.test(text)) return null;
  const parts = text.split(/[:-]/);
  return { from: parts[0], to: parts[parts.length - 1], path: parts };
}

/** The legal action a typed text names (`c3-e5`, a path `c3:e5:g7`, `pass`...), or an error. */
export function matchTypedHalma(legal, typed) {
  const t = typed.trim().toLowerCase();
  if (!t) return { error: 'type a move, like c3-d4 or c3:e5:g7' };
  if (legal.includes(t)) return { text: t };
  const ends = moveEnds(t);
  if (ends) {
    const found = legal.find(l => {
      const e = moveEnds(l);
      return e && e.from === ends.from && e.to === ends.to;
    });
    // a move is its start and end squares: the server's own text for them is sent
    if (found) return { text: found };
  }
  return { error: `"${typed.trim()}" is not legal now` };
}
