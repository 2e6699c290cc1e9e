// Drag and drop on any board (backgammon, Never-Finishing, Grasshopper, Halma), mouse, pen
// and touch alike, beside click-click and the keyboard. The boards mark what can be played
// the same way: a hit area `rect.hit[data-key]`, with `data-source` on what can move and
// `data-dest` on where the picked piece can go. A press on a source that moves more than a
// few pixels picks the piece up (the page selects it, so its destinations light up as after a
// click), a piece follows the pointer, and the release decides: on a lit destination it is the
// click on that destination (the same legality, the hit-or-trap choice and Confirm as
// today); anywhere else the piece goes back and nothing is sent. A press that does not move is
// left to the click handlers. The controller lives on the board's container, which outlives
// each redraw of the board.

import { s } from './dom.js';

/** Pixels a press must travel before it becomes a drag (a tap stays a click). */
const THRESHOLD = 6;

/**
 * Drag and drop on the boards drawn into `wrap`. `o`:
 *  color()          the colour of the pieces the player moves (the ghost's colour)
 *  radius()         the ghost's radius in the board's viewBox units
 *  pick(key)        select the piece on `key` and redraw (its destinations light up)
 *  drop(key)        the selected piece is released on the lit destination `key`
 *  cancel()         the piece is released elsewhere: unselect and redraw
 */
export class DragController {
  constructor(wrap, o) {
    this.wrap = wrap;
    this.o = o;
    this.press = null; // {key, id, x, y, dragging}
    this.ghost = null;
    this.over = null; // the hit area under the pointer while dragging
    this.swallowClick = false;
    wrap.addEventListener('pointerdown', e => this.down(e));
    wrap.addEventListener('pointermove', e => this.move(e));
    wrap.addEventListener('pointerup', e => this.up(e));
    wrap.addEventListener('pointercancel', e => this.abort(e));
    // the click a finished drag would cause is not a click on the board
    wrap.addEventListener('click', e => {
      if (!this.swallowClick) return;
      this.swallowClick = false;
      e.stopPropagation();
      e.preventDefault();
    }, true);
  }

  /** Whether a piece is being dragged (the page keeps its board still meanwhile). */
  get dragging() {
    return !!(this.press && this.press.dragging);
  }

  down(e) {
    if (this.press || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const hit = e.target.closest && e.target.closest('.hit[data-source]');
    if (!hit || !this.wrap.contains(hit)) return;
    this.swallowClick = false;
    this.press = { key: hit.getAttribute('data-key'), id: e.pointerId, x: e.clientX, y: e.clientY, dragging: false };
  }

  move(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    if (!p.dragging) {
      if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < THRESHOLD) return;
      p.dragging = true;
      try { this.wrap.setPointerCapture(e.pointerId); } catch (_) { /* a pointer already gone */ }
      this.o.pick(p.key);
    }
    e.preventDefault();
    this.follow(e.clientX, e.clientY);
  }

  up(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    this.press = null;
    if (!p.dragging) return; // a tap: the click handlers take it
    this.swallowClick = true;
    // a click that never comes (released outside any element) must not swallow the next one
    setTimeout(() => { this.swallowClick = false; }, 0);
    const target = this.hitAt(e.clientX, e.clientY);
    this.clear();
    const key = target && target.getAttribute('data-key');
    if (target && target.hasAttribute('data-dest')) this.o.drop(key);
    else if (key === p.key) { /* put back where it was: it stays picked, as after a click */ }
    else this.o.cancel();
  }

  abort(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    this.press = null;
    const was = p.dragging;
    this.clear();
    if (was) this.o.cancel();
  }

  /** The board's hit area under the client point (the ghost lets the pointer through). */
  hitAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const hit = el && el.closest && el.closest('.hit[data-key]');
    return hit && this.wrap.contains(hit) ? hit : null;
  }

  /** Moves the ghost to the pointer and lights the destination under it. */
  follow(x, y) {
    const svg = this.wrap.querySelector('svg.board');
    if (!svg) return;
    svg.classList.add('dragging');
    if (!this.ghost || !svg.contains(this.ghost)) {
      this.ghost = s('circle', { r: this.o.radius(), class: `checker ${this.o.color()} drag-ghost`, 'data-testid': 'drag-ghost', 'aria-hidden': 'true' });
      svg.append(this.ghost);
    }
    const m = svg.getScreenCTM();
    if (m) {
      const pt = new DOMPoint(x, y).matrixTransform(m.inverse());
      this.ghost.setAttribute('cx', pt.x);
      this.ghost.setAttribute('cy', pt.y);
    }
    const hit = this.hitAt(x, y);
    const over = hit && hit.hasAttribute('data-dest') ? hit : null;
    if (over !== this.over) {
      if (this.over) this.over.classList.remove('drag-over');
      if (over) over.classList.add('drag-over');
      this.over = over;
    }
  }

  clear() {
    if (this.ghost) this.ghost.remove();
    this.ghost = null;
    if (this.over) this.over.classList.remove('drag-over');
    this.over = null;
    const svg = this.wrap.querySelector('svg.board');
    if (svg) svg.classList.remove('dragging');
  }
}
