// The opponent's move, animated: when a move by someone else arrives over the WebSocket, the
// game page (js/game-page.js) shows it step by step before drawing the new position. Each
// frame is the board as it stands during one step, with the moving checker lifted off it and
// drawn as a "ghost" that glides from its origin to its destination:
//
// - backgammon and Never-Finishing: every checker step of the play in order (a chained move
//   `24/18*/13` is two steps), then, for a hit, the hit checker going to the bar;
// - Grasshopper: the checker from the hand, point or wall to its point or the tray;
// - Halma: the piece along its whole jump chain (`c3:e5:g7`), one hop after another.
//
// Frames are drawn by the boards' own drawing functions (without clicks), so they look like
// the board; the ghost moves by attribute changes on requestAnimationFrame, with a timer as a
// backstop (a hidden tab gets no frames). Anything unexpected (a play this code cannot read)
// gives no frames: the page then simply draws the new position.

import { s, clear } from './dom.js';
import * as T from './tables-logic.js';
import { drawTables, checkerSpot as tablesSpot } from './board-tables.js';
import { drawGrasshopper, actionKeys, checkerSpot as ghSpot } from './board-grasshopper.js';
import { drawHalma, moveEnds, squareCentre } from './board-halma.js';

const other = c => (c === 'white' ? 'black' : 'white');

/** The mover's board with one checker taken off `from` (a trapped opponent checker freed). */
function lift(b0, from) {
  const b = T.cloneBoard(b0);
  if (from === T.BAR) b.bar--;
  else {
    b.pts[from]--;
    if (b.pts[from] === 0 && b.trap[from] === -1) { b.pts[from] = -1; b.trap[from] = 0; }
  }
  return b;
}

/** The slot (0 at the base) of the top mover checker on mover point p of board b. */
function topSlot(b, p) {
  return (b.trap[p] ? 1 : 0) + Math.max(b.pts[p], 1) - 1;
}

/**
 * The single checker steps of a play, in an order in which each can be made: the steps of
 * each written move (with its repetitions) stay in order, and the moves are taken as soon as
 * their next step is possible. Returns [{step, before, after, hit}] or null.
 */
export function tablesSteps(board, text, trapping) {
  let moves;
  try { moves = T.parsePlay(text); } catch (e) { return null; }
  const chains = [];
  for (const m of moves) {
    for (let n = 0; n < m.times; n++) {
      const chain = [];
      for (let i = 1; i < m.path.length; i++) chain.push({ from: m.path[i - 1].point, to: m.path[i].point, mark: m.path[i].mark });
      chains.push(chain);
    }
  }
  const out = [];
  let b = board;
  while (chains.some(c => c.length)) {
    let done = false;
    for (const chain of chains) {
      if (!chain.length) continue;
      const st = chain[0];
      const blot = st.to !== T.OFF && b.pts[st.to] === -1 && b.trap[st.to] === 0;
      const effect = blot ? (st.mark === '^' && trapping ? 'trap' : 'hit') : null;
      let after;
      try { after = T.applyStep(b, { from: st.from, to: st.to, effect }); } catch (e) { continue; }
      out.push({ step: st, before: b, after, hit: effect === 'hit' });
      b = after;
      chain.shift();
      done = true;
      break;
    }
    if (!done) return null;
  }
  return out;
}

function tablesFrames(o) {
  const { prev, event, bottom, homeLeft } = o;
  const mover = event.actor, opp = other(mover);
  if (!mover || !event.payload || !event.payload.includes('/') || !prev.board) return null;
  const steps = tablesSteps(T.moverBoard(prev.board, mover), event.payload, prev.game === 'never-finishing');
  if (!steps || !steps.length) return null;
  const draw = b => () => drawTables({
    board: T.whiteBoard(b, mover), bottom, homeLeft, dice: prev.dice, diceSide: mover,
    cube: prev.game === 'backgammon' ? prev.cube : null, crawford: prev.crawford_game,
    label: `${o.label}: ${mover} moving ${event.payload}`,
  });
  const spot = (key, slot) => tablesSpot(key, slot, bottom, homeLeft);
  const frames = [];
  for (const { step, before, after, hit } of steps) {
    const fromKey = step.from === T.BAR ? `bar-${mover}` : String(T.toWhite(step.from, mover));
    const fromSlot = step.from === T.BAR ? before.bar - 1 : topSlot(before, step.from);
    const toKey = step.to === T.OFF ? `off-${mover}` : String(T.toWhite(step.to, mover));
    const toSlot = step.to === T.OFF ? before.off : topSlot(after, step.to);
    frames.push({ kind: 'move', color: mover, draw: draw(lift(before, step.from)), path: [spot(fromKey, fromSlot), spot(toKey, toSlot)] });
    if (hit) {
      const shown = T.cloneBoard(after);
      shown.obar--;
      frames.push({ kind: 'hit', color: opp, draw: draw(shown), path: [spot(toKey, 0), spot(`bar-${opp}`, after.obar - 1)] });
    }
  }
  return frames;
}

function grasshopperFrames(o) {
  const { prev, event } = o;
  const mover = event.actor;
  const k = mover && event.payload ? actionKeys(event.payload, mover) : null;
  if (!k || !prev.points) return null;
  const v = { ...prev, points: prev.points.slice(), hand: { ...prev.hand }, passed: false };
  const cellAt = key => v.points[Number(key) - 1];
  let from, wall = false;
  if (k.from.startsWith('hand-')) {
    if (!(v.hand[mover] > 0)) return null;
    from = ghSpot(k.from, v.hand[mover], mover);
    v.hand[mover]--;
  } else {
    const cell = cellAt(k.from);
    if (!cell) return null;
    from = ghSpot(k.from, cell.count - 1, mover);
    wall = event.payload.startsWith('off ');
    const left = wall ? 0 : cell.count - 1;
    v.points[Number(k.from) - 1] = left ? { ...cell, count: left } : null;
  }
  let to;
  if (k.to === 'off') to = ghSpot('off', prev.borne_off ? prev.borne_off[mover] : 0, mover);
  else {
    const cell = cellAt(k.to);
    to = ghSpot(k.to, cell ? cell.count : 0, mover);
  }
  const label = `${o.label}: ${mover} moving ${event.payload}`;
  return [{ kind: 'move', color: mover, wall, draw: () => drawGrasshopper({ view: v, label }), path: [from, to] }];
}

function halmaFrames(o) {
  const { prev, event, bottom } = o;
  const mover = event.actor;
  const ends = mover && event.payload ? moveEnds(event.payload) : null;
  if (!ends || !prev.pieces || !prev.pieces[mover] || !prev.pieces[mover].includes(ends.from)) return null;
  const v = { ...prev, pieces: { ...prev.pieces, [mover]: prev.pieces[mover].filter(q => q !== ends.from) } };
  const label = `${o.label}: ${mover} moving ${event.payload}`;
  return [{ kind: 'move', color: mover, draw: () => drawHalma({ view: v, bottom, label }), path: ends.path.map(q => squareCentre(q, prev.size, bottom)) }];
}

/**
 * The frames of `event` (a log entry: {actor, payload}) played on `prev` (the view before it).
 * `o`: {prev, event, bottom, homeLeft, label}. Returns a list of frames, or null when the
 * entry is no move or cannot be shown step by step.
 */
export function moveFrames(o) {
  if (!o.prev || !o.event || o.event.kind !== 'action') return null;
  try {
    if (o.prev.game === 'backgammon' || o.prev.game === 'never-finishing') return tablesFrames(o);
    if (o.prev.game === 'grasshopper') return grasshopperFrames(o);
    if (o.prev.game === 'halma-grasshopper') return halmaFrames(o);
  } catch (e) {
    return null; // never let a drawing detail stop the page: the new position is drawn instead
  }
  return null;
}

const ease = t => (t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t));

/** The point a fraction `t` of the way along a polyline. */
function along(path, t) {
  if (path.length === 1) return path[0];
  const lens = [];
  let total = 0;
  for (let i = 1; i < path.length; i++) {
    const l = Math.hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
    lens.push(l);
    total += l;
  }
  let d = t * total;
  for (let i = 0; i < lens.length; i++) {
    if (d <= lens[i] || i === lens.length - 1) {
      const f = lens[i] ? Math.min(d / lens[i], 1) : 1;
      return { x: path[i].x + (path[i + 1].x - path[i].x) * f, y: path[i].y + (path[i + 1].y - path[i].y) * f };
    }
    d -= lens[i];
  }
  return path[path.length - 1];
}

/**
 * Plays frames into a container, one after another. `run` replaces any animation running;
 * `stop` ends it at once (the caller then draws the position it wants).
 */
export class Animator {
  constructor(wrap) {
    this.wrap = wrap;
    this.token = 0;
    this.running = false;
    this.raf = 0;
    this.timer = 0;
  }

  /**
   * `frames` from moveFrames; `stepMs` per step (a Halma hop takes 60 % of it, a hit
   * checker's trip to the bar 70 %); `decorate(svg, index, count, frame)` marks each frame's
   * board; `done()` when the last frame ended (not when stopped).
   */
  run(frames, stepMs, decorate, done) {
    this.stop();
    const token = ++this.token;
    this.running = true;
    let i = 0;
    const next = () => {
      if (token !== this.token) return;
      if (i >= frames.length) {
        this.running = false;
        done();
        return;
      }
      const f = frames[i++];
      const svg = f.draw();
      decorate(svg, i, frames.length, f);
      const start = f.path[0];
      const ghost = s('circle', {
        cx: start.x, cy: start.y, r: start.r || 18.5, class: `checker ${f.color} anim-checker${f.wall ? ' wall' : ''}`,
        'data-testid': 'anim-checker', 'data-kind': f.kind, 'aria-hidden': 'true',
      });
      svg.append(ghost);
      clear(this.wrap).append(svg);
      const hops = Math.max(1, f.path.length - 1);
      const ms = Math.max(16, stepMs * (f.kind === 'hit' ? 0.7 : 1) * (hops > 1 ? 0.6 * hops : 1));
      let t0 = null, ended = false;
      const end = () => {
        if (ended || token !== this.token) return;
        ended = true;
        cancelAnimationFrame(this.raf);
        clearTimeout(this.timer);
        next();
      };
      const tick = now => {
        if (token !== this.token || ended) return;
        if (t0 === null) t0 = now;
        const t = Math.min((now - t0) / ms, 1);
        const p = along(f.path, ease(t));
        ghost.setAttribute('cx', p.x.toFixed(1));
        ghost.setAttribute('cy', p.y.toFixed(1));
        if (t >= 1) end();
        else this.raf = requestAnimationFrame(tick);
      };
      this.raf = requestAnimationFrame(tick);
      this.timer = setTimeout(end, ms + 400); // no animation frames (a hidden tab): go on anyway
    };
    next();
  }

  stop() {
    this.token++;
    this.running = false;
    cancelAnimationFrame(this.raf);
    clearTimeout(this.timer);
  }
}
