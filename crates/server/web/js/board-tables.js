// The backgammon / Never-Finishing board in SVG: 24 points, checkers (a count on tall
// stacks), trapped checkers under their trappers, the bar, borne-off trays, dice, the cube,
// point numbers from the bottom player's side, the last move as arrows (and a hint's best
// play as green dashed ones), and the highlights of the move being built. Points are keyed
// by White's numbers; 'bar-white', 'off-black'... name the bar and the trays.

import { s, clickable, cap, narrowBoard } from './dom.js';

/**
 * The board's geometry in viewBox units. The wide layout keeps a margin for the cube on the
 * left and the borne-off trays on the right. The compact one (phones: `narrowBoard()`) gives
 * the twelve points of a row nearly all the width, so that each is at least 28 px wide on a
 * 390 px screen: the trays become strips above and below the home boards, the cube sits in
 * its owner's strip (centred: on the bar).
 */
export function layout(compact) {
  const c = !!compact;
  const LEFT = c ? 3 : 54, PT = 40, BAR_W = c ? 38 : 50;
  const BAR_X = LEFT + 6 * PT, RIGHT = BAR_X + BAR_W;
  const STRIP = c ? 58 : 0; // the compact trays' height: over 40 px on a 390 px phone
  const TOP = STRIP + 20, LEN = 200, MID = c ? 80 : 100;
  const BOTTOM = TOP + LEN + MID + LEN; // bottom edge of the bottom points
  const W = c ? RIGHT + 6 * PT + LEFT : 690, H = BOTTOM + 20 + STRIP;
  const TRAY_X = c ? RIGHT : RIGHT + 6 * PT + 14, TRAY_W = c ? 6 * PT : 66;
  return { compact: c, W, H, LEFT, PT, BAR_X, BAR_W, RIGHT, TRAY_X, TRAY_W, TOP, LEN, MID, BOTTOM, STRIP, MIDY: TOP + LEN + MID / 2 };
}

const R = 18.5, STEP = 37, SHOWN = 5;

/** Centre x and base y of a point numbered `n` from the bottom player's side; `up` when it grows upward. */
function pointGeom(n, L) {
  const { LEFT, PT, RIGHT, TOP, BOTTOM } = L;
  if (n <= 6) return { x: RIGHT + 6 * PT - PT / 2 - (n - 1) * PT, base: BOTTOM, dir: -1 };
  if (n <= 12) return { x: LEFT + 6 * PT - PT / 2 - (n - 7) * PT, base: BOTTOM, dir: -1 };
  if (n <= 18) return { x: LEFT + PT / 2 + (n - 13) * PT, base: TOP, dir: 1 };
  return { x: RIGHT + PT / 2 + (n - 19) * PT, base: TOP, dir: 1 };
}

/** Where a borne-off checker `slot` (0 first) of the lower or upper tray is drawn, as a slab. */
function slabSpot(L, lower, slot) {
  if (L.compact) {
    // a row of upright slabs along the strip, from the outer end inward
    // (fifteen take 150 units: the strip's count stays clear at its inner end)
    const x = L.TRAY_X + L.TRAY_W - 14 - slot * 10;
    return { x, y: lower ? L.H - L.STRIP + 6 : 6, w: 8, h: L.STRIP - 12 };
  }
  const y = lower ? L.BOTTOM - 8 - slot * 12 - 10 : L.TOP + 8 + slot * 12;
  return { x: L.TRAY_X + 8, y, w: L.TRAY_W - 16, h: 10 };
}

/** The tray of the lower or upper player: its rectangle (the tap and drop target). */
function trayRect(L, lower) {
  if (L.compact) return { x: L.TRAY_X, y: lower ? L.H - L.STRIP : 0, w: L.TRAY_W, h: L.STRIP };
  return { x: L.TRAY_X, y: lower ? L.BOTTOM - L.LEN : L.TOP, w: L.TRAY_W, h: L.LEN };
}

/**
 * Where a checker is drawn (viewBox units): `key` a White point number ('13'), 'bar-white' or
 * 'off-black'; `slot` its place in the stack from the base (0 first); `bottom` the player at
 * the bottom; `homeLeft` the mirrored board. For animating moves (js/animation.js).
 */
export function checkerSpot(key, slot, bottom, homeLeft = false, compact = narrowBoard()) {
  const L = layout(compact);
  const { BAR_X, BAR_W, MIDY, W } = L;
  let x, y;
  const m = /^(bar|off)-(white|black)$/.exec(key);
  if (m) {
    const lower = m[2] === bottom;
    if (m[1] === 'bar') {
      x = BAR_X + BAR_W / 2;
      y = (lower ? MIDY + 40 : MIDY - 40) + (lower ? 1 : -1) * Math.min(slot, 2) * STEP;
    } else {
      const slab = slabSpot(L, lower, Math.min(slot, 14));
      x = slab.x + slab.w / 2;
      y = slab.y + slab.h / 2;
    }
  } else {
    const w = Number(key);
    const g = pointGeom(bottom === 'white' ? w : 25 - w, L);
    x = g.x;
    y = g.base + g.dir * (R + 1 + Math.min(slot, SHOWN - 1) * STEP);
  }
  return { x: homeLeft ? W - x : x, y, r: R };
}

/**
 * The board with its home on the left: everything mirrored left to right (the trays go to
 * the left, the cube to the right), each text mirrored back about its own x so that it reads
 * normally. Clicks, labels and keyboard order are unchanged.
 */
function mirror(svg, W) {
  const g = s('g', { class: 'mirrored', transform: `matrix(-1 0 0 1 ${W} 0)` });
  for (const child of [...svg.childNodes]) if (child.nodeName !== 'defs') g.append(child);
  svg.append(g);
  for (const t of g.querySelectorAll('text')) {
    const x = Number(t.getAttribute('x') || 0);
    t.setAttribute('transform', `matrix(-1 0 0 1 ${2 * x} 0)`);
    const a = t.getAttribute('text-anchor');
    t.setAttribute('text-anchor', a === 'middle' ? 'middle' : a === 'end' ? 'start' : 'end');
  }
  svg.setAttribute('data-orientation', 'home-left');
}

function checker(x, y, color, extra = {}) {
  return s('circle', { cx: x, cy: y, r: R, class: `checker ${color}`, ...extra });
}

function die(x, y, value, used, size = 34) {
  const g = s('g', { class: 'die' + (used ? ' used' : ''), transform: `translate(${x - size / 2},${y - size / 2})` });
  g.append(s('rect', { width: size, height: size, rx: 6, class: 'die-face' }));
  const q = size / 4;
  const spots = {
    1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  }[value] || [];
  for (const [a, b] of spots) g.append(s('circle', { cx: a * q, cy: b * q, r: size / 11, class: 'pip' }));
  return g;
}

/**
 * Draws the board. `o`:
 *  board {points, trapped, bar, off}  White-numbered, White positive
 *  bottom 'white'|'black'             whose home is at the bottom right
 *  dice [a,b]|null, diceUsed [bool,..] (one per die shown), diceSide 'white'|'black'
 *  cube {value, owner}|null, crawford bool
 *  sources, dests: Set of keys; selected: key; last: {actor, segments:[{from,to}]}
 *  hint: {actor, segments} the best play of a hint, drawn as green dashed arrows
 *  onClick(key) when a key is clicked; interactive: whether clicks do anything; editing: the
 *  position editor's board, every point, bar and tray a button
 *  homeLeft: draw the board mirrored, the bottom player's home board on the left
 */
export function drawTables(o) {
  const L = layout(o.compact ?? narrowBoard());
  const { W, H, LEFT, PT, BAR_X, BAR_W, RIGHT, TRAY_X, TRAY_W, TOP, LEN, MID, BOTTOM } = L;
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`, class: 'board tables', 'data-testid': 'board',
    role: 'group', 'aria-label': o.label || 'Board', 'data-layout': L.compact ? 'compact' : 'wide',
  });
  const top = o.bottom === 'white' ? 'black' : 'white';
  const disp = w => (o.bottom === 'white' ? w : 25 - w); // White number -> bottom player's number
  // frame and halves
  svg.append(s('rect', { x: 0, y: 0, width: W, height: H, rx: 10, class: 'frame' }));
  svg.append(s('rect', { x: LEFT, y: TOP, width: 6 * PT, height: BOTTOM - TOP, class: 'felt' }));
  svg.append(s('rect', { x: RIGHT, y: TOP, width: 6 * PT, height: BOTTOM - TOP, class: 'felt' }));
  svg.append(s('rect', { x: BAR_X, y: TOP, width: BAR_W, height: BOTTOM - TOP, class: 'bar' }));
  for (const lower of [false, true]) {
    const t = trayRect(L, lower);
    svg.append(s('rect', { x: t.x, y: t.y, width: t.w, height: t.h, rx: L.compact ? 6 : 0, class: 'tray' }));
  }

  const hl = s('g', { class: 'highlights' });
  const pieces = s('g', { class: 'pieces' });
  const hits = s('g', { class: 'hits' });
  const key = k => String(k);
  const sources = o.sources || new Set(), dests = o.dests || new Set();

  for (let w = 1; w <= 24; w++) {
    const n = disp(w);
    const g = pointGeom(n, L);
    const tipY = g.base + g.dir * (LEN - 14);
    svg.append(s('polygon', {
      points: `${g.x - PT / 2 + 1},${g.base} ${g.x + PT / 2 - 1},${g.base} ${g.x},${tipY}`,
      class: 'point ' + (n % 2 ? 'odd' : 'even'),
    }));
    // the number, from the bottom player's side
    svg.append(s('text', { x: g.x, y: g.base === TOP ? TOP - 4 : BOTTOM + 16, class: 'label point-number', 'text-anchor': 'middle' }, String(n)));
    const v = o.board.points[w - 1];
    const trapped = (o.board.trapped || []).includes(w);
    const color = v > 0 ? 'white' : 'black';
    const count = Math.abs(v);
    let slot = 0;
    const cy = k => g.base + g.dir * (R + 1 + k * STEP);
    if (trapped) {
      const tc = color === 'white' ? 'black' : 'white';
      pieces.append(checker(g.x, cy(0), tc, { 'data-testid': `trapped-${w}`, class: `checker ${tc} trapped` }));
      pieces.append(s('path', { d: `M${g.x - 9},${cy(0) - 9} L${g.x + 9},${cy(0) + 9} M${g.x + 9},${cy(0) - 9} L${g.x - 9},${cy(0) + 9}`, class: 'trap-mark' }));
      slot = 1;
    }
    const shown = Math.min(count, SHOWN - slot);
    for (let k = 0; k < shown; k++) {
      const isTop = k === shown - 1;
      const c = checker(g.x, cy(slot + k), color);
      if (isTop && o.selected === key(w)) c.classList.add('selected');
      pieces.append(c);
      if (isTop && count > shown) {
        pieces.append(s('text', { x: g.x, y: cy(slot + k) + 5, class: `count on-${color}`, 'text-anchor': 'middle' }, String(count)));
      }
    }
    if (dests.has(key(w))) {
      hl.append(s('polygon', {
        points: `${g.x - PT / 2 + 1},${g.base} ${g.x + PT / 2 - 1},${g.base} ${g.x},${tipY}`, class: 'dest-glow',
      }));
      hl.append(s('circle', { cx: g.x, cy: cy(Math.min(count + slot, SHOWN - 1)), r: 8, class: 'dest-dot' }));
    }
    if (sources.has(key(w))) {
      hl.append(s('rect', { x: g.x - PT / 2 + 2, y: Math.min(g.base, tipY), width: PT - 4, height: LEN - 14, class: 'source-box' }));
    }
    const describe = `point ${n}` + (o.bottom === 'black' ? ` (White's ${w})` : '') + ': ' +
      (count ? `${count} ${color}` : 'empty') + (trapped ? `, trapping one ${color === 'white' ? 'black' : 'white'}` : '');
    hits.append(hitRect(o, key(w), g.x - PT / 2, g.base === TOP ? TOP : BOTTOM - LEN, PT, LEN, describe, `point-${w}`));
  }

  // the bar: the bottom player's checkers in the lower half, the top player's in the upper
  for (const [c, lower] of [[o.bottom, true], [top, false]]) {
    const n = o.board.bar[c];
    const x = BAR_X + BAR_W / 2;
    const y0 = lower ? L.MIDY + 40 : L.MIDY - 40;
    const dir = lower ? 1 : -1;
    for (let k = 0; k < Math.min(n, 3); k++) {
      const ch = checker(x, y0 + dir * k * STEP, c);
      if (k === Math.min(n, 3) - 1 && o.selected === `bar-${c}`) ch.classList.add('selected');
      pieces.append(ch);
    }
    if (n > 3) pieces.append(s('text', { x, y: y0 + dir * 2 * STEP + 5, class: `count on-${c}`, 'text-anchor': 'middle' }, String(n)));
    // the bar's half: from the middle to the lower or upper edge
    const [barY, barH] = lower ? [L.MIDY, BOTTOM - L.MIDY] : [TOP, L.MIDY - TOP];
    if (sources.has(`bar-${c}`)) hl.append(s('rect', { x: BAR_X + 3, y: barY, width: BAR_W - 6, height: barH, class: 'source-box' }));
    hits.append(hitRect(o, `bar-${c}`, BAR_X, barY, BAR_W, barH,
      `${c}'s bar: ${n} checker${n === 1 ? '' : 's'}`, `bar-${c}`));
  }

  // borne-off trays: the bottom player's below, the top player's above
  for (const [c, lower] of [[o.bottom, true], [top, false]]) {
    const n = o.board.off[c];
    for (let k = 0; k < n; k++) {
      const slab = slabSpot(L, lower, k);
      pieces.append(s('rect', { x: slab.x, y: slab.y, width: slab.w, height: slab.h, rx: 3, class: `slab ${c}` }));
    }
    const t = trayRect(L, lower);
    if (L.compact) svg.append(s('text', { x: TRAY_X + 6, y: t.y + t.h / 2 + 5, class: 'label' }, `off ${n}`));
    else svg.append(s('text', { x: TRAY_X + TRAY_W / 2, y: lower ? BOTTOM + 15 : TOP - 6, class: 'label', 'text-anchor': 'middle' }, `off ${n}`));
    if (dests.has(`off-${c}`)) hl.append(s('rect', { x: t.x, y: t.y, width: t.w, height: t.h, class: 'dest-glow' }));
    hits.append(hitRect(o, `off-${c}`, t.x, t.y, t.w, t.h, `${c}'s borne-off tray: ${n}`, `off-${c}`));
  }

  // dice: in the half of whoever rolled them
  if (o.dice) {
    const right = o.diceSide === o.bottom;
    const cx = right ? RIGHT + 3 * PT : LEFT + 3 * PT;
    const cy = L.MIDY;
    const faces = o.dice[0] === o.dice[1] ? [o.dice[0], o.dice[0], o.dice[0], o.dice[0]] : o.dice;
    const gap = 42;
    const g = s('g', { 'data-testid': 'dice', 'data-side': o.diceSide, 'data-played': o.diceUsed && o.diceUsed.length && o.diceUsed.every(Boolean) ? 'true' : null, 'aria-label': `dice ${o.dice.join('-')}${o.diceUsed && o.diceUsed.length && o.diceUsed.every(Boolean) ? ', played' : ''}` });
    // an invisible target behind the dice, 88 units high: over 40 px even on a 390 px phone
    const span = (faces.length - 1) * gap + 58;
    g.append(s('rect', { x: cx - span / 2, y: cy - 44, width: span, height: 88, rx: 8, class: 'dice-hit' }));
    faces.forEach((v, i) => {
      g.append(die(cx + (i - (faces.length - 1) / 2) * gap, cy, v, o.diceUsed && o.diceUsed[i]));
    });
    // tapping the dice confirms the move built (or rolls): o.diceAction {label, run}
    if (o.diceAction) {
      clickable(g, `${g.getAttribute('aria-label')}: ${o.diceAction.label}`, o.diceAction.run);
      g.setAttribute('data-action', o.diceAction.label.split(' ')[0]);
    } else g.setAttribute('role', 'img');
    svg.append(g);
  }

  // a double on offer: the cube turned to its new value, in the middle of the board (the
  // half without dice), until the taker takes or drops (o.offer {value, by, to}); the margin
  // keeps no cube meanwhile. A mirrored board moves it with everything else.
  if (o.cube && o.offer) {
    const x = (o.dice && o.diceSide === o.bottom ? LEFT : RIGHT) + 3 * PT - 22;
    const y = L.MIDY - 22;
    const g = s('g', { 'data-testid': 'cube', 'data-offer': String(o.offer.value), class: 'cube cube-offered', transform: `translate(${x},${y})` });
    g.append(s('rect', { width: 44, height: 44, rx: 7, class: 'cube-face' }));
    g.append(s('text', { x: 22, y: 30, 'text-anchor': 'middle', class: 'cube-value' }, String(o.offer.value)));
    g.append(s('title', {}, `${o.offer.by} doubles to ${o.offer.value}; ${o.offer.to} to take or drop`));
    svg.append(g);
  } else if (o.cube) {
    // the cube: centred in the left margin, or on its owner's side (compact: in its owner's
    // strip, or on the bar while centred)
    let x = LEFT / 2 - 20, y = o.cube.owner === o.bottom ? BOTTOM - 24 : o.cube.owner ? TOP + 24 : L.MIDY;
    let size = 40;
    if (L.compact) {
      size = 34;
      x = o.cube.owner ? BAR_X - size - 4 : BAR_X + BAR_W / 2 - size / 2;
      y = o.cube.owner === o.bottom ? H - L.STRIP / 2 : o.cube.owner ? L.STRIP / 2 : L.MIDY;
    }
    const g = s('g', { 'data-testid': 'cube', class: 'cube', transform: `translate(${x},${y - size / 2})` });
    g.append(s('rect', { width: size, height: size, rx: 6, class: 'cube-face' }));
    g.append(s('text', { x: size / 2, y: size / 2 + 7, 'text-anchor': 'middle', class: 'cube-value' }, String(o.cube.owner ? o.cube.value : (o.cube.value === 1 ? 64 : o.cube.value))));
    g.append(s('title', {}, o.cube.owner ? `cube at ${o.cube.value}, owned by ${o.cube.owner}` : `cube at ${o.cube.value}, centred`));
    svg.append(g);
  }
  if (o.crawford) {
    // (compact: at the bar's end of the lower strip, clear of the side's name)
    const [cx, cy, anchor] = L.compact ? [BAR_X - 8, H - L.STRIP / 2 + 5, 'end'] : [LEFT / 2, L.MIDY + 45, 'middle'];
    svg.append(s('text', { x: cx, y: cy, 'text-anchor': anchor, class: 'crawford', 'data-testid': 'crawford' }, L.compact ? 'Crawford' : 'CRAW'));
  }

  // the last move, and the hint's best play, as arrows
  const spot = (w, actor, isFrom) => {
    if (w === 25) return { x: BAR_X + BAR_W / 2, y: L.MIDY + (actor === o.bottom ? 40 : -40) };
    if (w === 0) {
      const t = trayRect(L, actor === o.bottom);
      return L.compact ? { x: t.x + t.w / 2, y: t.y + t.h / 2 } : { x: TRAY_X + TRAY_W / 2, y: actor === o.bottom ? BOTTOM - 60 : TOP + 60 };
    }
    const n = disp(w);
    const p = pointGeom(n, L);
    return { x: p.x, y: p.base + p.dir * (isFrom ? 30 : 60) };
  };
  const arrows = (move, cls, testid, marker) => {
    const g = s('g', { class: cls, 'data-testid': testid });
    for (const seg of move.segments) {
      const a = spot(seg.from, move.actor, true), b = spot(seg.to, move.actor, false);
      g.append(s('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'arrow', 'marker-end': `url(#${marker})` }));
    }
    return g;
  };
  const layers = [pieces, hl];
  const markers = [];
  if (o.last && o.last.segments.length) {
    layers.push(arrows(o.last, 'last-move', 'last-move', 'arrowhead'));
    markers.push(s('marker', { id: 'arrowhead', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
      s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' })));
  }
  if (o.hint && o.hint.segments.length) {
    layers.push(arrows(o.hint, 'hint-move', 'hint-move', 'hintarrowhead'));
    markers.push(s('marker', { id: 'hintarrowhead', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
      s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead hint' })));
  }
  if (markers.length) svg.append(s('defs', {}, ...markers));
  svg.append(...layers, hits);
  // whose side is where
  const [lowY, highY] = L.compact ? [H - L.STRIP / 2 + 5, L.STRIP / 2 + 5] : [BOTTOM + 15, TOP - 6];
  svg.append(s('text', { x: 6, y: lowY, class: 'label side' }, cap(o.bottom)));
  svg.append(s('text', { x: 6, y: highY, class: 'label side' }, cap(top)));
  if (o.homeLeft) mirror(svg, W);
  else svg.setAttribute('data-orientation', 'home-right');
  return svg;
}

function hitRect(o, key, x, y, w, h, describe, testid) {
  const src = o.sources && o.sources.has(key), dst = o.dests && o.dests.has(key);
  const r = s('rect', { x, y, width: w, height: h, class: 'hit', 'data-testid': testid, 'data-key': key });
  if (src) r.setAttribute('data-source', '1');
  if (dst) r.setAttribute('data-dest', '1');
  if (o.selected === key) r.setAttribute('data-selected', '1');
  if (o.onClick) {
    const what = o.editing ? ', add or remove a checker' : dst ? ', move here' : src ? ', can move' : '';
    clickable(r, describe + what, () => o.onClick(key));
    if (!o.editing && !src && !dst && o.selected !== key) r.setAttribute('tabindex', '-1');
  } else {
    r.setAttribute('role', 'img'); // read-only (replays): a described picture
    r.setAttribute('aria-label', describe);
  }
  return r;
}
