// The analysis board for Never-Finishing (`/study?game=never-finishing`): a position in the
// tables notation (trapped checkers included) or `start`; its chances at a chosen depth; with
// dice, every play ranked with its chances (a trap written `^`, the best play drawn); and
// rollouts of the position or of chosen plays, stopped and resumed as on the backgammon
// board. The game has no cube: everything is cubeless (docs/client.md, "Analysis board").

import { post, ApiError } from './api.js';
import { h, clear, cap } from './dom.js';
import { drawTables } from './board-tables.js';
import { formatEquity } from './hint.js';
import * as T from './tables-logic.js';
import { rolloutRunner, rolloutSettings, chancesTable } from './study-rollout.js';
import { gameTabs } from './study-tabs.js';
import { candidatesTable } from './study.js';

export async function studyNfPage(app, main, params) {
  document.title = 'Analysis board, Never-Finishing — Tabula';
  const root = clear(main);
  let view = null, arrows = null, busy = false, picked = new Set();
  const position = h('input', {
    id: 'study-position', type: 'text', size: 50, spellcheck: 'false', autocomplete: 'off',
    'data-testid': 'study-position', value: params.get('position') || 'start',
    placeholder: '15b/22/15w:0:0:0:0:w or start',
  });
  const dice = h('input', { id: 'study-dice', type: 'text', size: 5, placeholder: '6-5', 'data-testid': 'study-dice', value: params.get('dice') || '' });
  const plies = h('select', { id: 'study-plies', 'data-testid': 'study-plies', 'aria-label': 'Depth' },
    h('option', { value: '' }, 'server depth'), [0, 1, 2, 3].map(n => h('option', { value: n }, `${n}-ply`)));
  const settings = rolloutSettings();
  const boardEl = h('div', { class: 'study-board', 'data-testid': 'study-board' });
  const out = h('section', { class: 'hint-panel study-out', 'aria-live': 'polite', 'data-testid': 'study-out' });
  const rollEl = h('section', { class: 'hint-panel study-rollouts', 'aria-live': 'polite', 'data-testid': 'study-rollouts' });
  const runner = rolloutRunner(rollEl);
  const show = (...nodes) => { clear(out).append(...nodes.flat(Infinity)); };
  const fail = e => show(h('p', { class: 'message error', role: 'alert', 'data-testid': 'study-error' },
    e instanceof ApiError ? e.message : `Something went wrong: ${e.message}`));

  function draw() {
    if (!view) { clear(boardEl); return; }
    const d = view.dice ? view.dice.split('-').map(Number) : null;
    const trapped = view.board.trapped.length;
    clear(boardEl).append(
      drawTables({
        board: view.board, bottom: 'white', dice: d, diceUsed: d ? d.map(() => false) : [], diceSide: view.on_roll,
        cube: null, sources: new Set(), dests: new Set(), hint: arrows,
        label: `Never-Finishing board, White at the bottom; ${cap(view.on_roll)} to move; position ${view.position}`,
      }),
      h('p', { class: 'small', 'data-testid': 'study-situation' },
        `${cap(view.on_roll)} to move${view.dice ? ` with ${view.dice}` : ''}; pips White ${view.board.pips.white}, Black ${view.board.pips.black}; `,
        trapped ? `${trapped} checker${trapped === 1 ? '' : 's'} trapped (drawn under ${trapped === 1 ? 'its trapper' : 'their trappers'}).` : 'no checker trapped.'),
      h('p', { class: 'small study-ids' }, h('code', { 'data-testid': 'study-nf-position' }, view.position)));
  }

  async function evaluate(kind) {
    if (busy) return;
    busy = true;
    show(h('p', { class: 'small muted', role: 'status' }, 'Thinking…'));
    try {
      const body = { position: position.value.trim() };
      const d = dice.value.trim();
      if (kind === 'hint') {
        if (!d) throw new ApiError(400, 'bad_request', 'set the dice (like 6-5) for the best plays: Never-Finishing has no cube decision');
        body.dice = d;
      }
      if (plies.value !== '') body.plies = Number(plies.value);
      const v = await post('/api/study/nf/evaluate', body);
      view = v;
      position.value = v.position;
      out.dataset.kind = kind;
      if (kind === 'hint') {
        const best = v.candidates && v.candidates[0];
        arrows = best ? { actor: v.on_roll, segments: T.playSegments(best.move, v.on_roll) } : null;
        picked = new Set((v.candidates || []).slice(0, 2).map(m => m.move));
        const rows = v.candidates || [];
        show(candidatesTable(rows, {
          caption: `Plays of ${v.dice}, ranked at ${v.plies}-ply by cubeless equity (${v.total_plays} in all${v.total_plays > rows.length ? `, the best ${rows.length} shown` : ''}); ^ marks a trap, * a hit; chances after each play, for the side to move`,
          unit: 'money', empty: `No legal play: the roll of ${v.dice} is lost.`,
          picked, onPick: (move, on) => { if (on) picked.add(move); else picked.delete(move); },
        }),
          h('p', { class: 'small muted' }, 'The best play is drawn on the board in green. Tick plays and press "Roll out chosen plays" to roll them out together.'));
      } else {
        arrows = null;
        show(chancesTable(v.chances, `${cap(v.on_roll)}'s chances before rolling (${v.plies}-ply)`),
          h('p', { 'data-testid': 'study-equity' }, 'Cubeless equity ', h('strong', {}, formatEquity(v.chances.cubeless_equity, 'money')),
            ' (a gammon counts two, a backgammon three; the game has no cube).'));
      }
      draw();
    } catch (e) { fail(e); } finally { busy = false; }
  }

  function rollout(what) {
    if (runner.busy()) return;
    const body = { game: 'never-finishing', position: position.value.trim(), ...settings.fields() };
    if (what === 'plays') {
      if (!picked.size) { fail(new Error('ask for the best plays (Hint) and tick one or more first')); return; }
      body.plays = [...picked];
      body.dice = dice.value.trim();
    }
    runner.start(body);
  }

  root.append(
    h('h1', {}, 'Analysis board'),
    gameTabs('never-finishing'),
    h('p', { class: 'muted' }, 'Study a Never-Finishing position: type it in the tables notation (',
      h('code', {}, '15b/22/15w:0:0:0:0:w'), ' is the start, White to move; ', h('code', {}, '3w+b'),
      ' is three White checkers over a trapped Black one) or ', h('code', {}, 'start'), '. The Never-Finishing net answers; nothing is stored.'),
    h('form', { class: 'study-form', onsubmit: e => { e.preventDefault(); evaluate('evaluate'); } },
      h('label', { for: 'study-position' }, 'Position '), position, ' ',
      h('button', { type: 'submit', 'data-testid': 'study-load' }, 'Load')),
    h('div', { class: 'study' },
      h('div', {}, boardEl),
      h('div', { class: 'study-side' },
        h('div', { class: 'study-form' },
          h('label', { for: 'study-dice' }, 'Dice '), dice, ' ', h('label', { for: 'study-plies' }, 'Depth '), plies, ' ',
          h('button', { type: 'button', 'data-testid': 'study-hint', onclick: () => evaluate('hint') }, 'Hint'), ' ',
          h('button', { type: 'button', 'data-testid': 'study-evaluate', onclick: () => evaluate('evaluate') }, 'Evaluate')),
        h('div', { class: 'study-form rollout-controls' }, settings.controls),
        h('div', { class: 'study-form rollout-controls' },
          h('button', { type: 'button', 'data-testid': 'study-rollout', onclick: () => rollout('position') }, 'Roll out the position'), ' ',
          h('button', { type: 'button', 'data-testid': 'study-rollout-plays', onclick: () => rollout('plays') }, 'Roll out chosen plays')))),
    out, rollEl);
  // a position opened with its dice shows its plays ranked, else its chances
  await evaluate(dice.value.trim() ? 'hint' : 'evaluate');
  return { destroy() { runner.destroy(); } };
}
