// The analysis of a finished backgammon or Never-Finishing game, shown on its replay page (docs/protocol.md,
// "Analysis"): the Analyse button, the progress while the server's job runs (pushed as
// `analysis` messages on the game's WebSocket, or polled every second when the socket is
// down), and the report: both players' error rates and ratings, the equity graph across the
// game, and for each decision its mark, its error and the best play (drawn on the board by
// playing the best play's text on the position before the decision).

import { get, post } from './api.js';
import { h, s, clear, cap, clickable } from './dom.js';
import { moverBoard, playBoard, whiteBoard } from './tables-logic.js';
import { formatChance } from './hint.js';

/** gnubg's marks as chess-style symbols. */
export const MARKS = { 'doubtful': '?!', 'bad': '?', 'very bad': '??' };
export const markClass = mark => 'mark-' + mark.replace(/\s+/g, '-');

const mEMG = emg => (emg * 1000).toFixed(1);
const signed = (x, digits = 3) => (x < 0 ? '−' : '+') + Math.abs(x).toFixed(digits);

/** The decider's value (`value`) from White's side, for the graph. */
export const whiteValue = d => (d.player === 'black' ? -d.value : d.value);

/** The board (White-numbered, as in a view) after the best play of move decision `d`, from
 * `before` (the view before the decision); null when there is none or it cannot be read. */
export function bestBoard(before, d) {
  if (d.kind !== 'move' || !d.best || !d.best.includes('/')) return null;
  try {
    // Never-Finishing's plays may trap a blot (`^`)
    const trapping = before.game === 'never-finishing';
    return whiteBoard(playBoard(moverBoard(before.board, d.player), d.best, trapping), d.player);
  } catch (e) {
    console.warn('unreadable best play', d.best, e.message);
    return null;
  }
}

const CUBE_VERBS = { 'double': 'doubled', 'no-double': 'did not double', 'take': 'took', 'pass': 'passed' };

/** What was decided, what was best and what it cost, in words. */
export function decisionText(d, name) {
  const who = `${name} (${d.player})`;
  const parts = [];
  if (d.kind === 'move') {
    parts.push(`${who} rolled ${d.dice} and played ${d.played}.`);
    if (!d.counted && d.error === 0) parts.push('It was forced.');
    else if (d.best === d.played || d.error === 0) parts.push('That is the best play.');
    else parts.push(`Best: ${d.best}; equity lost ${d.error.toFixed(3)} EMG (${mEMG(d.error)} mEMG).`);
  } else {
    parts.push(`${who} ${CUBE_VERBS[d.kind] || d.kind}${d.cube > 1 ? ` (cube at ${d.cube})` : ''}.`);
    if (d.proper) parts.push(`Proper cube action: ${d.proper}.`);
    parts.push(d.error > 0 ? `Equity lost ${d.error.toFixed(3)} EMG (${mEMG(d.error)} mEMG).` : 'No equity lost.');
  }
  if (d.mark) parts.push(`Marked ${d.mark} (${MARKS[d.mark]}).`);
  parts.push(`Equity with the right choice: ${signed(d.value)} for ${d.player}.`);
  if (d.luck !== undefined && d.luck !== null) parts.push(`Luck of the roll: ${signed(d.luck)}.`);
  return parts.join(' ');
}

/** A judged play's best plays (at most five) with their differences and chances, the play made marked. */
export function alternativesTable(d) {
  const alts = d.alternatives || [];
  if (d.kind !== 'move' || !alts.length) return null;
  return h('table', { class: 'alternatives', 'data-testid': 'alternatives' },
    h('caption', { class: 'small muted' }, `The best plays of ${d.dice} for ${d.player} (EMG; chances after the play)`),
    h('thead', {}, h('tr', {}, ['#', 'Play', 'Equity', 'Diff', 'Win', 'W g', 'L g'].map((t, i) =>
      h('th', { scope: 'col', class: i > 1 ? 'num' : null }, t)))),
    h('tbody', {}, alts.map((a, i) => h('tr', { 'data-testid': 'alternative', 'data-move': a.move, class: a.played ? 'played' : null },
      h('td', {}, i + 1),
      h('td', { class: 'play' }, a.move, a.played ? h('span', { class: 'small muted' }, ' (played)') : null),
      h('td', { class: 'num' }, signed(a.equity)),
      h('td', { class: 'num' }, i === 0 ? 'best' : `−${Math.abs(a.diff).toFixed(3)}`),
      h('td', { class: 'num' }, formatChance(a.chances.win)),
      h('td', { class: 'num' }, formatChance(a.chances.win_gammon)),
      h('td', { class: 'num' }, formatChance(a.chances.lose_gammon))))));
}

/** The mark and error of a decision, for the event list. */
export function markBadge(d) {
  return h('span', { class: 'judgement' },
    d.mark ? h('span', { class: `mark ${markClass(d.mark)}`, title: d.mark }, ` ${MARKS[d.mark]}`) : null,
    h('span', { class: 'err', 'data-testid': 'analysis-error', title: `equity lost: ${mEMG(d.error)} mEMG` },
      d.error > 0 ? ` −${mEMG(d.error)}` : ' 0'));
}

/** Both players' totals, one column each. */
function playersTable(report) {
  const [white, black] = report.players;
  const rate = (r, n) => (n ? [`${r.toFixed(1)}`, h('small', { class: 'muted' }, ` (${n})`)] : '—');
  const row = (label, f, attrs = {}) => h('tr', {}, h('th', { scope: 'row' }, label),
    [white, black].map(p => h('td', { ...attrs }, f(p))));
  return h('table', { class: 'analysis-players', 'data-testid': 'analysis-players' },
    h('caption', { class: 'small muted' }, 'Error rates in mEMG per decision (decisions counted); luck in EMG'),
    h('thead', {}, h('tr', {}, h('td', {}),
      [white, black].map(p => h('th', { scope: 'col', 'data-colour': p.colour }, h('span', { class: `swatch ${p.colour}` }), ' ', p.name)))),
    h('tbody', {},
      row('Chequer play', p => rate(p.chequer_error_rate, p.chequer_decisions)),
      row('Cube', p => rate(p.cube_error_rate, p.cube_decisions)),
      row('Overall', p => (p.chequer_decisions + p.cube_decisions ? p.overall_error_rate.toFixed(1) : '—')),
      row('Rating', p => p.rating, { 'data-testid': 'analysis-rating', class: 'rating' }),
      row('Luck', p => signed(p.luck)),
      row('Doubtful ?!', p => p.doubtful),
      row('Bad ?', p => p.bad),
      row('Very bad ??', p => p.very_bad)));
}

/**
 * The equity graph: each decision's value from White's side (above the middle line White is
 * ahead), the marked decisions as dots coloured by severity, a dashed line where a game of a
 * match begins. `onSelect(k)` when decision k is clicked. Returns {svg, setCurrent(k)}.
 */
export function equityGraph(decisions, onSelect) {
  const W = 420, H = 150, L = 30, R = 8, T = 10, B = 10;
  const n = decisions.length;
  const values = decisions.map(whiteValue);
  const top = Math.max(1, Math.ceil(Math.max(0, ...values.map(Math.abs))));
  const x = k => L + (n > 1 ? k / (n - 1) : 0.5) * (W - L - R);
  const y = v => T + ((top - v) / (2 * top)) * (H - T - B);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'equity-graph', 'data-testid': 'equity-graph', role: 'group',
    'aria-label': `Equity graph: White's equity at each of the ${n} decisions, from ${signed(-top, 0)} to ${signed(top, 0)}; dots mark errors` });
  svg.append(s('rect', { x: L, y: T, width: W - L - R, height: H - T - B, class: 'graph-bg' }));
  for (const v of [top, 0, -top]) {
    svg.append(s('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v ? 'graph-grid' : 'graph-zero' }));
    svg.append(s('text', { x: L - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'graph-label' }, v ? signed(v, 0) : '0'));
  }
  svg.append(s('text', { x: L + 4, y: T + 12, class: 'graph-label side' }, 'White ahead'));
  svg.append(s('text', { x: L + 4, y: H - B - 4, class: 'graph-label side' }, 'Black ahead'));
  decisions.forEach((d, k) => {
    if (k > 0 && d.game !== decisions[k - 1].game) {
      const gx = (x(k - 1) + x(k)) / 2;
      svg.append(s('line', { x1: gx, x2: gx, y1: T, y2: H - B, class: 'graph-game' }));
      svg.append(s('text', { x: gx + 3, y: H - B - 16, class: 'graph-label' }, `game ${d.game}`));
    }
  });
  const cursor = s('line', { x1: 0, x2: 0, y1: T, y2: H - B, class: 'graph-current', visibility: 'hidden', 'data-testid': 'graph-current' });
  svg.append(cursor);
  // one column per decision, to pick it with the mouse (the marked dots take the keyboard)
  const dx = n > 1 ? (W - L - R) / (n - 1) : W - L - R;
  decisions.forEach((d, k) => {
    const col = s('rect', { x: x(k) - dx / 2, y: T, width: dx, height: H - T - B, class: 'graph-hit' },
      s('title', {}, `${cap(d.player)} ${d.kind}${d.dice ? ' ' + d.dice : ''}: ${signed(values[k])}`));
    col.addEventListener('click', () => onSelect(k));
    svg.append(col);
  });
  svg.append(s('polyline', { points: values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(' '), class: 'equity-line' }));
  decisions.forEach((d, k) => {
    if (!d.mark) return;
    const dot = s('circle', { cx: x(k), cy: y(values[k]), r: 4.5, class: `graph-dot ${markClass(d.mark)}`, 'data-mark': d.mark });
    clickable(dot, `${cap(d.player)}: ${d.played || d.kind}, ${d.mark}, −${mEMG(d.error)} mEMG`, () => onSelect(k));
    svg.append(dot);
  });
  return {
    svg,
    setCurrent(k) {
      if (k === null || k < 0) { cursor.setAttribute('visibility', 'hidden'); return; }
      cursor.setAttribute('x1', x(k));
      cursor.setAttribute('x2', x(k));
      cursor.setAttribute('visibility', 'visible');
    },
  };
}

/**
 * The analysis card of a replay page. `version`: the game's version (the WebSocket's
 * `since`); `onReport(report)` once the report is there (at once when it already exists);
 * `onSelect(k)` when the graph picks decision k. `el` is the card; `destroy()` stops the
 * watching.
 */
export class AnalysisPanel {
  constructor(app, id, version, { onReport, onSelect }) {
    this.app = app;
    this.id = id;
    this.version = version;
    this.onReport = onReport;
    this.onSelect = onSelect;
    this.report = null;
    this.closed = false;
    this.ws = null;
    this.pollTimer = null;
    this.safetyTimer = null;
    this.body = h('div', { class: 'analysis-body' });
    this.el = h('section', { class: 'card analysis', 'data-testid': 'analysis' }, h('h2', {}, 'Analysis'), this.body);
    this.graph = null;
  }

  async start() {
    try {
      this.apply(await get(`/api/games/${this.id}/analysis`));
    } catch (e) {
      if (e.code === 'no_analysis') this.offer();
      else this.offer(`The analysis cannot be read: ${e.message}`);
    }
  }

  destroy() {
    this.closed = true;
    this.stop();
  }

  /** The Analyse button, with a message above it (a failure, a refusal). */
  offer(message, loginLink = false) {
    const button = h('button', { type: 'button', class: 'primary', 'data-testid': 'analyse', onclick: () => this.request(button) }, 'Analyse');
    // (the DOM's append writes a null as the text "null": only elements go in)
    clear(this.body).append(...[
      message ? h('p', { class: 'message error', role: 'alert', 'data-testid': 'analysis-message' }, message,
        loginLink ? [' ', h('a', { href: `/login?next=${encodeURIComponent(location.pathname)}`, 'data-link': true }, 'Log in or play as a guest')] : null) : null,
      h('p', { class: 'small muted' }, 'Have the server judge every chequer play and cube decision of this game with its neural nets: the errors, the luck and a rating for each player.'),
      button].filter(Boolean));
  }

  async request(button) {
    button.disabled = true;
    try {
      this.apply(await post(`/api/games/${this.id}/analysis`));
    } catch (e) {
      if (e.status === 401) this.offer('Only a logged-in player (a guest will do) can ask for an analysis.', true);
      else this.offer(`The server refused the analysis: ${e.message}`);
    }
  }

  /** Shows a job's state: progress, the report, or why it failed. */
  apply(view) {
    if (this.closed || this.report) return;
    if (view.state === 'done' && view.report) {
      this.stop();
      this.showReport(view.report);
    } else if (view.state === 'failed' || view.state === 'done') {
      this.stop();
      this.offer(`The analysis failed: ${view.error || 'the server sent no report'}. You can ask again.`);
      const msg = this.body.querySelector('[data-testid=analysis-message]');
      if (msg) msg.setAttribute('data-testid', 'analysis-failed');
    } else {
      this.progress(view.state, view.done_steps, view.total_steps);
      this.watch();
    }
  }

  progress(state, done, total) {
    const text = state === 'queued' ? 'Queued: waiting for the analyser…'
      : total ? `Analysing: ${done} of ${total} decisions` : 'Analysing: replaying the game…';
    let p = this.body.querySelector('[data-testid=analysis-progress]');
    if (!p) {
      p = h('p', { class: 'analysis-progress', 'data-testid': 'analysis-progress', role: 'status', 'aria-live': 'polite' });
      clear(this.body).append(p, h('progress', { max: 1, value: 0, 'aria-hidden': 'true' }));
    }
    p.textContent = text;
    p.setAttribute('data-state', state);
    const bar = this.body.querySelector('progress');
    if (total) { bar.max = total; bar.value = done; } else bar.removeAttribute('value');
  }

  /** Follows the job: the game's WebSocket, or polling when there is none. */
  watch() {
    if (this.closed || this.ws || this.pollTimer) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    let ws;
    try {
      ws = new WebSocket(`${proto}://${location.host}/api/games/${this.id}/ws?since=${this.version}`);
    } catch (e) {
      this.poll();
      return;
    }
    this.ws = ws;
    ws.onopen = () => this.refresh(); // anything that happened before the socket was open
    ws.onmessage = e => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (msg.type !== 'analysis' || this.report) return;
      if (msg.state === 'running') this.progress('running', msg.done, msg.total);
      else this.refresh(); // done or failed: the report (or the reason) is read over HTTP
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.poll();
    };
    // a push lost on the way must not leave the page waiting forever
    this.safetyTimer = setInterval(() => this.refresh(), 5000);
  }

  poll() {
    if (this.closed || this.report || this.pollTimer) return;
    this.pollTimer = setInterval(() => this.refresh(), 1000);
  }

  async refresh() {
    if (this.closed || this.report) return;
    try {
      this.apply(await get(`/api/games/${this.id}/analysis`));
    } catch (e) { /* the next push or poll tries again */ }
  }

  stop() {
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; ws.close(); }
    clearInterval(this.pollTimer);
    clearInterval(this.safetyTimer);
    this.pollTimer = null;
    this.safetyTimer = null;
  }

  showReport(report) {
    this.report = report;
    const n = report.decisions.length;
    this.graph = equityGraph(report.decisions, k => this.onSelect(k));
    clear(this.body).append(
      h('p', { class: 'small muted', 'data-testid': 'analysis-summary' },
        `${report.plies}-ply analysis of ${n} decision${n === 1 ? '' : 's'}`,
        report.match_length ? ` (${report.match_length}-point match)` : ' (money)',
        report.seconds !== undefined ? `, ${report.seconds.toFixed(1)} s` : '',
        '. Marks in the events: ?! doubtful, ? bad, ?? very bad, with the equity lost in mEMG.'),
      playersTable(report),
      h('h3', { class: 'small' }, 'Equity'),
      this.graph.svg);
    this.onReport(report);
  }
}
