// Move logic for the tables family (backgammon, Never-Finishing), derived from the server's
// list of legal plays. The server sends every legal play as canonical gnubg-style text
// (`24/18 13/11`, `bar/22*`, `6/off`, `13/7(2)`, `24/18*/13`, NF `13/7^`), written from the
// mover's side. Each text is played out here on a copy of the board to get the position it
// leads to; the user then moves checkers die by die, and a step is offered only when some
// legal play's position can still be reached with the dice left. Nothing here decides
// legality on its own: it only narrows the server's list.
//
// Boards here are seen from the mover's side: `pts[1..24]` hold signed counts of free
// checkers (mover positive, opponent negative; trappers count, a trapped checker does not),
// `trap[1..24]` is +1 where a mover's checker lies trapped under opponent checkers and -1
// where an opponent checker lies trapped under the mover's. Point 25 is the mover's bar,
// 0 is off.

export const BAR = 25;
export const OFF = 0;

/** The board of `mover` ('white' | 'black') from a view's `board` (White-numbered). */
export function moverBoard(board, mover) {
  const other = mover === 'white' ? 'black' : 'white';
  const pts = new Array(26).fill(0);
  const trap = new Array(26).fill(0);
  for (let i = 1; i <= 24; i++) {
    const w = mover === 'white' ? i : 25 - i;
    const v = board.points[w - 1];
    pts[i] = mover === 'white' ? v : -v;
  }
  for (const w of board.trapped || []) {
    const i = mover === 'white' ? w : 25 - w;
    // The trapped checker is of the other colour than the point's trappers.
    trap[i] = pts[i] > 0 ? -1 : 1;
  }
  return {
    pts, trap,
    bar: board.bar[mover], obar: board.bar[other],
    off: board.off[mover], ooff: board.off[other],
  };
}

/** The inverse of moverBoard: a view's `board` (White-numbered) from `mover`'s board. */
export function whiteBoard(b, mover) {
  const other = mover === 'white' ? 'black' : 'white';
  const points = new Array(24).fill(0);
  const trapped = [];
  for (let i = 1; i <= 24; i++) {
    const w = mover === 'white' ? i : 25 - i;
    points[w - 1] = mover === 'white' ? b.pts[i] : -b.pts[i];
    if (b.trap[i]) trapped.push(w);
  }
  return {
    points, trapped: trapped.sort((x, y) => x - y),
    bar: { [mover]: b.bar, [other]: b.obar },
    off: { [mover]: b.off, [other]: b.ooff },
  };
}

export function cloneBoard(b) {
  return { pts: b.pts.slice(), trap: b.trap.slice(), bar: b.bar, obar: b.obar, off: b.off, ooff: b.ooff };
}

export function boardKey(b) {
  return b.pts.join(',') + '|' + b.trap.join(',') + '|' + b.bar + ',' + b.obar + ',' + b.off + ',' + b.ooff;
}

/** A mover-numbered point as White numbers it. */
export function toWhite(point, mover) {
  if (point === BAR || point === OFF) return point;
  return mover === 'white' ? point : 25 - point;
}

/** The dice as single steps: doubles give four. */
export function diceList(dice) {
  if (!dice) return [];
  const [a, b] = dice;
  return a === b ? [a, a, a, a] : [a, b].sort((x, y) => y - x);
}

// Whether the mover may land on point t, and whether a blot stands there.
function landing(b, t) {
  if (b.trap[t] === 1) return null; // owned by the opponent (its checker traps ours)
  const v = b.pts[t];
  if (v >= 0) return 'open';
  if (v === -1 && b.trap[t] === 0) return 'blot';
  return null;
}

function canBearOff(b) {
  if (b.bar > 0) return false;
  for (let p = 7; p <= 24; p++) if (b.pts[p] > 0) return false;
  for (let p = 1; p <= 24; p++) if (b.trap[p] === 1) return false;
  return true;
}

/** Every single-die step from board `b` with die `d` (not yet checked against the plays). */
export function steps(b, d, trapping) {
  const out = [];
  const push = (from, to) => {
    if (to === OFF) { out.push({ from, to, die: d, effect: null }); return; }
    const l = landing(b, to);
    if (l === 'open') out.push({ from, to, die: d, effect: null });
    else if (l === 'blot') {
      out.push({ from, to, die: d, effect: 'hit' });
      if (trapping) out.push({ from, to, die: d, effect: 'trap' });
    }
  };
  if (b.bar > 0) {
    push(BAR, 25 - d);
    return out;
  }
  const bearOff = canBearOff(b);
  for (let p = 24; p >= 1; p--) {
    if (b.pts[p] <= 0) continue;
    const t = p - d;
    if (t >= 1) push(p, t);
    else if (bearOff) {
      if (t === 0) push(p, OFF);
      else {
        let higher = false;
        for (let q = p + 1; q <= 6; q++) if (b.pts[q] > 0) higher = true;
        if (!higher) push(p, OFF);
      }
    }
  }
  return out;
}

/** The board after one step (from, to, effect). Throws on a step that cannot be made. */
export function applyStep(b0, step) {
  const b = cloneBoard(b0);
  const { from, to } = step;
  if (from === BAR) {
    if (b.bar <= 0) throw new Error('no checker on the bar');
    b.bar--;
  } else {
    if (b.pts[from] <= 0) throw new Error(`no checker of yours on ${from}`);
    b.pts[from]--;
    if (b.pts[from] === 0 && b.trap[from] === -1) { b.pts[from] = -1; b.trap[from] = 0; }
  }
  if (to === OFF) { b.off++; return b; }
  if (b.trap[to] === 1 || b.pts[to] < -1 || (b.pts[to] === -1 && b.trap[to] !== 0)) {
    throw new Error(`point ${to} is blocked`);
  }
  if (b.pts[to] === -1) {
    if (step.effect === 'trap') { b.pts[to] = 1; b.trap[to] = -1; }
    else if (step.effect === 'hit' || step.effect === 'auto') { b.pts[to] = 1; b.obar++; }
    else throw new Error(`ambiguous: ${to} holds a blot`);
  } else {
    b.pts[to]++;
  }
  return b;
}

function parsePoint(text) {
  const m = /^(bar|b|off|o|\d{1,2})([*^]?)$/i.exec(text);
  if (!m) throw new Error(`"${text}" is not a point`);
  const name = m[1].toLowerCase();
  let point;
  if (name === 'bar' || name === 'b') point = BAR;
  else if (name === 'off' || name === 'o') point = OFF;
  else {
    point = Number(name);
    if (point > 25) throw new Error(`point ${point} does not exist`);
  }
  return { point, mark: m[2] || '' };
}

// Parses a play (`24/18 13/11`, `bar/22*`, `13/7(2)`, `24/18*/13`, `13/8^`) into its moves:
// [{ path: [{point, mark}], times }]. Throws a readable error on bad text.
export function parsePlay(text) {
  const tokens = text.trim().split(/[\s,]+/).filter(Boolean);
  const moves = [];
  for (const token of tokens) {
    const m = /^(.*?)(?:\((\d)\))?$/.exec(token);
    const parts = m[1].split('/');
    if (parts.length < 2 || parts.some(p => p === '')) throw new Error(`"${token}" is not a move (write from/to, like 13/8)`);
    const path = parts.map(parsePoint);
    if (path[0].mark) throw new Error(`"${token}": a move cannot start with a mark`);
    if (path[0].point === OFF) throw new Error(`"${token}": a move cannot start off the board`);
    for (let i = 1; i < path.length; i++) {
      if (path[i].point === BAR) throw new Error(`"${token}": a checker cannot move to the bar`);
      if (path[i].point >= path[i - 1].point) throw new Error(`"${token}": checkers move to lower points`);
      if (path[i].point === OFF && i !== path.length - 1) throw new Error(`"${token}": off ends a move`);
    }
    moves.push({ path, times: m[2] ? Number(m[2]) : 1 });
  }
  return moves;
}

// The board after the play `text` from `b` (mover's side). A play is a set of steps: the
// writer chains a step with the next one starting where it ends (`24/19*/15*` may be
// `19/15*` then `24/19*` by another checker), so the steps are not played in order; the
// result is worked out point by point instead: checkers arriving and leaving, blots hit
// (`*`) or newly trapped (`^`), trapped checkers freed when their last trapper has left.
// An unmarked landing on a blot hits in backgammon; in Never-Finishing an unmarked final
// landing on a blot is ambiguous.
export function playBoard(b0, text, trapping) {
  const b = cloneBoard(b0);
  const arr = new Array(26).fill(0), dep = new Array(26).fill(0);
  const hit = new Set(), trapAt = new Set(), touched = new Set(), ends = new Set();
  for (const move of parsePlay(text)) {
    const { path } = move;
    for (let n = 0; n < move.times; n++) {
      for (let i = 1; i < path.length; i++) {
        dep[path[i - 1].point]++;
        arr[path[i].point]++;
      }
    }
    for (let i = 1; i < path.length; i++) {
      const { point, mark } = path[i];
      const last = i === path.length - 1;
      if (mark === '*') hit.add(point);
      else if (mark === '^') {
        if (!trapping) throw new Error('blots cannot be trapped (^) in this game, only hit (*)');
        if (!last) throw new Error('a checker that moves on releases the blot: write ^ only on the last point');
        trapAt.add(point);
      } else if (last) ends.add(point);
      else touched.add(point);
    }
  }
  for (const p of hit) if (trapAt.has(p)) throw new Error(`point ${p} cannot be both hit (*) and trapped (^)`);
  if (dep[BAR] > b.bar) throw new Error('no checker of yours on the bar');
  b.bar -= dep[BAR];
  b.off += arr[OFF];
  for (let p = 1; p <= 24; p++) {
    const m0 = Math.max(b.pts[p], 0);
    const o0 = Math.max(-b.pts[p], 0);
    const m1 = m0 + arr[p] - dep[p];
    if (m1 < 0 || (dep[p] > 0 && m0 + arr[p] < dep[p])) throw new Error(`no checker of yours on ${p}`);
    if (dep[p] > 0 && b.trap[p] === 1) throw new Error(`your checker on ${p} is trapped`);
    if (arr[p] === 0 && dep[p] === 0) {
      if (hit.has(p) || trapAt.has(p)) throw new Error(`no checker of yours lands on ${p}`);
      continue;
    }
    let opp = o0, trapped = b.trap[p];
    if (arr[p] > 0 && (trapped === 1 || o0 >= 2)) throw new Error(`point ${p} is blocked`);
    const blot = o0 === 1 || trapped === -1;
    if (hit.has(p)) {
      if (!blot) throw new Error(`there is no blot to hit on ${p}`);
      opp = 0; trapped = 0; b.obar++;
    } else if (trapAt.has(p)) {
      if (o0 !== 1) throw new Error(`there is no blot to trap on ${p}`);
      opp = 0; trapped = -1;
    } else if (o0 === 1 && arr[p] > 0) {
      // an unmarked landing on a free blot
      if (ends.has(p) && m1 > 0 && trapping) {
        throw new Error(`ambiguous: the blot on ${p} can be hit (${p}*) or trapped (${p}^)`);
      }
      if (!trapping || touched.has(p) || m1 > 0) { opp = 0; trapped = 0; b.obar++; }
    }
    if (trapped === -1 && m1 === 0) { trapped = 0; opp = 1; }
    if (m1 > 0 && opp > 0) throw new Error(`point ${p} is blocked`);
    b.pts[p] = m1 > 0 ? m1 : -opp;
    b.trap[p] = trapped;
  }
  return b;
}

function removeOne(list, d) {
  const i = list.indexOf(d);
  const out = list.slice();
  out.splice(i, 1);
  return out;
}

/**
 * A turn being built: the legal plays, the boards they lead to, and the user's steps so far.
 * `legal` is the view's legal list; only the plays (texts with a '/') are used.
 */
export class Turn {
  constructor(board, dice, legal, trapping) {
    this.start = board;
    this.trapping = trapping;
    this.plays = [];
    this.targets = new Map(); // board key -> play index
    for (const text of legal) {
      if (!text.includes('/')) continue;
      try {
        const key = boardKey(playBoard(board, text, trapping));
        this.targets.set(key, this.plays.length);
        this.plays.push(text);
      } catch (e) {
        // a play this client cannot read is still reachable through the text box
        console.warn('unreadable play', text, e.message);
      }
    }
    this.memo = new Map();
    // the user's state: every (board, dice left) the steps so far may stand for; all share
    // one board
    this.states = [{ board, dice: diceList(dice) }];
    this.history = [];
  }

  /** Indices of the plays reachable from (board, dice). */
  reachable(board, dice) {
    const key = boardKey(board);
    const memoKey = key + '#' + dice.join('');
    const cached = this.memo.get(memoKey);
    if (cached) return cached;
    const found = new Set();
    if (this.targets.has(key)) found.add(this.targets.get(key));
    const tried = new Set();
    for (const d of dice) {
      if (tried.has(d)) continue;
      tried.add(d);
      const rest = removeOne(dice, d);
      for (const s of steps(board, d, this.trapping)) {
        for (const i of this.reachable(applyStep(board, s), rest)) found.add(i);
      }
    }
    this.memo.set(memoKey, found);
    return found;
  }

  /** The plays consistent with the steps so far. */
  consistent() {
    const out = new Set();
    for (const s of this.states) for (const i of this.reachable(s.board, s.dice)) out.add(i);
    return [...out].sort((a, b) => a - b);
  }

  /** The play the steps identify, when exactly one is consistent with them. */
  chosen() {
    const c = this.consistent();
    return c.length === 1 ? this.plays[c[0]] : null;
  }

  get board() { return this.states[0].board; }

  /** Dice left, when every state agrees; otherwise the shortest list. */
  get diceLeft() {
    return this.states.reduce((a, s) => (s.dice.length < a.length ? s.dice : a), this.states[0].dice);
  }

  /**
   * Every move the user can make now: one checker from `from` to `to`, with one or more
   * dice, ending with `effect` (null, 'hit' or 'trap'); only moves whose result is one board.
   * Returns [{from, to, effect, states, dice}] with `dice` the number of dice it uses.
   */
  moves() {
    if (this._moves) return this._moves;
    const groups = new Map(); // from|to|effect -> {from,to,effect, boards:Set, states:[], dice}
    const walk = (origin, board, dice, at, used) => {
      const tried = new Set();
      for (const d of dice) {
        if (tried.has(d)) continue;
        tried.add(d);
        const rest = removeOne(dice, d);
        for (const s of steps(board, d, this.trapping)) {
          if (s.from !== at) continue;
          const next = applyStep(board, s);
          if (this.reachable(next, rest).size === 0) continue;
          const key = `${origin}|${s.to}|${s.effect || ''}`;
          let g = groups.get(key);
          if (!g) {
            g = { from: origin, to: s.to, effect: s.effect, boards: new Set(), states: [], dice: used + 1 };
            groups.set(key, g);
          }
          g.boards.add(boardKey(next));
          g.states.push({ board: next, dice: rest });
          g.dice = Math.min(g.dice, used + 1);
          if (s.to !== OFF && s.to !== BAR) walk(origin, next, rest, s.to, used + 1);
        }
      }
    };
    for (const st of this.states) {
      const froms = new Set();
      if (st.board.bar > 0) froms.add(BAR);
      else for (let p = 1; p <= 24; p++) if (st.board.pts[p] > 0) froms.add(p);
      for (const f of froms) walk(f, st.board, st.dice, f, 0);
    }
    this._moves = [...groups.values()]
      .filter(g => g.boards.size === 1)
      .map(g => ({ from: g.from, to: g.to, effect: g.effect, states: g.states, dice: g.dice }));
    return this._moves;
  }

  /** Points (mover-numbered, 25 = bar) holding a checker that can move now. */
  sources() {
    return [...new Set(this.moves().map(m => m.from))];
  }

  /** The moves of the checker on `from`. */
  movesFrom(from) {
    return this.moves().filter(m => m.from === from);
  }

  /** Makes a move returned by moves(). */
  play(move) {
    this.history.push(this.states);
    // keep the fewest-dice ways to get there: a one-die step never stands for a two-dice path
    const most = Math.max(...move.states.map(s => s.dice.length));
    let states = move.states.filter(s => s.dice.length === most);
    const seen = new Set();
    states = states.filter(s => {
      const k = s.dice.join('');
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    this.states = states;
    this._moves = null;
  }

  undo() {
    if (!this.history.length) return false;
    this.states = this.history.pop();
    this._moves = null;
    return true;
  }

  reset() {
    if (!this.history.length) return;
    this.states = this.history[0];
    this.history = [];
    this._moves = null;
  }

  get stepsTaken() { return this.history.length; }
}

/**
 * The text a user typed, matched against the legal plays by the position it leads to.
 * Returns {text} (the canonical play) or {error}.
 */
export function matchTyped(board, legal, typed, trapping) {
  const t = typed.trim();
  if (!t) return { error: 'type a move, like 13/8 6/5' };
  const lower = t.toLowerCase();
  const exact = legal.find(l => l.toLowerCase() === lower);
  if (exact) return { text: exact };
  if (!t.includes('/')) return { error: `"${t}" is not legal now` };
  let after;
  try {
    after = boardKey(playBoard(board, t, trapping));
  } catch (e) {
    return { error: `"${t}" is not legal: ${e.message}` };
  }
  for (const text of legal) {
    if (!text.includes('/')) continue;
    try {
      if (boardKey(playBoard(board, text, trapping)) === after) return { text };
    } catch (e) { /* unreadable: skip */ }
  }
  return { error: `"${t}" is not a legal play with these dice` };
}

/**
 * The points a play touches, White-numbered, for highlighting the last move:
 * [{from, to}] with 25 = the mover's bar and 0 = off.
 */
export function playSegments(text, mover) {
  try {
    const out = [];
    for (const move of parsePlay(text)) {
      const p = move.path;
      out.push({ from: toWhite(p[0].point, mover), to: toWhite(p[p.length - 1].point, mover) });
    }
    return out;
  } catch (e) {
    return [];
  }
}
