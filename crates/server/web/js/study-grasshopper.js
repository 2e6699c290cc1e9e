// The analysis board for Grasshopper (`/study?game=grasshopper`): a position in Grasshopper's
// notation; its value for the side to move and the best move, exact (win, draw or loss with
// best play, and every move's value) where the endgame table holds the position, else the
// strong bot's search (a proven result, or its score) (docs/client.md, "Analysis board").

import { post, ApiError } from './api.js';
import { h, clear, cap } from './dom.js';
import { drawGrasshopper, actionKeys } from './board-grasshopper.js';
import { gameTabs } from './study-tabs.js';

// a small game's position: White and Black two checkers each, to play from hand
const DEFAULT = '....../....../....../...... w 2-2 0-0 - 2';

/** The verdict of `POST /api/study/grasshopper` in a sentence. */
export function grasshopperVerdict(v) {
  const side = cap(v.to_move);
  if (v.source === 'game over') return 'The game is over.';
  const best = v.best ? ` Best move: ${v.best}.` : '';
  if (v.source === 'endgame table') {
    const how = { win: 'wins', draw: 'draws', loss: 'loses' }[v.value];
    return `Exact: ${side} to move ${how} with best play (endgame table, at most ${v.table_k} checkers a side).${best}`;
  }
  if (v.source === 'search') {
    return `Proven by the search (${v.depth} plies, ${v.nodes.toLocaleString('en')} positions): ${side} to move ${v.value === 'win' ? 'wins' : 'loses'} with best play.${best}`;
  }
  const s = v.score;
  const lead = Math.abs(s) < 0.05 ? 'the sides are level' : `${side} is ${s > 0 ? 'ahead' : 'behind'} by about ${Math.abs(s).toFixed(1)} checker${Math.abs(s) >= 0.95 && Math.abs(s) < 1.05 ? '' : 's'}`;
  return `Not solved here (the endgame table ${v.table_k ? `holds at most ${v.table_k} checkers a side` : 'is not built on this server'}): the strong search (${v.depth} plies) says ${lead}.${v.best ? ` Its move: ${v.best}.` : ''}`;
}

/** The verdict and, where exact, every move's value. */
export function grasshopperBody(v) {
  return [
    h('p', { 'data-testid': 'gh-verdict', 'data-source': v.source, 'data-value': v.value || '' }, grasshopperVerdict(v)),
    v.moves.length ? h('table', { class: 'hint-moves', 'data-testid': 'gh-moves' },
      h('caption', { class: 'small muted' }, `Every move of ${cap(v.to_move)}, with its exact value`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Move'), h('th', { scope: 'col' }, 'With best play'))),
      h('tbody', {}, v.moves.map(m => h('tr', { 'data-testid': 'gh-move', 'data-move': m.move, 'data-value': m.value },
        h('td', { class: 'play' }, m.move), h('td', {}, { win: 'wins', draw: 'draws', loss: 'loses' }[m.value]))))) : null,
  ];
}

export async function studyGrasshopperPage(app, main, params) {
  document.title = 'Analysis board, Grasshopper — Tabula';
  const root = clear(main);
  let busy = false;
  const position = h('input', {
    id: 'study-position', type: 'text', size: 60, spellcheck: 'false', autocomplete: 'off',
    'data-testid': 'study-position', value: params.get('position') || DEFAULT,
    placeholder: 'a Grasshopper position, as the game page and replays show it',
  });
  const boardEl = h('div', { class: 'study-board', 'data-testid': 'study-board' });
  const out = h('section', { class: 'hint-panel study-out', 'aria-live': 'polite', 'data-testid': 'study-out' });
  const show = (...nodes) => { clear(out).append(...nodes.flat(Infinity)); };

  async function evaluate() {
    if (busy) return;
    const text = position.value.trim();
    if (!text) { show(h('p', { class: 'small muted' }, 'Paste a position (a replay step of a Grasshopper game opens here with its own).')); return; }
    busy = true;
    show(h('p', { class: 'small muted', role: 'status' }, 'Searching…'));
    try {
      const v = await post('/api/study/grasshopper', { position: text });
      position.value = v.position;
      clear(boardEl).append(drawGrasshopper({ view: v.view, label: `Grasshopper board; ${cap(v.to_move)} to move; position ${v.position}`,
        last: v.best ? actionKeys(v.best, v.to_move) : null }));
      show(grasshopperBody(v), h('p', { class: 'small muted' }, 'The best move is marked on the board.'));
    } catch (e) {
      show(h('p', { class: 'message error', role: 'alert', 'data-testid': 'study-error' }, e instanceof ApiError ? e.message : `Something went wrong: ${e.message}`));
    } finally { busy = false; }
  }

  root.append(
    h('h1', {}, 'Analysis board'),
    gameTabs('grasshopper'),
    h('p', { class: 'muted' }, 'Evaluate a Grasshopper position: exactly (win, draw or loss with best play, and every move\'s value) where the endgame table holds it, else by the strong bot\'s search. ',
      'Open one from a replay step of a Grasshopper game, or paste its text. Nothing is stored.'),
    h('form', { class: 'study-form', onsubmit: e => { e.preventDefault(); evaluate(); } },
      h('label', { for: 'study-position' }, 'Position '), position, ' ',
      h('button', { type: 'submit', 'data-testid': 'study-evaluate' }, 'Evaluate')),
    h('div', { class: 'study' }, h('div', {}, boardEl), h('div', { class: 'study-side' }, out)));
  await evaluate();
  return null;
}
