// The game page: the board, the players, the controls of the decision at hand, the text box
// for typed moves, the move list, live updates through the game's WebSocket, the end of each
// game of a match (its final board and why it ended, until "Next game"), and the result with
// the dice-verification line once the game is over.

import { api, get, post, randomHex } from './api.js';
import { buildMoveList, renderMoveList } from './move-list.js';
import { h, clear, cap, other, GAME_NAMES, playerLink, playerName } from './dom.js';
import * as T from './tables-logic.js';
import { drawTables } from './board-tables.js';
import { drawGrasshopper, actionKeys, matchTypedGrasshopper, label as ghLabel } from './board-grasshopper.js';
import { drawHalma, moveEnds, matchTypedHalma } from './board-halma.js';
import { hintAllowed, hintDecision, hintPanel } from './hint.js';
import { describeBoard } from './describe.js';
import { ruleLink } from './rules.js';
import * as prefs from './preferences.js';
import { Animator, moveFrames } from './animation.js';
import { DragController } from './drag.js';
import { ChatPanel } from './chat.js';
import { positionIds } from './position-ids.js';
import { tone, turnTitle } from './signal.js';
import { clockNow, formatClock, clockWords, LOW_MS } from './clock.js';

const DICE_GAMES = new Set(['backgammon', 'never-finishing']);

/** White-numbered board (as in a view) from a mover's board. */
function viewBoardOf(mb, mover) {
  const points = [], trapped = [];
  for (let w = 1; w <= 24; w++) {
    const i = mover === 'white' ? w : 25 - w;
    points.push(mover === 'white' ? mb.pts[i] : -mb.pts[i]);
    if (mb.trap[i]) trapped.push(w);
  }
  const opp = other(mover);
  return { points, trapped, bar: { [mover]: mb.bar, [opp]: mb.obar }, off: { [mover]: mb.off, [opp]: mb.ooff } };
}

function pipCounts(board) {
  let white = 25 * board.bar.white, black = 25 * board.bar.black;
  board.points.forEach((v, i) => {
    const w = i + 1;
    if (v > 0) white += v * w; else black += -v * (25 - w);
    if ((board.trapped || []).includes(w)) {
      if (v > 0) black += 25 - w; else white += w;
    }
  });
  return { white, black };
}

/** Who must send the nonce of the roll the view waits for (as the server decides it). */
export function rollerOf(view, summary) {
  const st = view.status;
  if (!st || st.status !== 'chance') return null;
  const human = c => !!summary[c] && summary[c].kind !== 'bot';
  if (st.kind === 'roll') {
    const c = st.player;
    return human(c) ? c : human(other(c)) ? other(c) : 'server';
  }
  if (human('white') && human('black')) return 'either';
  if (human('white')) return 'white';
  if (human('black')) return 'black';
  return 'server';
}

/** A seat's name as the page shows it. */
function seatName(summary, color) {
  const p = summary[color];
  return p ? playerName(p) : cap(color);
}

/** The score line of a match or session: "alice 3, Tabula easy 1 (match to 5)". */
export function scoreLine(score, summary, matchLength) {
  return `${seatName(summary, 'white')} ${score.white}, ${seatName(summary, 'black')} ${score.black}` +
    (matchLength ? ` (match to ${matchLength})` : '');
}

function describeStatus(view, summary, myColor) {
  const st = view.status;
  if (summary.state === 'waiting') return 'Waiting for an opponent to join.';
  if (st.status === 'between') return `Game ${view.game_number} is over; game ${view.game_number + 1} follows when you press Next game.`;
  if (st.status === 'over') {
    const w = (view.result && view.result.winner) || st.winner;
    return w ? `The game is over: ${seatName(summary, w)} wins.` : 'The game is over: drawn.';
  }
  const mine = st.player === myColor;
  if (st.status === 'chance') {
    if (st.kind === 'opening') return 'Opening roll: each player throws one die; the higher starts.';
    return mine ? 'Your roll.' : `${cap(st.player)} to roll.`;
  }
  const what = {
    'move': 'move',
    'double-or-roll': 'double or roll',
    'take-or-drop': 'take or drop the double',
    'resignation-answer': 'accept or reject the resignation',
  }[st.decision] || 'decide';
  return mine ? `Your turn: ${what}.` : `${cap(st.player)} to ${what}.`;
}

/** The double on offer in a backgammon view while the taker must answer it, or null:
 *  `{value, by, to}` (the cube's new value, the doubler and the taker). */
function cubeOffer(v) {
  if (v.game !== 'backgammon' || !v.cube || v.status?.status !== 'decide' || v.status.decision !== 'take-or-drop') return null;
  const to = v.status.player;
  return { value: v.cube.value * 2, by: to === 'white' ? 'black' : 'white', to };
}

/**
 * What resigning costs, in words, from the server's result for it (`view.leave.resign[me]`,
 * docs/protocol.md, "Leaving a game"): a match lost as a whole, or the points at stake
 * (in Never-Finishing 2 is a gammon: none of your checkers is borne off).
 */
export function resignCost(end, game, options) {
  if (!end) return 'you lose the game';
  if (end.code === 'match-won') return `you lose the ${options && options.match_length}-point match`;
  if (game !== 'never-finishing') return 'you lose the game';
  return end.points >= 2 ? 'you lose a gammon (2 points): none of your checkers is borne off' : 'you lose a single game (1 point)';
}

export class GamePage {
  constructor(app, root, id, params) {
    this.app = app;
    this.root = root;
    this.id = id;
    this.invite = params.get('invite');
    this.events = new Map();
    this.version = -1;
    this.wsVersion = 0;
    this.selected = null;
    this.choice = null;
    this.busy = false;
    this.message = null;
    this.closed = false;
    this.backoff = 500;
    this.autoRolled = null;
    this.showResign = false;
    this.gamesSeen = null; // games of the match already over when the page learnt of them
    this.between = null; // a finished game of the match shown until "Next game"
    this.hint = null; // {version, loading | error | hint}: the Hint panel of this position
    this.animations = 0; // the opponent's moves animated on this page (data-animations)
    this.clockBase = null; // {clock, at}: the last view's clock and when it arrived (performance.now())
    this.clockEls = {}; // colour -> the clock element beside the player's name
    this.rematchLive = false; // a rematch was open while the page watched: follow it when it starts
  }

  async start() {
    window.__tabulaGame = this; // lets the end-to-end test cut the socket
    clear(this.root).append(h('p', { class: 'muted' }, 'Loading the game…'));
    const prefsLoaded = prefs.load(this.app); // never rejects
    try {
      await this.refreshSummary();
      await prefsLoaded;
    } catch (e) {
      clear(this.root).append(h('div', { class: 'error-box', role: 'alert', 'data-testid': 'page-error' }, `This game cannot be shown: ${e.message}`));
      return;
    }
    this.buildLayout();
    if (this.invite || this.summary.state === 'waiting') await this.maybeJoin();
    this.render();
    this.connect();
    this.chat.refresh(true);
    // the clocks count down locally from the last view (every 200 ms, the page not redrawn)
    this.clockTimer = setInterval(() => this.tickClocks(), 200);
    this.pointerHandler = () => { this.keyboard = false; };
    document.addEventListener('pointerdown', this.pointerHandler, true);
    this.keyHandler = e => {
      if (e.key === 'Tab' || e.key === 'Enter' || e.key === ' ') this.keyboard = true;
      if (e.key === 'Escape' && (this.selected || this.choice)) { this.selected = null; this.choice = null; this.render(); }
    };
    document.addEventListener('keydown', this.keyHandler, true);
    // the board's layout follows the screen (js/dom.js narrowBoard: compact on phones)
    this.narrow = window.matchMedia('(max-width: 600px)');
    this.layoutHandler = () => this.render();
    this.narrow.addEventListener('change', this.layoutHandler);
  }

  destroy() {
    this.closed = true;
    if (this.narrow) this.narrow.removeEventListener('change', this.layoutHandler);
    if (this.ws) this.ws.close();
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    clearInterval(this.waitTimer);
    clearInterval(this.clockTimer);
    clearInterval(this.rematchTimer);
    if (this.animator) this.animator.stop();
    document.removeEventListener('keydown', this.keyHandler, true);
    document.removeEventListener('pointerdown', this.pointerHandler, true);
  }

  get me() { return this.app.me; }

  get myColor() {
    const me = this.me;
    if (!me || !this.summary) return null;
    for (const c of ['white', 'black']) {
      const p = this.summary[c];
      if (p && p.id === me.id && p.kind !== 'bot') return c;
    }
    return null;
  }

  async refreshSummary() {
    const g = await get(`/api/games/${this.id}`);
    this.summary = g;
    this.applyState(g.version, g.view, g.state, true);
  }

  /** Takes a state; returns whether it was newer than what the page shows. */
  applyState(version, view, gameState, quiet = false) {
    const stateChanged = this.summary && gameState && gameState !== this.summary.state;
    if (version < this.version) return false;
    // the clocks as of this view (made when it was sent), counted down from its arrival
    if (view && view.clock !== undefined) this.clockBase = view.clock ? { clock: view.clock, at: performance.now() } : null;
    if (version === this.version && !stateChanged) return false;
    const moved = version !== this.version;
    this.version = version;
    this.view = view;
    this.noteFinishedGames(view);
    if (gameState) this.summary.state = gameState;
    if (moved) {
      this.stopAnimation(); // a newer position: any move still being animated jumps to it
      this.turn = null;
      this.selected = null;
      this.choice = null;
      this.showResign = false;
      this.hint = null; // the position changed: the hint was for the last one
      // a confirmation ("You joined the game.") or a refusal belonged to the last position;
      // news of a rematch ('info') outlives it
      if (this.message && this.message.kind !== 'info') this.message = null;
    }
    if (stateChanged && !quiet) {
      // seats, result and the revealed seed live in the summary
      get(`/api/games/${this.id}`).then(g => {
        if (g.version >= this.version) { this.summary = g; this.view = g.view; this.version = g.version; }
        else Object.assign(this.summary, { white: g.white, black: g.black, state: g.state, winner: g.winner, points: g.points, dice: g.dice });
        this.render();
      }).catch(e => this.say(e.message, 'error'));
    }
    if (!quiet) this.render();
    return true;
  }

  /**
   * A game of a match or session that ended while the page watched is announced: its final
   * board and why it ended stay on the page until "Next game", although the server has
   * already begun the next game. Games over before the page loaded, and the last game of a
   * finished session (the result says it), are not.
   */
  noteFinishedGames(view) {
    const games = view.games || [];
    if (this.gamesSeen === null) { this.gamesSeen = games.length; return; }
    if (games.length <= this.gamesSeen) return;
    this.gamesSeen = games.length;
    if (!view.result) {
      this.between = games[games.length - 1];
      this.selected = null;
      this.choice = null;
    } else this.between = null;
  }

  nextGame() {
    this.between = null;
    this.render();
  }

  /** The view the page draws: the live one, or the finished game of a match shown before the next. */
  get shown() {
    const v = this.view, b = this.between;
    if (!b || !v) return v;
    return { ...v, board: b.board, dice: null, score: b.score, game_number: b.number, cube: null, crawford_game: false,
      status: { status: 'between' }, legal: [] };
  }

  applyGameView(g) {
    const { view, ...rest } = g;
    const newer = g.version >= this.version;
    if (newer) Object.assign(this.summary, rest, { dice: this.summary.dice });
    if (!this.applyState(g.version, view, g.state)) this.render();
    if (g.state === 'finished' && !(this.summary.dice && this.summary.dice.server_seed)) {
      get(`/api/games/${this.id}`).then(full => { this.summary.dice = full.dice; this.render(); }).catch(() => {});
    }
  }

  // ---- joining -------------------------------------------------------------------------

  async maybeJoin() {
    const s = this.summary;
    clearInterval(this.waitTimer);
    if (s.state !== 'waiting') { this.dropInviteFromUrl(); return; }
    // The creator waits: the game's WebSocket brings the join (onPush, seatTaken).
    if (this.myColor) return;
    if (this.me && this.invite) await this.join();
  }

  async join() {
    try {
      const g = await post(`/api/games/${this.id}/join`, { invite_code: this.invite || undefined, client_seed: randomHex(16) });
      this.summary = g;
      this.applyState(g.version, g.view, g.state, true);
      this.dropInviteFromUrl();
      this.say('You joined the game.', 'ok');
      this.chat.refresh(true);
    } catch (e) {
      this.say(`Could not join: ${e.message}`, 'error');
    }
    this.render();
  }

  dropInviteFromUrl() {
    if (location.search.includes('invite=')) history.replaceState(null, '', `/game/${this.id}`);
  }

  async guestAndJoin(nickname) {
    try {
      this.app.setMe(await post('/api/guest', { nickname }));
      await this.join();
    } catch (e) {
      this.say(e.message, 'error');
      this.render();
    }
  }

  // ---- live updates --------------------------------------------------------------------

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${this.id}/ws?since=${this.wsVersion}`);
    this.ws = ws;
    this.setLive('connecting');
    ws.onopen = () => {
      this.backoff = 500;
      this.setLive('live');
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => { if (ws.readyState === 1) ws.send('{"type":"ping"}'); }, 25000);
    };
    ws.onmessage = e => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      this.onPush(msg, ws);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.closed || ws !== this.ws) return;
      this.setLive('reconnecting');
      this.reconnectTimer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    };
  }

  reconnect() {
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; ws.close(); }
    clearInterval(this.pingTimer);
    this.connect();
  }

  /** Someone took the empty seat (a join pushed live): reload the players and the state. */
  async seatTaken() {
    try {
      const g = await get(`/api/games/${this.id}`);
      this.summary = g;
      this.applyState(g.version, g.view, g.state, true);
      this.render();
      this.chat.refresh(true); // both seated: the chat opens
    } catch (e) { /* the next push brings it */ }
  }

  onPush(msg, ws) {
    if (ws !== this.ws) return;
    if (msg.type === 'event' && msg.event && msg.event.kind === 'join' && this.summary.state === 'waiting') this.seatTaken();
    if (msg.type === 'event') {
      if (msg.version > this.wsVersion + 1) { this.reconnect(); return; } // a gap: catch up
      if (msg.version <= this.wsVersion) return;
      this.wsVersion = msg.version;
      this.events.set(msg.version, msg.event);
      if (msg.state) {
        const prev = this.view, prevVersion = this.version, wasBetween = !!this.between;
        if (this.applyState(msg.version, msg.state, msg.game_state) && !wasBetween) this.maybeAnimate(prev, prevVersion, msg);
      } else this.scheduleMoves();
    } else if (msg.type === 'state') {
      this.wsVersion = Math.max(this.wsVersion, msg.version);
      if (this.chat.view) this.chat.refresh(); // (re)connected: a chat note may have been missed
      if (!this.applyState(msg.version, msg.state, msg.game_state)) this.render();
    } else if (msg.type === 'error') {
      this.say(`Live updates: ${msg.message}`, 'error');
    } else if (msg.type === 'rematch') {
      this.onRematchNote(msg);
    } else if (msg.type === 'chat') {
      this.chat.onNote(msg);
    }
    // after a (re)connection to a finished game: a rematch note may have been missed meanwhile
    if (msg.type === 'state' && msg.game_state === 'finished' && this.myColor && !(this.summary.rematch && this.summary.rematch.game)) this.refreshRematch();
  }

  // ---- rematch -------------------------------------------------------------------------

  /** A rematch note on the game's socket: `{offered_by, game}`, or `declined_by` on a decline. */
  onRematchNote(msg) {
    const me = this.myColor, opp = me ? other(me) : null;
    const prev = this.summary.rematch || {};
    if (me && msg.declined_by === opp) {
      if (prev.offered_by === me) this.say(`${seatName(this.summary, opp)} declined the rematch.`, 'info');
      else if (prev.offered_by === opp) this.say(`${seatName(this.summary, opp)} withdrew the rematch offer.`, 'info');
    } else if (me && msg.offered_by === opp && !msg.game && prev.offered_by !== opp) {
      this.say(`${seatName(this.summary, opp)} offers a rematch.`, 'info');
    }
    this.setRematch({ offered_by: msg.offered_by, game: msg.game });
  }

  /**
   * The rematch as the server told it (a reply, a note, a GET). When it starts (`game` set)
   * and this page had the rematch open, the player goes to the new game; a page opened after
   * it started shows a link instead.
   */
  setRematch(r) {
    if (this.closed || !r) return;
    const next = { offered_by: r.offered_by || null, game: r.game || null };
    const prev = this.summary.rematch || {};
    this.summary.rematch = next;
    if (next.game && this.rematchLive && this.myColor) {
      this.app.navigate(`/game/${next.game}`);
      return;
    }
    this.syncRematchPoll();
    if (prev.offered_by !== next.offered_by || prev.game !== next.game) this.render();
  }

  async refreshRematch() {
    try {
      const g = await get(`/api/games/${this.id}`);
      if (g.rematch) this.setRematch(g.rematch);
    } catch (e) { /* the socket's note or the next poll */ }
  }

  /** While an offer stands, the page also asks every 3 s, in case the socket's note is lost. */
  syncRematchPoll() {
    const r = this.summary.rematch || {};
    const want = !this.closed && this.summary.state === 'finished' && !!this.myColor && !!r.offered_by && !r.game;
    if (want && !this.rematchTimer) this.rematchTimer = setInterval(() => this.refreshRematch(), 3000);
    if (!want && this.rematchTimer) { clearInterval(this.rematchTimer); this.rematchTimer = null; }
  }

  /** Offer (or accept: the same request), decline or withdraw a rematch. */
  async rematchAct(kind) {
    if (this.busy) return;
    this.busy = true;
    this.rematchLive = true;
    this.render();
    try {
      const r = await post(`/api/games/${this.id}/rematch${kind === 'decline' ? '/decline' : ''}`, {});
      this.busy = false;
      if (kind === 'accept' && !r.game) this.say('The offer was withdrawn meanwhile; your offer stands instead.', 'info');
      this.setRematch(r);
      this.render();
    } catch (e) {
      this.busy = false;
      this.say(`The server refused: ${e.message}`, 'error');
      this.refreshRematch();
      this.render();
    }
  }

  /** The rematch box at the end of a game between two people (docs/client.md, "What next"). */
  rematchBox() {
    const s = this.summary, me = this.myColor;
    const r = s.rematch || { offered_by: null, game: null };
    const box = h('div', { class: 'rematch', role: 'group', 'aria-label': 'Rematch', 'data-testid': 'rematch-box' });
    if (r.game) {
      box.append(h('p', { 'data-testid': 'rematch-status' }, 'The rematch has begun: ',
        h('a', { href: `/game/${r.game}`, 'data-link': true, 'data-testid': 'rematch-link' }, me ? 'play it' : 'watch it'), '.'));
      return box;
    }
    if (!me) return r.offered_by ? h('p', { class: 'small muted', 'data-testid': 'rematch-status' }, `${seatName(s, r.offered_by)} offers a rematch.`) : null;
    this.rematchLive = true; // the rematch is open on this page: follow it when it starts
    const opp = other(me), oppName = seatName(s, opp);
    if (r.offered_by === me) {
      box.append(h('p', { 'data-testid': 'rematch-status' }, `Waiting for ${oppName} to accept the rematch (you would play ${opp}).`),
        this.button('Withdraw', 'rematch-withdraw', () => this.rematchAct('decline')));
    } else if (r.offered_by === opp) {
      box.append(h('p', { 'data-testid': 'rematch-status' }, `${oppName} offers a rematch (you would play ${opp}).`),
        h('div', { class: 'row' }, this.button('Accept', 'rematch-accept', () => this.rematchAct('accept'), { primary: true }),
          this.button('Decline', 'rematch-decline', () => this.rematchAct('decline'))));
    } else {
      box.append(this.button(`Rematch (as ${opp})`, 'rematch', () => this.rematchAct('offer'), { primary: true,
        title: `Offer ${oppName} the same game again, colours swapped` }));
    }
    return box;
  }

  setLive(state) {
    if (!this.liveEl) return;
    this.liveEl.textContent = { live: '● live', connecting: '○ connecting…', reconnecting: '○ reconnecting…' }[state];
    this.liveEl.className = 'live ' + state;
    this.liveEl.setAttribute('data-state', state);
  }

  // ---- actions -------------------------------------------------------------------------

  say(text, kind = 'info') {
    this.message = text ? { text, kind } : null;
    if (this.messageEl) this.renderMessage();
  }

  async send(text) {
    if (this.busy) return;
    this.busy = true;
    this.say(null);
    this.renderControls();
    try {
      const g = await post(`/api/games/${this.id}/actions`, { action: text, version: this.version });
      this.busy = false;
      this.applyGameView(g);
      if (this.summary.roller && this.summary.roller === this.myColor && text === 'roll') await this.roll();
    } catch (e) {
      this.busy = false;
      this.say(`The server refused “${text}”: ${e.message}`, 'error');
      if (e.code === 'stale_version') this.refreshSummary().then(() => this.render()).catch(() => {});
      this.render();
    }
  }

  async roll() {
    if (this.busy) return;
    this.busy = true;
    this.renderControls();
    try {
      const g = await post(`/api/games/${this.id}/roll`, { nonce: randomHex(16) });
      this.busy = false;
      this.applyGameView(g);
    } catch (e) {
      this.busy = false;
      this.say(`The server refused the roll: ${e.message}`, 'error');
      this.render();
    }
  }

  /** Sends the nonce for the opponent bot's roll, which only this player's client can. */
  maybeAutoRoll() {
    const v = this.view, me = this.myColor;
    if (this.between) return; // the next game starts when the player has seen the last one end
    if (!me || this.summary.state !== 'playing' || !v || v.status.status !== 'chance') return;
    if (v.status.kind !== 'roll' || v.status.player === me) return;
    if (rollerOf(v, this.summary) !== me || this.autoRolled === this.version || this.busy) return;
    this.autoRolled = this.version;
    this.roll();
  }

  // ---- preferences: animating the opponent's moves, automatic actions --------------------

  get animating() { return !!(this.animator && this.animator.running); }

  stopAnimation() {
    if (this.animator) this.animator.stop();
  }

  /**
   * A move by someone else arrived live: it is shown step by step (js/animation.js), then the
   * new position is drawn. Not for one's own moves, catch-up events, a skipped version, a
   * hidden page, the "off" preference or a system that asks for reduced motion. Meanwhile the
   * controls and the result wait; a newer position stops it (applyState).
   */
  maybeAnimate(prev, prevVersion, msg) {
    const e = msg.event;
    if (!prev || !e || e.kind !== 'action' || msg.version !== prevVersion + 1 || !this.boardWrap) return;
    if (this.myColor && e.actor === this.myColor) return;
    if (prev.game !== this.summary.game) return;
    const ms = prefs.stepMs();
    if (!ms || document.hidden) return;
    const frames = moveFrames({
      prev, event: e, bottom: this.myColor || 'white',
      homeLeft: prefs.get('orientation') === 'home-left', label: `${GAME_NAMES[prev.game]} board`,
    });
    if (!frames || !frames.length) return;
    if (!this.animator) this.animator = new Animator(this.boardWrap);
    this.animations++;
    const count = this.animations;
    this.animator.run(frames, ms, (svg, i, n, f) => {
      svg.setAttribute('data-animating', '1');
      svg.setAttribute('data-animations', String(count));
      svg.setAttribute('data-animation-step', `${i}/${n}`);
      svg.setAttribute('data-animation-kind', f.kind);
      svg.setAttribute('data-animated-version', String(msg.version));
      svg.setAttribute('data-version', String(prevVersion));
      svg.setAttribute('data-game', prev.game);
      svg.setAttribute('data-state', this.summary.state);
    }, () => this.render());
    this.renderControls();
    this.renderOver();
  }

  /**
   * The automatic actions the player chose on /preferences: roll when a roll of one's own is
   * due and no double is possible, play the only legal play, pass when passing is all one can
   * do. Once per position, never while a move is being animated or a request is out.
   */
  maybeAutoPlay() {
    const v = this.view, me = this.myColor;
    if (!me || !v || this.busy || this.between || this.animating || this.summary.state !== 'playing') return;
    if (this.autoPlayed === this.version) return;
    const p = prefs.all();
    if (p.auto_roll && this.myRollDue()) {
      this.autoPlayed = this.version;
      this.roll();
      return;
    }
    if (!this.myDecision()) return;
    const legal = v.legal;
    if (p.auto_roll && legal.includes('roll') && !legal.includes('double')) {
      this.autoPlayed = this.version;
      this.send('roll');
      return;
    }
    // what there is to choose from, leaving aside resigning and offering a draw
    const choices = legal.filter(t => !t.startsWith('resign ') && t !== 'offer-draw');
    if (p.auto_pass && choices.length === 1 && choices[0] === 'pass') {
      this.autoPlayed = this.version;
      this.send('pass');
      return;
    }
    const isPlay = t => (DICE_GAMES.has(v.game) ? t.includes('/') : v.game === 'grasshopper' ? !!actionKeys(t, me) : !!moveEnds(t));
    if (p.auto_confirm && v.status.decision === 'move' && choices.length === 1 && isPlay(choices[0])) {
      this.autoPlayed = this.version;
      this.send(choices[0]);
    }
  }

  myDecision() {
    const v = this.view;
    if (this.between) return false;
    return this.myColor && this.summary.state === 'playing' && v.status.status === 'decide' && v.status.player === this.myColor;
  }

  myRollDue() {
    const v = this.view, me = this.myColor;
    if (this.between) return false;
    if (!me || this.summary.state !== 'playing' || v.status.status !== 'chance') return false;
    const r = rollerOf(v, this.summary);
    if (r !== me && r !== 'either') return false;
    return v.status.kind === 'opening' || v.status.player === me;
  }

  /** Whether the Hint button is offered now (docs/client.md, "Hint"). */
  hintOffered() {
    return !this.between && this.myDecision() && hintAllowed(this.summary, this.myColor) && hintDecision(this.view);
  }

  /** Asks the server for a hint on the position at hand; dropped if the position moved meanwhile. */
  async askHint() {
    const version = this.version;
    if (this.hint && this.hint.version === version && this.hint.loading) return;
    this.hint = { version, loading: true };
    this.render();
    let next;
    try {
      next = { version, hint: await get(`/api/games/${this.id}/hint`) };
    } catch (e) {
      next = { version, error: e.message };
    }
    if (this.version !== version || !this.hint || this.hint.version !== version) return;
    this.hint = next;
    this.render();
  }

  /** The best play of the hint shown, as arrows for the board (null when none). */
  hintArrows() {
    const hnt = this.hint;
    if (!hnt || hnt.version !== this.version || !hnt.hint || hnt.hint.kind !== 'moves' || this.between) return null;
    const best = hnt.hint.moves && hnt.hint.moves[0];
    if (!best || !best.move.includes('/')) return null;
    const segments = T.playSegments(best.move, this.myColor);
    return segments.length ? { actor: this.myColor, segments } : null;
  }

  renderHint() {
    if (!this.hintEl) return;
    clear(this.hintEl);
    const hnt = this.hint;
    if (!hnt || hnt.version !== this.version || this.between) return;
    this.hintEl.append(hintPanel(hnt));
  }

  // ---- the move being built --------------------------------------------------------------

  tablesTurn() {
    const v = this.view;
    if (!DICE_GAMES.has(v.game) || !this.myDecision() || v.status.decision !== 'move' || !v.dice) return null;
    if (!this.turn) {
      this.turn = new T.Turn(T.moverBoard(v.board, this.myColor), v.dice, v.legal, v.game === 'never-finishing');
    }
    return this.turn;
  }

  tablesKey(point) {
    const me = this.myColor;
    if (point === T.BAR) return `bar-${me}`;
    if (point === T.OFF) return `off-${me}`;
    return String(T.toWhite(point, me));
  }

  /** Sources and destinations (board keys) of the decision at hand. */
  interaction() {
    const v = this.view;
    const none = { sources: new Set(), dests: new Set(), act: null };
    if (this.busy || !this.myDecision()) return none;
    if (DICE_GAMES.has(v.game)) {
      const turn = this.tablesTurn();
      if (!turn || this.choice) return none;
      const sources = new Set(turn.sources().map(p => this.tablesKey(p)));
      const dests = new Set();
      if (this.selected) {
        for (const m of turn.moves()) if (this.tablesKey(m.from) === this.selected) dests.add(this.tablesKey(m.to));
      }
      return { sources, dests };
    }
    const pairs = [];
    for (const text of v.legal) {
      const k = v.game === 'grasshopper' ? actionKeys(text, this.myColor) : moveEnds(text);
      if (k) pairs.push({ text, from: k.from, to: k.to });
    }
    const sources = new Set(pairs.map(p => p.from));
    const dests = new Set(pairs.filter(p => p.from === this.selected).map(p => p.to));
    return { sources, dests, pairs };
  }

  onBoardClick(key) {
    const v = this.view;
    const it = this.interaction();
    if (it.dests.has(key) && this.selected) {
      if (DICE_GAMES.has(v.game)) {
        const turn = this.tablesTurn();
        const moves = turn.moves().filter(m => this.tablesKey(m.from) === this.selected && this.tablesKey(m.to) === key);
        if (moves.length === 1) {
          turn.play(moves[0]);
          this.selected = null;
        } else if (moves.length > 1) {
          this.choice = moves; // hit or trap
        }
        this.say(null);
        this.render();
      } else {
        const pair = it.pairs.find(p => p.from === this.selected && p.to === key);
        this.selected = null;
        if (pair) this.send(pair.text);
      }
      return;
    }
    if (it.sources.has(key)) {
      this.selected = this.selected === key ? null : key;
    } else {
      this.selected = null; // nothing to do there: no request
    }
    this.render();
  }

  typed(text) {
    const v = this.view;
    if (!this.myColor) { this.say('You are watching this game.', 'error'); return; }
    const t = text.trim();
    if (this.myRollDue() && /^(r|roll)$/i.test(t)) { this.roll(); return true; }
    if (!this.myDecision()) { this.say('It is not your turn.', 'error'); return false; }
    let r;
    if (DICE_GAMES.has(v.game)) {
      r = v.dice && t.includes('/')
        ? T.matchTyped(T.moverBoard(v.board, this.myColor), v.legal, t, v.game === 'never-finishing')
        : (v.legal.find(l => l.toLowerCase() === t.toLowerCase()) ? { text: v.legal.find(l => l.toLowerCase() === t.toLowerCase()) } : { error: `“${t}” is not legal now (legal: ${v.legal.slice(0, 8).join(', ')}${v.legal.length > 8 ? ', …' : ''})` });
    } else if (v.game === 'grasshopper') r = matchTypedGrasshopper(v.legal, t);
    else r = matchTypedHalma(v.legal, t);
    if (r.error) { this.say(r.error, 'error'); return false; }
    this.send(r.text);
    return true;
  }

  // ---- rendering -----------------------------------------------------------------------

  buildLayout() {
    const s = this.summary;
    this.titleEl = h('h1', { class: 'game-title' });
    this.liveEl = h('span', { class: 'live', 'data-testid': 'live', 'aria-live': 'off' });
    this.boardWrap = h('div', { class: 'board-wrap' });
    this.drag = new DragController(this.boardWrap, {
      color: () => this.myColor,
      radius: () => (this.view.game === 'halma-grasshopper' ? 18 : 18.5),
      pick: key => { if (this.selected !== key) { this.selected = key; this.choice = null; this.render(); } },
      drop: key => this.onBoardClick(key),
      cancel: () => { this.selected = null; this.render(); },
    });
    this.playersEl = h('div', { class: 'players', 'data-testid': 'players' });
    this.statusEl = h('p', { class: 'status', 'data-testid': 'status', 'aria-live': 'polite' });
    this.controlsEl = h('div', { class: 'controls', 'data-testid': 'controls' });
    this.messageEl = h('div', { class: 'message', 'data-testid': 'message', role: 'alert' });
    this.hintEl = h('div', { class: 'hint-wrap' });
    this.input = h('input', { type: 'text', 'data-testid': 'move-input', 'aria-label': 'Type a move', autocomplete: 'off', spellcheck: 'false', placeholder: 'type a move, Enter to play' });
    const form = h('form', { class: 'typed', onsubmit: e => { e.preventDefault(); if (this.typed(this.input.value)) this.input.value = ''; } },
      h('label', { for: 'move-input', class: 'sr-only' }, 'Move'), this.input, h('button', { type: 'submit', 'data-testid': 'move-submit' }, 'Play'));
    this.input.id = 'move-input';
    this.formEl = form;
    this.joinEl = h('div', { class: 'join' });
    this.overEl = h('div', { class: 'over' });
    this.movesEl = h('div', { class: 'move-list', 'data-testid': 'move-list', 'aria-label': 'Moves', role: 'region', tabindex: 0 });
    this.linksEl = h('p', { class: 'links' });
    this.chat = new ChatPanel(this.id, () => this.myColor);
    this.idsEl = h('div', { class: 'position-ids small', 'data-testid': 'position-ids' });
    // "Describe board": the position in words, in a live region (js/describe.js)
    this.descriptionEl = h('div', { class: 'board-description', id: 'board-description', 'data-testid': 'board-description', 'aria-live': 'polite' });
    this.describeButton = h('button', { type: 'button', 'data-testid': 'describe-board', 'aria-expanded': 'false', 'aria-controls': 'board-description',
      onclick: () => { this.describing = !this.describing; this.renderDescription(); } }, 'Describe board');
    clear(this.root).append(
      h('div', { class: 'game-head' }, this.titleEl, h('span', { class: 'head-links' },
        h('a', { href: `/rules/${s.game}`, target: '_blank', rel: 'noopener', 'data-testid': 'rules-link' }, 'Rules',
          h('span', { class: 'sr-only' }, ` of ${GAME_NAMES[s.game]} (opens in a new tab)`)), this.liveEl)),
      h('section', { class: 'game', 'data-testid': 'game-page', 'data-game': s.game },
        h('div', { class: 'board-col' }, this.boardWrap, h('div', { class: 'describe' }, this.describeButton, this.descriptionEl), this.idsEl),
        h('aside', { class: 'side' }, this.playersEl, this.statusEl, this.joinEl, this.controlsEl, this.hintEl, this.messageEl, form, this.overEl,
          h('h2', { class: 'small' }, 'Moves'), this.movesEl, this.chat.root, this.linksEl)));
  }

  render() {
    if (!this.boardWrap || !this.view) return;
    const s = this.summary, v = this.shown;
    // "Your move - Tabula" while it is your turn, and a tone when it begins (Preferences)
    const yourTurn = !!(this.myDecision() || this.myRollDue());
    document.title = turnTitle(yourTurn, prefs.get('turn_title'), `${GAME_NAMES[s.game]} — Tabula`);
    if (yourTurn && this.wasYourTurn === false && prefs.get('turn_sound')) tone();
    this.wasYourTurn = yourTurn;
    const optText = [];
    if (v.match_length) optText.push(`match to ${v.match_length}`);
    else if (DICE_GAMES.has(v.game)) optText.push('money game');
    if (v.game_number && DICE_GAMES.has(v.game)) optText.push(`game ${v.game_number}`);
    if (v.game === 'grasshopper') optText.push(`${v.checkers} checkers each`);
    if (v.game === 'halma-grasshopper') {
      optText.push(`${v.size}×${v.size}`, `ply ${v.ply} of ${v.ply_limit}`,
        v.evacuation ? `evacuate by move ${v.evacuation}` : 'no evacuation rule');
    }
    if (v.clock) optText.push(`clock ${v.clock.describe}`);
    this.titleEl.textContent = `${GAME_NAMES[s.game]}` + (optText.length ? ` · ${optText.join(' · ')}` : '');
    this.renderBoard();
    this.renderPlayers();
    this.statusEl.textContent = describeStatus(v, s, this.myColor);
    this.statusEl.setAttribute('data-version', String(this.version));
    this.renderJoin();
    this.renderControls();
    this.renderHint();
    this.renderMessage();
    this.formEl.hidden = !this.myColor || s.state !== 'playing' || !!this.between;
    this.renderOver();
    this.renderMoves();
    clear(this.linksEl).append(
      h('a', { href: `/replay/${this.id}`, 'data-link': true, 'data-testid': 'replay-link' },
        s.game === 'backgammon' && s.state === 'finished' ? 'Replay and analysis' : 'Replay'), ' · ',
      h('a', { href: `/api/games/${this.id}/export` }, 'Export (text)'),
      ...(s.game === 'backgammon' ? [' · ', h('a', { href: `/api/games/${this.id}/export?format=mat` }, '.mat for gnubg')] : []));
    this.maybeAutoRoll();
    this.maybeAutoPlay();
  }

  lastAction() {
    let last = null;
    for (const [ver, e] of this.events) if (ver <= this.version && e.kind === 'action' && (!last || ver > last.version)) last = e;
    return last;
  }

  /** The last play of the current game (not a cube action or a roll decision) and the roll
   * it played: it stays drawn, with its dice, until the next play is made. */
  lastPlay() {
    const games = (this.view && this.view.games) || [];
    const since = games.length && games[games.length - 1].version != null ? games[games.length - 1].version : 0;
    let play = null, roll = null, lastRoll = null;
    for (const [ver, e] of [...this.events.entries()].sort((a, b) => a[0] - b[0])) {
      if (ver > this.version || ver <= since) continue;
      if (e.kind === 'roll') lastRoll = { version: ver, payload: e.payload };
      else if (e.kind === 'action' && e.payload.includes('/')) { play = { version: ver, ...e }; roll = lastRoll; }
    }
    return play ? { play, dice: roll ? roll.payload.split('-').map(Number) : null } : null;
  }

  renderBoard() {
    if (this.animating) return; // the opponent's move is being shown; its end draws the board
    const v = this.shown, s = this.summary;
    const bottom = this.myColor || 'white';
    const it = this.interaction();
    // after a re-render, keyboard users keep their place on the board
    const focused = this.keyboard && document.activeElement && document.activeElement.getAttribute && document.activeElement.getAttribute('data-testid');
    const onBoard = !!focused && this.boardWrap.contains(document.activeElement);
    const last = this.between ? null : this.lastAction();
    let svg;
    if (DICE_GAMES.has(v.game)) {
      const turn = this.tablesTurn();
      const board = turn ? viewBoardOf(turn.board, this.myColor) : v.board;
      let diceUsed = null;
      if (turn && v.dice) {
        const left = turn.diceLeft.slice();
        diceUsed = T.diceList(v.dice).map(d => {
          const i = left.indexOf(d);
          if (i >= 0) { left.splice(i, 1); return false; }
          return true;
        });
        if (v.dice[0] !== v.dice[1] && v.dice[0] < v.dice[1]) diceUsed.reverse();
      }
      // The last play stays drawn (with its dice, greyed, when no dice are out) until the
      // next play is made: the opponent's move is seen whatever the player clicks meanwhile.
      let lastMove = null, dice = v.dice, diceSide = v.turn;
      const lp = this.between ? null : this.lastPlay();
      if (lp && !turn?.stepsTaken) {
        lastMove = { actor: lp.play.actor, segments: T.playSegments(lp.play.payload, lp.play.actor) };
        if (!dice && lp.dice) { dice = lp.dice; diceSide = lp.play.actor; diceUsed = T.diceList(lp.dice).map(() => true); }
      }
      const hintMove = turn?.stepsTaken ? null : this.hintArrows();
      const dests = new Set(it.dests);
      if (this.choice) dests.add(this.tablesKey(this.choice[0].to));
      svg = drawTables({
        board, bottom, dice, diceUsed, diceSide,
        cube: v.game === 'backgammon' ? v.cube : null, crawford: v.crawford_game, offer: cubeOffer(v),
        sources: it.sources, dests, selected: this.selected, last: lastMove, hint: hintMove,
        diceAction: this.diceAction(turn),
        homeLeft: prefs.get('orientation') === 'home-left',
        onClick: k => this.onBoardClick(k),
        label: this.between
          ? `${GAME_NAMES[v.game]} board, ${cap(bottom)} at the bottom; the final position of game ${this.between.number}`
          : `${GAME_NAMES[v.game]} board, ${cap(bottom)} at the bottom; position ${v.notation}`,
      });
      this.displayBoard = board;
    } else if (v.game === 'grasshopper') {
      let lastMove = null;
      if (last) {
        const k = actionKeys(last.payload, last.actor);
        if (k) lastMove = k;
      }
      svg = drawGrasshopper({ view: v, sources: it.sources, dests: it.dests, selected: this.selected, last: lastMove, onClick: k => this.onBoardClick(k), label: `Grasshopper board; position ${v.notation}` });
    } else {
      const lastMove = last && moveEnds(last.payload) ? { actor: last.actor, path: moveEnds(last.payload).path } : null;
      svg = drawHalma({ view: v, bottom, sources: it.sources, dests: it.dests, selected: this.selected, last: lastMove, onClick: k => this.onBoardClick(k), label: `Halma board, ${cap(bottom)} at the bottom; position ${v.notation}` });
    }
    svg.setAttribute('data-version', String(this.version));
    svg.setAttribute('data-game', v.game);
    svg.setAttribute('data-state', s.state);
    svg.setAttribute('data-animations', String(this.animations));
    if (this.between) svg.setAttribute('data-final-of-game', String(this.between.number));
    clear(this.boardWrap).append(svg);
    if (focused) {
      const again = this.boardWrap.querySelector(`[data-testid="${focused}"]`);
      // keyboard: a checker just picked hands the focus to its first destination; a point no
      // longer of use hands it on to what is left to do (a destination, a checker, Confirm)
      const dest = this.boardWrap.querySelector('[data-dest]');
      if (again && this.selected && again.getAttribute('data-key') === this.selected && dest) dest.focus();
      else if (again && again.getAttribute('tabindex') !== '-1') again.focus();
      else if (onBoard) this.focusNext(again);
    }
    this.renderDescription();
    this.renderIds();
  }

  /**
   * Keyboard focus for what is left to do on the board, else the first enabled control (else
   * it stays on `keep`, the point it was on, so that Tab goes on from there).
   */
  focusNext(keep) {
    const next = this.boardWrap.querySelector('[data-dest]') || this.boardWrap.querySelector('[data-source]');
    if (next) { next.focus(); return; }
    if (keep) keep.focus();
    // the controls are drawn just after the board
    queueMicrotask(() => {
      const c = this.controlsEl.querySelector('[data-testid=confirm]:not(:disabled)') || this.controlsEl.querySelector('button:not(:disabled)');
      if (c) c.focus();
    });
  }

  /** What tapping the dice does (a big target on a phone): confirm the move built, or roll. */
  diceAction(turn) {
    if (this.busy || this.between || this.choice || !this.view) return null;
    const chosen = turn && turn.chosen();
    if (chosen) return { label: `confirm ${chosen}`, run: () => this.send(chosen) };
    if (this.myRollDue()) return { label: 'roll', run: () => this.roll() };
    if (this.myDecision() && this.view.legal.includes('roll')) return { label: 'roll', run: () => this.send('roll') };
    return null;
  }

  /** A backgammon position's XGID and gnubg ID, with a link to the analysis board: in practice
   * (unrated) games at any time, in the others once they are over. */
  renderIds() {
    if (!this.idsEl) return;
    const v = this.shown, s = this.summary;
    const open = s && (s.state === 'finished' || s.rated === false);
    if (!v || v.game !== 'backgammon' || !v.xgid || !open) { clear(this.idsEl); return; }
    clear(this.idsEl).append(positionIds(v));
  }

  /** "Describe board": the position in words while the player asks for it (js/describe.js). */
  renderDescription() {
    if (!this.descriptionEl) return;
    this.describeButton.textContent = this.describing ? 'Hide description' : 'Describe board';
    this.describeButton.setAttribute('aria-expanded', String(!!this.describing));
    if (!this.describing || !this.view) { clear(this.descriptionEl); delete this.descriptionEl.dataset.text; return; }
    const v = this.shown, s = this.summary;
    const turn = DICE_GAMES.has(v.game) && !this.between ? this.tablesTurn() : null;
    const lines = describeBoard(v, {
      bottom: this.myColor || 'white', me: this.myColor,
      names: { white: s.white ? playerName(s.white) : 'empty seat', black: s.black ? playerName(s.black) : 'empty seat' },
      board: turn ? this.displayBoard : null, diceLeft: turn ? turn.diceLeft : null,
      status: describeStatus(v, s, this.myColor),
    });
    const text = lines.join('\n');
    if (this.descriptionEl.dataset.text === text) return; // unchanged: not announced again
    this.descriptionEl.dataset.text = text;
    clear(this.descriptionEl).append(...lines.map(l => h('p', {}, l)));
  }

  renderPlayers() {
    const s = this.summary, v = this.shown;
    const rows = [];
    const pips = DICE_GAMES.has(v.game) ? pipCounts(this.displayBoard || v.board) : null;
    const toMove = v.status.status === 'decide' ? v.status.player : v.status.status === 'chance' && v.status.kind === 'roll' ? v.status.player : null;
    for (const c of ['white', 'black']) {
      const bits = [];
      if (pips) bits.push(h('span', { class: 'pips', 'data-testid': `pips-${c}` }, `pips ${pips[c]}`));
      if (v.score) {
        const scorer = v.game === 'grasshopper' && v.last_scorer === c;
        bits.push(h('span', { class: 'score' + (scorer ? ' last-scorer' : ''), 'data-testid': `score-${c}`, title: scorer ? 'scored last' : undefined },
          `score ${v.score[c]}${v.match_length ? `/${v.match_length}` : ''}${scorer ? ' ★ scored last' : ''}`));
      }
      if (v.game === 'grasshopper') bits.push(h('span', {}, `hand ${v.hand[c]}`));
      if (v.game === 'halma-grasshopper' && v.draw_offer === c) bits.push(h('span', { class: 'badge' }, 'offers a draw'));
      // the clock (a timer: read on demand, not announced at every tick; tickClocks fills it)
      this.clockEls[c] = this.clockBase ? h('span', { class: 'clock', role: 'timer', 'data-testid': `clock-${c}` },
        h('span', { class: 'clock-time', 'aria-hidden': 'true' }), h('span', { class: 'clock-delay', 'aria-hidden': 'true' })) : null;
      rows.push(h('div', { class: 'player' + (toMove === c && s.state === 'playing' ? ' to-move' : ''), 'data-testid': `player-${c}` },
        h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }),
        h('span', { class: 'who' }, playerLink(s[c]), c === this.myColor ? h('span', { class: 'badge' }, 'you') : null),
        this.clockEls[c], ...bits));
    }
    if (v.game === 'backgammon' && v.crawford_game) rows.push(h('div', { class: 'badge crawford-badge', 'data-testid': 'crawford-game' }, 'Crawford game: no doubling'));
    const offer = cubeOffer(v);
    if (offer) rows.push(h('div', { class: 'small cube-offer-note', 'data-testid': 'cube-offer' }, `${seatName(s, offer.by)} doubles to ${offer.value}: ${seatName(s, offer.to)} must take or drop (the cube was at ${v.cube.value}${v.cube.owner ? `, owned by ${v.cube.owner}` : ', centred'}).`));
    else if (v.game === 'backgammon' && v.cube) rows.push(h('div', { class: 'muted small' }, `cube ${v.cube.value}` + (v.cube.owner ? `, owned by ${v.cube.owner}` : ', centred')));
    clear(this.playersEl).append(...rows);
    this.tickClocks();
  }

  /**
   * The clocks now: from the last view's `clock`, the time since it arrived spent on the
   * running player's delay first, then their reserve (never below 0:00). The reserve shows as
   * m:ss (h:mm:ss from an hour), the delay left as "delay 8"; the running clock is
   * highlighted, and under 10 s of reserve with no delay left it turns red. The server ends
   * the game when a reserve is gone; its push brings the new view.
   */
  tickClocks() {
    const base = this.clockBase;
    if (!base) return;
    const finished = this.summary && this.summary.state !== 'playing';
    const now = clockNow(base.clock, finished ? 0 : performance.now() - base.at);
    const name = c => (this.summary && this.summary[c] ? playerName(this.summary[c]) : cap(c));
    for (const c of ['white', 'black']) {
      const el = this.clockEls[c];
      if (!el) continue;
      const running = now.running === c && !finished;
      const ms = now[c], delay = running ? now.delayLeft : 0;
      const low = ms < LOW_MS && delay <= 0;
      // the warning at 10 s, once a turn: a tone (if wanted) and a line read out
      if (low && running && c === this.myColor && this.lowWarned !== this.version) {
        this.lowWarned = this.version;
        if (prefs.get('turn_sound')) tone(true);
        this.say('10 seconds left on your clock.', 'error');
      }
      const time = formatClock(ms);
      const delayText = delay > 0 ? `delay ${Math.ceil(delay / 1000)}` : '';
      const cls = 'clock' + (running ? ' running' : '') + (low ? ' low' : '');
      if (el.className !== cls) el.className = cls;
      el.firstChild.textContent = time;
      el.lastChild.textContent = delayText;
      el.dataset.ms = String(Math.round(ms));
      el.dataset.running = running ? 'true' : 'false';
      el.dataset.delayMs = String(Math.round(delay));
      const label = `${name(c)}'s clock: ${clockWords(ms)} left` + (running ? (delay > 0 ? `, running; ${Math.ceil(delay / 1000)} s of delay left first` : ', running') : '') +
        (low ? ', low on time' : '');
      if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
    }
  }

  renderJoin() {
    const s = this.summary;
    // the guest form is kept as it is across re-renders, or what was typed in it would be lost
    if (s.state === 'waiting' && !this.myColor && !this.me && this.guestJoinForm && this.joinEl.contains(this.guestJoinForm)) return;
    clear(this.joinEl);
    if (s.state !== 'waiting') return;
    if (this.myColor) {
      if (s.invite_code) {
        const link = `${location.origin}/game/${this.id}?invite=${s.invite_code}`;
        const input = h('input', { type: 'text', readonly: true, value: link, 'data-testid': 'invite-link', 'aria-label': 'Invitation link', onfocus: e => e.target.select() });
        this.joinEl.append(h('p', {}, 'Send this link to your opponent:'), h('div', { class: 'row' }, input,
          h('button', { type: 'button', onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(link).then(() => this.say('Link copied.', 'ok'), () => {}); } }, 'Copy')));
      }
      return;
    }
    if (!this.me) {
      const nick = h('input', { type: 'text', required: true, maxlength: 32, 'data-testid': 'guest-name', 'aria-label': 'Nickname', placeholder: 'nickname' });
      this.guestJoinForm = h('form', { class: 'row', onsubmit: e => { e.preventDefault(); this.guestAndJoin(nick.value); } },
        h('label', {}, 'Play as guest: ', nick), h('button', { type: 'submit', 'data-testid': 'guest-submit' }, 'Join'));
      this.joinEl.append(this.guestJoinForm,
        h('p', { class: 'small' }, 'or ', h('a', { href: `/login?next=${encodeURIComponent(location.pathname + location.search)}`, 'data-link': true }, 'log in or register'), ' first.'));
      return;
    }
    this.joinEl.append(h('button', { type: 'button', class: 'primary', 'data-testid': 'join-game', onclick: () => this.join() }, 'Take the empty seat'));
  }

  button(label, testid, onclick, opts = {}) {
    return h('button', { type: 'button', 'data-testid': testid, class: opts.primary ? 'primary' : '', disabled: this.busy || opts.disabled, onclick, title: opts.title }, label);
  }

  renderControls() {
    const el = clear(this.controlsEl);
    const v = this.view;
    if (!v || this.summary.state !== 'playing' || !this.myColor || this.between || this.animating) return;
    const legal = new Set(v.legal);
    if (this.myRollDue()) {
      el.append(this.button('Roll', 'roll', () => this.roll(), { primary: true }));
    }
    const leave = this.leaveControls();
    if (!this.myDecision()) { el.append(...leave); return; }
    const buttons = [];
    if (legal.has('roll')) buttons.push(this.button('Roll', 'roll', () => this.send('roll'), { primary: true }));
    if (legal.has('double')) buttons.push(this.button(`Double to ${v.cube ? v.cube.value * 2 : 2}`, 'double', () => this.send('double')));
    if (legal.has('take')) buttons.push(this.button('Take', 'take', () => this.send('take'), { primary: true }));
    if (legal.has('beaver')) buttons.push(this.button('Beaver', 'beaver', () => this.send('beaver')));
    if (legal.has('drop')) buttons.push(this.button('Drop', 'drop', () => this.send('drop')));
    if (legal.has('accept')) buttons.push(this.button('Accept resignation', 'accept', () => this.send('accept'), { primary: true }));
    if (legal.has('reject')) buttons.push(this.button('Reject resignation', 'reject', () => this.send('reject')));
    const turn = this.tablesTurn();
    if (turn) {
      const chosen = turn.chosen();
      if (this.choice) {
        const to = this.choice[0].to;
        buttons.push(h('div', { class: 'choice', role: 'group', 'aria-label': 'Hit or trap' },
          h('span', {}, `The blot on ${to}: `),
          this.button('Hit (*)', 'choose-hit', () => this.pick('hit'), { primary: true }),
          this.button('Trap (^)', 'choose-trap', () => this.pick('trap')),
          this.button('Cancel', 'choose-cancel', () => { this.choice = null; this.render(); })));
      }
      buttons.push(this.button(chosen ? `Confirm ${chosen}` : 'Confirm', 'confirm', () => chosen && this.send(chosen), { primary: true, disabled: !chosen }));
      buttons.push(this.button('Undo', 'undo', () => { turn.undo(); this.selected = null; this.choice = null; this.render(); }, { disabled: !turn.stepsTaken }));
      const hint = turn.stepsTaken ? '' : `${turn.plays.length} legal play${turn.plays.length === 1 ? '' : 's'}: click a checker, then where it goes.`;
      if (hint) buttons.push(h('p', { class: 'hint small' }, hint));
    } else if (v.status.decision === 'move' && !DICE_GAMES.has(v.game)) {
      if (this.selected) buttons.push(h('p', { class: 'hint small' }, 'Click a highlighted destination (Esc to cancel).'));
      else if (v.legal.some(t => t !== 'pass' && !t.includes('draw'))) buttons.push(h('p', { class: 'hint small' }, v.game === 'grasshopper' ? 'Click a checker (or your hand), then its destination.' : 'Click a piece, then its destination.'));
    }
    if (legal.has('pass')) buttons.push(this.button('Pass', 'pass', () => this.send('pass'), { primary: true }));
    if (legal.has('accept-draw')) buttons.push(this.button('Accept the draw', 'accept-draw', () => this.send('accept-draw')));
    if (legal.has('offer-draw')) buttons.push(this.button('Offer a draw', 'offer-draw', () => this.send('offer-draw')));
    const resigns = v.legal.filter(t => t.startsWith('resign '));
    if (this.hintOffered()) {
      const loading = !!(this.hint && this.hint.version === this.version && this.hint.loading);
      buttons.push(this.button(loading ? 'Hint…' : 'Hint', 'hint', () => this.askHint(),
        { disabled: loading, title: 'Ask the server for the best plays or the cube decision here' }));
    }
    if (resigns.length) {
      if (!this.showResign) buttons.push(this.button('Resign…', 'resign', () => { this.showResign = true; this.render(); }));
      else buttons.push(h('div', { class: 'choice', role: 'group', 'aria-label': 'Resign' }, 'Resign: ',
        ...resigns.map(t => this.button(t.slice(7), `resign-${t.slice(7)}`, () => this.send(t))),
        this.button('Cancel', 'resign-cancel', () => { this.showResign = false; this.render(); })));
    }
    el.append(...buttons, ...leave);
  }

  /**
   * Leaving the game, whoever's turn it is: **Abort** in a game that is not rated before one's
   * own first move (no result); **Resign…** in the games whose rules have no resignation
   * (Never-Finishing, Grasshopper, Halma), confirmed once with what it costs. Backgammon
   * resigns through its own actions (the Resign… of the decision, above).
   */
  leaveControls() {
    const v = this.view, me = this.myColor, out = [];
    const leave = v.leave || { resign: null, abort: [] };
    if (leave.abort.includes(me)) {
      out.push(this.button('Abort', 'abort', () => this.endGame('abort'),
        { title: 'Call the game off before your first move: no result, and it leaves your games' }));
    }
    if (!leave.resign) return out; // backgammon resigns through its own actions
    if (!this.showResign) {
      out.push(this.button('Resign…', 'resign', () => { this.showResign = true; this.render(); }));
      return out;
    }
    out.push(h('div', { class: 'choice', role: 'group', 'aria-label': 'Resign' },
      h('span', { 'data-testid': 'resign-cost' }, `Resign: ${resignCost(leave.resign[me], v.game, this.summary.options)}. `),
      this.button('Resign', 'resign-confirm', () => this.endGame('resign'), { primary: true }),
      this.button('Cancel', 'resign-cancel', () => { this.showResign = false; this.render(); })));
    return out;
  }

  /** Resigns (`resign`) or aborts (`abort`) the game through the server. */
  async endGame(what) {
    if (this.busy) return;
    this.busy = true;
    this.renderControls();
    try {
      const g = await post(`/api/games/${this.id}/${what}`, { version: this.version });
      this.busy = false;
      this.showResign = false;
      this.summary.state = g.state;
      this.applyGameView(g);
    } catch (e) {
      this.busy = false;
      this.say(`The server refused to ${what}: ${e.message}`, 'error');
      this.render();
    }
  }

  pick(effect) {
    const m = this.choice && this.choice.find(x => x.effect === effect);
    if (!m) return;
    this.tablesTurn().play(m);
    this.choice = null;
    this.selected = null;
    this.render();
  }

  renderMessage() {
    clear(this.messageEl);
    if (this.message) {
      this.messageEl.className = 'message ' + this.message.kind;
      this.messageEl.textContent = this.message.text;
    } else this.messageEl.className = 'message';
  }

  /** A game of the match just ended: why, the score, and the button to go on. */
  renderBetween() {
    const b = this.between, v = this.view;
    if (!b) return;
    const total = v.match_length ? `Score: ${scoreLine(b.score, this.summary, v.match_length)}.` : '';
    this.overEl.append(h('div', { class: 'between', role: 'status', 'data-testid': 'match-game-over', 'data-code': b.code, 'data-game-number': b.number },
      h('p', { class: 'result' }, h('strong', {}, `Game ${b.number}: `), b.sentence, ...this.ruleNote(b.code, true)),
      total ? h('p', { 'data-testid': 'match-score' }, total) : null,
      h('p', { class: 'small muted' }, `The board shows how game ${b.number} ended; game ${b.number + 1} has begun.`),
      h('button', { type: 'button', class: 'primary', 'data-testid': 'next-game', onclick: () => this.nextGame() }, `Next game (game ${b.number + 1})`)));
  }

  /** " (the rule)" after a result sentence: a link to the rule that ended the game (js/rules.js). */
  ruleNote(code, newTab = false, testid = 'end-rule-link') {
    const a = code ? ruleLink(this.summary.game, code, { testid, newTab }) : null;
    return a ? [h('span', { class: 'rule-note' }, ' (', a, ')')] : [];
  }

  renderOver() {
    const s = this.summary, v = this.view;
    clear(this.overEl);
    if (this.animating) return; // told once the move that ended the game has been shown
    this.renderBetween();
    if (s.state === 'aborted') {
      // called off: no result, no rematch
      this.overEl.append(h('p', { class: 'result', 'data-testid': 'game-over', 'data-code': 'aborted' },
        v.result ? v.result.sentence : 'The game was aborted.', ' ', h('a', { href: '/', 'data-link': true }, 'Back to the lobby')));
      return;
    }
    if (s.state !== 'finished') return;
    const st = v.status;
    const r = v.result;
    const winner = (r ? r.winner : null) || s.winner || (st.status === 'over' ? st.winner : null);
    const pts = s.points ?? st.points;
    const mine = this.myColor && winner ? (winner === this.myColor ? 'You win' : 'You lose') : null;
    const text = r ? r.sentence : (winner ? `${cap(winner)} wins ${pts} point${pts === 1 ? '' : 's'}.` : 'Drawn.');
    this.overEl.append(h('p', { class: 'result', 'data-testid': 'game-over', 'data-code': r ? r.code : null }, `Game over: ${text}`, mine ? ` ${mine}.` : '',
      ...this.ruleNote(r && r.code)));
    const games = v.games || [];
    if (games.length > 1) {
      this.overEl.append(h('ol', { class: 'match-games small', 'data-testid': 'match-games', 'aria-label': 'The games of the match' },
        ...games.map(g => h('li', { value: g.number, 'data-code': g.code }, `${g.sentence} (${scoreLine(g.score, s)})`,
          ...this.ruleNote(g.code, false, 'game-rule-link')))));
    }
    // What next: a rematch, the same options and clock with the colours swapped (POST
    // /rematch): against a bot at once ("Play again"), against a person once both ask; or the lobby.
    const opp = this.myColor ? s[other(this.myColor)] : null;
    const again = [];
    if (opp && opp.kind === 'bot') {
      again.push(h('button', { type: 'button', class: 'primary', 'data-testid': 'play-again', onclick: async e => {
        e.target.disabled = true;
        try {
          const r = await post(`/api/games/${this.id}/rematch`, {});
          if (!r.game) throw new Error('no game was started');
          this.app.navigate(`/game/${r.game}`);
        } catch (err) { e.target.disabled = false; this.say(`The server refused: ${err.message}`, 'error'); }
      } }, `Play again (as ${other(this.myColor)})`));
    } else if (s.white && s.black && s.white.kind !== 'bot' && s.black.kind !== 'bot') {
      const box = this.rematchBox();
      if (box) this.overEl.append(box);
      this.syncRematchPoll();
    }
    again.push(h('a', { href: '/', 'data-link': true, class: 'button', 'data-testid': 'new-game' }, 'New game'));
    this.overEl.append(h('p', { class: 'again' }, ...again.flatMap((x, i) => (i ? [' ', x] : [x]))));
    if (DICE_GAMES.has(s.game)) {
      const d = s.dice;
      const body = d && d.server_seed
        ? h('p', { class: 'verify small', 'data-testid': 'dice-verify' },
          'Dice verifiable: the seed is revealed, commitment ', h('code', {}, d.commitment), '; check with ',
          h('code', {}, 'tabula verify-dice'), ' on ', h('a', { href: `/api/games/${this.id}` }, 'this game\'s record'),
          ` (${d.rolls.length} rolls).`)
        : h('p', { class: 'verify small muted', 'data-testid': 'dice-verify' }, `Dice commitment ${s.commitment}; the seed is being fetched…`);
      this.overEl.append(h('details', { class: 'verify-details' }, h('summary', { class: 'small' }, 'Dice verification'), body));
    }
  }

  /** Catch-up events come in bursts: draw the list once per burst. */
  scheduleMoves() {
    if (this.movesTimer) return;
    this.movesTimer = setTimeout(() => { this.movesTimer = null; this.renderMoves(); }, 0);
  }

  renderMoves() {
    if (!this.movesEl) return;
    const list = [...this.events.entries()].filter(([ver]) => ver <= this.version).sort((a, b) => a[0] - b[0]);
    const lastAction = this.lastAction();
    const wasAtEnd = this.movesEl.scrollTop + this.movesEl.clientHeight >= this.movesEl.scrollHeight - 4;
    const g = this.summary.game;
    const format = p => (g === 'grasshopper' && /\d/.test(p) ? `${p} (${p.match(/\d+/g).map(n => ghLabel(Number(n))).join('–')})` : p);
    const kinds = { white: this.summary.white && this.summary.white.kind, black: this.summary.black && this.summary.black.kind };
    const games = buildMoveList(list, g, (this.view && this.view.games) || [], this.summary.options || {}, format, kinds);
    const joins = list.filter(([, e]) => e.kind === 'join').map(([ver, e]) => {
      const seat = this.summary[e.actor];
      return h('li', { 'data-version': ver }, `${cap(e.actor || '?')} joins: ${seat && seat.id === e.payload ? playerName(seat) : 'a player'}`);
    });
    const names = { white: this.summary.white ? playerName(this.summary.white) : 'White', black: this.summary.black ? playerName(this.summary.black) : 'Black' };
    clear(this.movesEl).append(
      ...(joins.length ? [h('ul', { class: 'joins small muted' }, joins)] : []),
      ...renderMoveList(games, { game: g, matchLength: this.summary.options ? this.summary.options.match_length : 0, lastVersion: lastAction ? lastAction.version : null, names }));
    this.movesEl.dataset.version = String(list.length ? list[list.length - 1][0] : 0);
    if (wasAtEnd || list.length < 3) this.movesEl.scrollTop = this.movesEl.scrollHeight;
  }
}
