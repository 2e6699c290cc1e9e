// The Hint of the game page (docs/protocol.md, `GET /api/games/{id}/hint`): in an unrated
// backgammon game against a bot (a guest sits at it), the player whose decision it is may ask
// the server for the best plays of the dice (ranked, with their equities and the difference
// to the best) or for the cube decision (the three equities and the proper action). The
// panel is read-only; the page draws the best play on the board as arrows and clears the
// panel when the position changes.

import { h } from './dom.js';

/** Whether the page offers the Hint button at all: a backgammon game, unrated, whose other
 * seat (from `myColor`'s side) is a bot. */
export function hintAllowed(summary, myColor) {
  if (!summary || !myColor || summary.game !== 'backgammon' || summary.rated !== false) return false;
  const opp = summary[myColor === 'white' ? 'black' : 'white'];
  return !!opp && opp.kind === 'bot';
}

/** Whether the decision at hand is one the server gives a hint for. */
export function hintDecision(view) {
  const st = view && view.status;
  if (!st || st.status !== 'decide') return false;
  if (st.decision === 'move') return !!view.dice;
  if (st.decision === 'double-or-roll') return (view.legal || []).includes('double');
  return st.decision === 'take-or-drop';
}

const MINUS = '−';

/** An equity as the panel writes it: money `+0.123` (per unit of cube), mwc `52.3 %`. */
export function formatEquity(x, unit) {
  if (unit === 'mwc') return `${(x * 100).toFixed(1)} %`;
  return (x < 0 ? MINUS : '+') + Math.abs(x).toFixed(3);
}

/** A chance as the panels write it: `52.3 %`. */
export const formatChance = x => `${(x * 100).toFixed(1)} %`;

/** A difference to the best: `best` for none, else `−0.045` (money) or `−1.2 %` (mwc, points of match-winning chance). */
export function formatDiff(d, unit) {
  const shown = unit === 'mwc' ? Math.abs(d * 100).toFixed(1) : Math.abs(d).toFixed(3);
  if (Number(shown) === 0) return 'best';
  return MINUS + shown + (unit === 'mwc' ? ' %' : '');
}

const unitText = unit => (unit === 'mwc' ? 'match-winning chances' : 'money equity per unit of cube');

/**
 * A cube hint given to the player facing a double, turned to their side: the server's
 * equities are the doubler's, so the taker's are their negation (money, per unit of the cube)
 * or their complement (match-winning chances). `proper` is `take`, `drop`, or, in money play
 * when taking wins on average, `take (beaver where allowed)`.
 */
export function takerView(hint) {
  const mine = x => (hint.unit === 'mwc' ? 1 - x : -x);
  const take = mine(hint.double_take), drop = mine(hint.double_drop);
  let proper = take >= drop ? 'take' : 'drop';
  if (proper === 'take' && hint.unit !== 'mwc' && take > 0) proper = 'take (beaver where allowed)';
  return { take, drop, proper };
}

/** The panel's content for a hint answer. */
export function hintBody(hint) {
  const depth = hint.depth || `${hint.plies}-ply`;
  if (hint.kind === 'moves') {
    const moves = hint.moves || [];
    if (!moves.length) return h('p', { class: 'small', 'data-testid': 'hint-empty' }, 'No play to rank: the dice cannot be played.');
    return [
      h('table', { class: 'hint-moves', 'data-testid': 'hint-moves' },
        h('caption', { class: 'small muted' }, `Best plays of ${hint.dice} (${depth}, ${unitText(hint.unit)})`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'Play'),
          h('th', { scope: 'col', class: 'num' }, 'Equity'), h('th', { scope: 'col', class: 'num' }, 'Diff'))),
        h('tbody', {}, moves.map((m, i) => h('tr', {
          'data-testid': 'hint-row', 'data-move': m.move, 'data-diff': m.diff, class: i === 0 ? 'best' : null,
        },
        h('td', {}, m.rank ?? i + 1),
        h('td', { class: 'play' }, m.move),
        h('td', { class: 'num' }, formatEquity(m.equity, hint.unit)),
        h('td', { class: 'num', 'data-testid': 'hint-diff' }, formatDiff(m.diff, hint.unit)))))),
      h('p', { class: 'small muted' }, 'The best play is drawn on the board in green.'),
    ];
  }
  if (hint.kind === 'cube' && hint.answering) {
    // facing a double: the two answers, valued for the player who answers
    const a = takerView(hint);
    const row = (label, x, id) => h('tr', { 'data-answer': id }, h('th', { scope: 'row' }, label), h('td', { class: 'num' }, formatEquity(x, hint.unit)));
    return [
      h('table', { class: 'hint-cube', 'data-testid': 'hint-cube', 'data-answering': 'true' },
        h('caption', { class: 'small muted' }, `Your answer to the double (${depth}, ${unitText(hint.unit)}, for you)`),
        h('tbody', {}, row('Take', a.take, 'take'), row('Drop', a.drop, 'drop'))),
      h('p', { 'data-testid': 'hint-proper' }, 'Proper answer: ', h('strong', {}, a.proper), '.'),
    ];
  }
  if (hint.kind === 'cube') {
    const row = (label, x) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', { class: 'num' }, formatEquity(x, hint.unit)));
    return [
      h('table', { class: 'hint-cube', 'data-testid': 'hint-cube' },
        h('caption', { class: 'small muted' }, `Cube decision (${depth}, ${unitText(hint.unit)}` +
          `${hint.answering ? ', for the player who doubled' : ''})`),
        h('tbody', {}, row('No double', hint.no_double), row('Double, take', hint.double_take), row('Double, drop', hint.double_drop))),
      h('p', { 'data-testid': 'hint-proper' }, 'Proper cube action: ', h('strong', {}, hint.proper), '.'),
    ];
  }
  return h('p', { class: 'small' }, 'The server gave a hint this page cannot read.');
}

/** The panel: `state` is {loading}, {error} or {hint}. */
export function hintPanel(state) {
  let body;
  if (state.loading) body = h('p', { class: 'small muted', role: 'status' }, 'Thinking…');
  else if (state.error) body = h('p', { class: 'message error', 'data-testid': 'hint-error' }, `No hint: ${state.error}`);
  else body = hintBody(state.hint);
  return h('section', { class: 'hint-panel', 'data-testid': 'hint-panel', 'aria-label': 'Hint', 'aria-live': 'polite',
    'data-kind': state.hint ? state.hint.kind : state.error ? 'error' : 'loading' },
  h('h2', { class: 'small' }, 'Hint'), body);
}
