// The Grasshopper board (the dice-free race on the backgammon board) in SVG. Both players
// move from 1 to 24 along one track: A1..A6 and B1..B6 along the bottom, left to right;
// C1..C6 and D1..D6 along the top, right to left. Walls (two checkers) are drawn stacked.
// The hands sit at the bottom left, where checkers enter; the tray for bearing off and
// discarding at the top left, next to D.

import { s, clickable, cap, narrowBoard } from './dom.js';

const R = 18.5, STEP = 37;
const QUAD = ['A', 'B', 'C', 'D'];

export const label = n => QUAD[Math.floor((n - 1) / 6)] + (((n - 1) % 6) + 1);

/**
 * The board's geometry in viewBox units. The wide layout keeps a column on the left for the
 * hands (bottom) and the tray (top); the compact one (phones: `narrowBoard()`) gives the
 * points nearly all the width, at least 28 px each on a 390 px screen, with the tray as a
 * strip above the board and the two hands as a strip below it.
 */
export function layout(compact) {
  const c = !!compact;
  const LEFT = c ? 3 : 90, PT = 40, BAR_W = c ? 38 : 40;
  const BAR_X = LEFT + 6 * PT, RIGHT = BAR_X + BAR_W;
  const STRIP = c ? 58 : 0; // over 40 px on a 390 px phone
  const TOP = STRIP + 20, LEN = 200, MID = c ? 80 : 100, BOTTOM = TOP + LEN + MID + LEN;
  const W = RIGHT + 6 * PT + (c ? 3 : 12), H = BOTTOM + 20 + STRIP;
  return { compact: c, W, H, LEFT, PT, BAR_X, BAR_W, RIGHT, TOP, LEN, MID, BOTTOM, STRIP, MIDY: TOP + LEN + MID / 2 };
}

function geom(n, L) {
  const { LEFT, PT, RIGHT, TOP, BOTTOM } = L;
  const i = (n - 1) % 6;
  if (n <= 6) return { x: LEFT + PT / 2 + i * PT, base: BOTTOM, dir: -1 };
  if (n <= 12) return { x: RIGHT + PT / 2 + i * PT, base: BOTTOM, dir: -1 };
  if (n <= 18) return { x: RIGHT + 6 * PT - PT / 2 - i * PT, base: TOP, dir: 1 };
  return { x: LEFT + 6 * PT - PT / 2 - i * PT, base: TOP, dir: 1 };
}

/** The hand of `color` (0 White, 1 Black): its rectangle. */
function handRect(L, i) {
  if (L.compact) {
    const w = (L.W - 2 * L.LEFT - 4) / 2;
    return { x: L.LEFT + i * (w + 4), y: L.H - L.STRIP, w, h: L.STRIP };
  }
  return { x: 8 + i * 38, y: L.BOTTOM - L.LEN, w: 34, h: L.LEN };
}

/** The tray for bearing off and discarding. */
function offRect(L) {
  if (L.compact) return { x: L.LEFT, y: 0, w: L.W - 2 * L.LEFT, h: L.STRIP };
  return { x: 8, y: L.TOP, w: 72, h: L.LEN };
}

/** Checker `k` (0 first) of a pile in `rect` (a hand, or colour `i`'s half of the tray). */
function slabIn(L, rect, k, fromEnd) {
  if (L.compact) {
    // nine units apart: fifteen leave room for the pile's words at the other end
    const x = fromEnd ? rect.x + rect.w - 13 - k * 9 : rect.x + 6 + k * 9;
    return { x, y: rect.y + 6, w: 7, h: rect.h - 12 };
  }
  return { x: rect.x + 4, y: fromEnd ? rect.y + rect.h - 12 - k * 13 : rect.y + 4 + k * 13, w: rect.w - 8, h: 10 };
}

/** Colour `i`'s half of the tray (the borne-off walls of each colour are kept apart). */
function offHalf(L, i) {
  const t = offRect(L);
  if (L.compact) return { x: t.x + i * t.w / 2, y: t.y, w: t.w / 2, h: t.h };
  return { x: t.x + i * 34, y: t.y, w: 38, h: t.h };
}

/**
 * Where a checker is drawn (viewBox units): `key` a point '1'..'24' with `slot` its place in
 * the stack, 'hand-white' / 'hand-black' (the top of the hand's pile, `slot` checkers in it)
 * or 'off' (the tray, for `color`). For animating moves (js/animation.js).
 */
export function checkerSpot(key, slot, color, compact = narrowBoard()) {
  const L = layout(compact);
  const centre = r => ({ x: r.x + r.w / 2, y: r.y + r.h / 2, r: R });
  const i = color === 'black' ? 1 : 0;
  if (key === 'off') return centre(slabIn(L, offHalf(L, i), slot, L.compact && i === 1));
  const m = /^hand-(white|black)$/.exec(key);
  if (m) return centre(slabIn(L, handRect(L, m[1] === 'black' ? 1 : 0), Math.max(slot - 1, 0), true));
  const g = geom(Number(key), L);
  return { x: g.x, y: g.base + g.dir * (R + 1 + slot * STEP), r: R };
}

/**
 * `o`: view (the grasshopper view), sources/dests (Sets of keys: '1'..'24', 'hand-white',
 * 'hand-black', 'off'), selected, last {actor, from, to} (keys), onClick(key).
 */
export function drawGrasshopper(o) {
  const v = o.view;
  const L = layout(o.compact ?? narrowBoard());
  const { W, H, LEFT, PT, BAR_X, BAR_W, RIGHT, TOP, LEN, BOTTOM } = L;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'board grasshopper', 'data-testid': 'board', role: 'group', 'aria-label': o.label || 'Grasshopper board', 'data-layout': L.compact ? 'compact' : 'wide' });
  svg.append(s('rect', { x: 0, y: 0, width: W, height: H, rx: 10, class: 'frame' }));
  svg.append(s('rect', { x: LEFT, y: TOP, width: 6 * PT, height: BOTTOM - TOP, class: 'felt' }));
  svg.append(s('rect', { x: RIGHT, y: TOP, width: 6 * PT, height: BOTTOM - TOP, class: 'felt' }));
  svg.append(s('rect', { x: BAR_X, y: TOP, width: BAR_W, height: BOTTOM - TOP, class: 'bar' }));
  const sources = o.sources || new Set(), dests = o.dests || new Set();
  const pieces = s('g'), hl = s('g'), hits = s('g');

  // quadrant names in the middle band
  const my = L.MIDY;
  for (const [q, x, y] of [['A', LEFT + 3 * PT, my + 30], ['B', RIGHT + 3 * PT, my + 30], ['C', RIGHT + 3 * PT, my - 18], ['D', LEFT + 3 * PT, my - 18]]) {
    svg.append(s('text', { x, y, class: 'quadrant', 'text-anchor': 'middle' }, q));
  }
  svg.append(s('text', { x: RIGHT + 6 * PT - 4, y: my + 6, class: 'label', 'text-anchor': 'end' }, '↑ B6 → C1'));
  svg.append(s('text', { x: LEFT + 4, y: my + 6, class: 'label' }, 'D6 → off'));

  for (let n = 1; n <= 24; n++) {
    const g = geom(n, L);
    const tipY = g.base + g.dir * (LEN - 14);
    svg.append(s('polygon', { points: `${g.x - PT / 2 + 1},${g.base} ${g.x + PT / 2 - 1},${g.base} ${g.x},${tipY}`, class: 'point ' + (n % 2 ? 'odd' : 'even') }));
    svg.append(s('text', { x: g.x, y: g.base === TOP ? TOP - 6 : BOTTOM + 15, class: 'label', 'text-anchor': 'middle' }, label(n)));
    const cell = v.points[n - 1];
    const cy = k => g.base + g.dir * (R + 1 + k * STEP);
    if (cell) {
      for (let k = 0; k < cell.count; k++) {
        const c = s('circle', { cx: g.x, cy: cy(k), r: R, class: `checker ${cell.color}` + (cell.count === 2 ? ' wall' : '') });
        if (k === cell.count - 1 && o.selected === String(n)) c.classList.add('selected');
        pieces.append(c);
      }
    }
    if (o.last && (o.last.from === String(n) || o.last.to === String(n))) {
      hl.append(s('rect', { x: g.x - PT / 2 + 2, y: Math.min(g.base, tipY), width: PT - 4, height: LEN - 14, class: o.last.to === String(n) ? 'last-to' : 'last-from' }));
    }
    if (dests.has(String(n))) {
      hl.append(s('polygon', { points: `${g.x - PT / 2 + 1},${g.base} ${g.x + PT / 2 - 1},${g.base} ${g.x},${tipY}`, class: 'dest-glow' }));
      hl.append(s('circle', { cx: g.x, cy: cy(cell ? cell.count : 0), r: 8, class: 'dest-dot' }));
    }
    if (sources.has(String(n))) hl.append(s('rect', { x: g.x - PT / 2 + 2, y: Math.min(g.base, tipY), width: PT - 4, height: LEN - 14, class: 'source-box' }));
    const describe = `${label(n)} (point ${n}): ` + (cell ? (cell.count === 2 ? `${cell.color} wall` : `one ${cell.color}`) : 'vacant');
    hits.append(hit(o, String(n), g.x - PT / 2, g.base === TOP ? TOP : BOTTOM - LEN, PT, LEN, describe, `point-${n}`));
  }

  // the hands: bottom left (compact: a strip below the board)
  ['white', 'black'].forEach((c, i) => {
    const r = handRect(L, i);
    const n = v.hand[c];
    svg.append(s('rect', { x: r.x, y: r.y, width: r.w, height: r.h, rx: 4, class: 'tray' }));
    for (let k = 0; k < n; k++) {
      const slab = slabIn(L, r, k, true);
      pieces.append(s('rect', { x: slab.x, y: slab.y, width: slab.w, height: slab.h, rx: 3, class: `slab ${c}` }));
    }
    if (L.compact) svg.append(s('text', { x: r.x + 6, y: r.y + r.h / 2 + 5, class: 'label' }, `${cap(c)} ${n}`));
    else svg.append(s('text', { x: r.x + 17, y: BOTTOM + 15, class: 'label', 'text-anchor': 'middle' }, `${n}`));
    if (sources.has(`hand-${c}`)) hl.append(s('rect', { x: r.x, y: r.y, width: r.w, height: r.h, class: 'source-box' }));
    if (o.selected === `hand-${c}`) hl.append(s('rect', { x: r.x - 1, y: r.y - 1, width: r.w + 2, height: r.h + 2, class: 'selected-box' }));
    hits.append(hit(o, `hand-${c}`, r.x, r.y, r.w, r.h, `${c}'s hand: ${n} checker${n === 1 ? '' : 's'}`, `hand-${c}`));
  });
  if (!L.compact) svg.append(s('text', { x: 44, y: BOTTOM - LEN - 8, class: 'label', 'text-anchor': 'middle' }, 'in hand'));

  // the off tray, top left (compact: a strip above the board): borne off (walls) per colour
  const t = offRect(L);
  svg.append(s('rect', { x: t.x, y: t.y, width: t.w, height: t.h, rx: 4, class: 'tray' }));
  ['white', 'black'].forEach((c, i) => {
    const n = v.borne_off[c];
    for (let k = 0; k < n; k++) {
      // (compact: White's from the left end, Black's from the right, the count between)
      const slab = slabIn(L, offHalf(L, i), k, L.compact && i === 1);
      pieces.append(s('rect', { x: slab.x, y: slab.y, width: slab.w, height: slab.h, rx: 3, class: `slab ${c}` }));
    }
  });
  const offText = `off ${v.borne_off.white}·${v.borne_off.black}`;
  if (L.compact) svg.append(s('text', { x: t.x + t.w / 2, y: t.y + t.h / 2 + 5, class: 'label', 'text-anchor': 'middle' }, `borne off ${offText.slice(4)}`));
  else svg.append(s('text', { x: 44, y: TOP + LEN + 16, class: 'label', 'text-anchor': 'middle' }, offText));
  if (dests.has('off')) hl.append(s('rect', { x: t.x, y: t.y, width: t.w, height: t.h, class: 'dest-glow' }));
  if (o.last && o.last.to === 'off') hl.append(s('rect', { x: t.x, y: t.y, width: t.w, height: t.h, class: 'last-to' }));
  hits.append(hit(o, 'off', t.x, t.y, t.w, t.h, 'bear off or discard', 'off'));

  if (v.passed) {
    const passer = v.turn === 'white' ? 'black' : 'white';
    svg.append(s('text', { x: RIGHT + 3 * PT, y: my + 6, class: 'banner', 'text-anchor': 'middle', 'data-testid': 'passed' }, `${cap(passer)} passed`));
  }
  svg.append(pieces, hl, hits);
  return svg;
}

function hit(o, key, x, y, w, h, describe, testid) {
  const src = o.sources && o.sources.has(key), dst = o.dests && o.dests.has(key);
  const r = s('rect', { x, y, width: w, height: h, class: 'hit', 'data-testid': testid, 'data-key': key });
  if (src) r.setAttribute('data-source', '1');
  if (dst) r.setAttribute('data-dest', '1');
  if (o.onClick) {
    clickable(r, describe + (dst ? ', move here' : src ? ', can move' : ''), () => o.onClick(key));
    if (!src && !dst && o.selected !== key) r.setAttribute('tabindex', '-1');
  } else { r.setAttribute('role', 'img'); r.setAttribute('aria-label', describe); } // read-only: a described picture
  return r;
}

/** A legal action's source and destination keys, or null (pass). */
export function actionKeys(text, mover) {
  let m;
  if ((m = /^in (\d+)$/.exec(text))) return { from: `hand-${mover}`, to: m[1] };
  if ((m = /^(\d+)-(\d+)w?$/.exec(text))) return { from: m[1], to: m[2] };
  if ((m = /^(?:off|discard) (\d+)$/.exec(text))) return { from: m[1], to: 'off' };
  return null;
}

const POINT = '([abcd][1-6]|\\d{1,2})';
function pointNumber(t) {
  t = t.toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  return (t.charCodeAt(0) - 97) * 6 + Number(t[1]);
}

/** The legal action a typed text names (labels A1..D6 or numbers), or an error. */
export function matchTypedGrasshopper(legal, typed) {
  const t = typed.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!t) return { error: 'type a move, like in 3, 3-9, 9-15w, off 21' };
  let canon = null, m;
  if ((m = new RegExp(`^(?:in|enter) ${POINT}$`).exec(t))) canon = `in ${pointNumber(m[1])}`;
  else if ((m = new RegExp(`^${POINT}[-/]${POINT}(w?)$`).exec(t))) {
    const a = pointNumber(m[1]), b = pointNumber(m[2]);
    canon = `${a}-${b}${m[3]}`;
    if (!m[3] && legal.includes(`${a}-${b}w`)) canon = `${a}-${b}w`;
  } else if ((m = new RegExp(`^(off|discard) ${POINT}$`).exec(t))) canon = `${m[1]} ${pointNumber(m[2])}`;
  else canon = t;
  if (legal.includes(canon)) return { text: canon };
  return { error: `"${typed.trim()}" is not legal now` };
}
