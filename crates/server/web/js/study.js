// The analysis board (`/study`): a backgammon position pasted as an XGID or a gnubg ID, or
// set up on the board with the editor; its identifiers shown and copied; a hint at a
// chosen depth (every play of the dice with its chances, or the cube decision), an
// evaluation, and rollouts of the position, of chosen plays together or of the cube, which
// can be stopped and resumed (docs/client.md, "Analysis board"; docs/protocol.md).
// `?position=...` opens a position.

import { post, ApiError } from './api.js';
import { h, clear, cap } from './dom.js';
import { drawTables } from './board-tables.js';
import { hintBody, formatEquity, formatDiff, formatChance } from './hint.js';
import * as T from './tables-logic.js';
import { startModel, emptyModel, modelFromView, toXgid, applyClick, editorControls, onBoard, CHECKERS } from './study-editor.js';
import { rolloutRunner, rolloutSettings, chancesTable } from './study-rollout.js';
import { gameTabs } from './study-tabs.js';


const DEFAULT = 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10';

/**
 * Ranked plays (`rows`: rank, move, equity, diff, chances, plies, after), each with the chances
 * after it and a box to choose it for a rollout; the backgammon and Never-Finishing boards'.
 */
export function candidatesTable(rows, { caption, unit, empty, picked, onPick }) {
  if (!rows.length) return h('p', { class: 'small', 'data-testid': 'hint-empty' }, empty);
  return h('table', { class: 'hint-moves candidates', 'data-testid': 'hint-moves' },
    h('caption', { class: 'small muted' }, caption),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Roll out')), h('th', { scope: 'col' }, '#'),
      h('th', { scope: 'col' }, 'Play'), h('th', { scope: 'col', class: 'num' }, 'Equity'), h('th', { scope: 'col', class: 'num' }, 'Diff'),
      ['Win', 'W g', 'W bg', 'L g', 'L bg'].map(t => h('th', { scope: 'col', class: 'num' }, t)),
      h('th', { scope: 'col', class: 'num' }, 'Depth'))),
    h('tbody', {}, rows.map((m, i) => h('tr', {
      'data-testid': 'hint-row', 'data-move': m.move, 'data-diff': m.diff, 'data-after': m.after, class: i === 0 ? 'best' : null,
    },
    h('td', {}, h('input', {
      type: 'checkbox', 'data-testid': 'candidate-pick', 'aria-label': `Roll out ${m.move}`,
      checked: picked.has(m.move) ? true : null, onchange: e => onPick(m.move, e.target.checked),
    })),
    h('td', {}, m.rank),
    h('td', { class: 'play' }, m.move),
    h('td', { class: 'num' }, formatEquity(m.equity, unit)),
    h('td', { class: 'num', 'data-testid': 'hint-diff' }, formatDiff(m.diff, unit)),
    [m.chances.win, m.chances.win_gammon, m.chances.win_backgammon, m.chances.lose_gammon, m.chances.lose_backgammon]
      .map(x => h('td', { class: 'num' }, formatChance(x))),
    h('td', { class: 'num' }, `${m.plies}-ply`)))));
}

function copyButton(text, what, testid) {
  return h('button', {
    type: 'button', class: 'small-button', 'data-testid': testid, 'aria-label': `Copy the ${what}`,
    onclick: async e => {
      const b = e.currentTarget;
      try { await navigator.clipboard.writeText(text); b.textContent = 'Copied'; } catch { b.textContent = 'Select and copy'; }
      setTimeout(() => { b.textContent = 'Copy'; }, 1500);
    },
  }, 'Copy');
}

export async function studyPage(app, main, params) {
  document.title = 'Analysis board — Tabula';
  const root = clear(main);
  let model = startModel();
  let loadedText = null; // the field's text as last read into the model
  let view = null; // the server's reading of the model (ids), null while refused
  let tool = 'white';
  let arrows = null;
  let busy = false;
  let picked = new Set();
  let readSeq = 0;

  const position = h('input', {
    id: 'study-position', type: 'text', size: 60, spellcheck: 'false', autocomplete: 'off',
    'data-testid': 'study-position', value: params.get('position') || DEFAULT,
    placeholder: 'XGID=... or PositionID:MatchID',
  });
  const dice = h('input', { id: 'study-dice', type: 'text', size: 5, placeholder: '3-1', 'data-testid': 'study-dice' });
  const plies = h('select', { id: 'study-plies', 'data-testid': 'study-plies', 'aria-label': 'Depth' },
    h('option', { value: '' }, 'server depth'), [0, 1, 2, 3].map(n => h('option', { value: n }, `${n}-ply`)));
  const settings = rolloutSettings();
  const cubeful = h('input', { id: 'study-cubeful', type: 'checkbox', 'data-testid': 'study-cubeful' });
  const boardEl = h('div', { class: 'study-board', 'data-testid': 'study-board' });
  const idsEl = h('div', { class: 'study-ids small', 'data-testid': 'study-ids' });
  const editMsg = h('p', { class: 'small', role: 'status', 'data-testid': 'edit-message' });
  const editorEl = h('div', {});
  const editor = h('details', { class: 'study-editor', 'data-testid': 'study-editor' },
    h('summary', { 'data-testid': 'edit-toggle' }, 'Set up the position'),
    h('div', { class: 'editor-row' },
      h('button', { type: 'button', 'data-testid': 'edit-clear', onclick: () => replaceModel(emptyModel()) }, 'Clear board'), ' ',
      h('button', { type: 'button', 'data-testid': 'edit-start', onclick: () => replaceModel(startModel()) }, 'Starting position')),
    editorEl, editMsg);
  editor.addEventListener('toggle', () => draw());
  const out = h('section', { class: 'hint-panel study-out', 'aria-live': 'polite', 'data-testid': 'study-out' },
    h('p', { class: 'small muted' }, 'Paste a position or set one up, then ask for a hint, an evaluation or a rollout.'));
  const rollEl = h('section', { class: 'hint-panel study-rollouts', 'aria-live': 'polite', 'data-testid': 'study-rollouts' });
  const runner = rolloutRunner(rollEl);

  const show = (...nodes) => { clear(out).append(...nodes.flat(Infinity)); };
  const fail = e => show(h('p', { class: 'message error', role: 'alert', 'data-testid': 'study-error' },
    e instanceof ApiError ? e.message : `Something went wrong: ${e.message}`));

  function situation() {
    const m = model;
    return `${cap(m.onRoll)} on roll${m.dice ? ` with ${m.dice}` : ', to roll'}` +
      (m.matchLength ? `; ${m.matchLength}-point match, White ${m.score.white}, Black ${m.score.black}` : '; money game') +
      (m.matchLength && m.crawford ? '; Crawford game, no cube' : `; cube ${m.cubeValue}${m.cubeOwner ? `, ${cap(m.cubeOwner)}'s` : ', centred'}`) + '.';
  }

  function draw() {
    const m = model;
    const diceList = m.dice ? m.dice.split('-').map(Number) : null;
    const editing = editor.open;
    const board = { points: m.points, bar: m.bar, off: { white: CHECKERS - onBoard(m, 'white'), black: CHECKERS - onBoard(m, 'black') } };
    clear(boardEl).append(
      drawTables({
        board, bottom: 'white', dice: diceList, diceUsed: diceList ? diceList.map(() => false) : [],
        diceSide: m.onRoll, cube: m.matchLength && m.crawford ? null : { value: m.cubeValue, owner: m.cubeOwner },
        crawford: !!(m.matchLength && m.crawford), sources: new Set(), dests: new Set(), hint: arrows,
        interactive: editing, editing, onClick: editing ? key => edit(key) : null,
        label: `Backgammon board, White at the bottom; ${cap(m.onRoll)} on roll${editing ? '; click a point or a bar to add or remove a checker' : ''}`,
      }),
      h('p', { class: 'small', 'data-testid': 'study-situation' }, situation()));
    clear(editorEl).append(editorControls(m, tool, changed, t => { tool = t; }));
  }

  function drawIds() {
    if (!view) { clear(idsEl); return; }
    const ids = view.ids;
    clear(idsEl).append(
      h('span', {}, h('code', { 'data-testid': 'study-xgid' }, ids.xgid), ' ', copyButton(ids.xgid, 'XGID', 'copy-xgid')), ' ',
      h('span', {}, 'gnubg ', h('code', { 'data-testid': 'study-gnubg' }, ids.gnubg), ' ', copyButton(ids.gnubg, 'gnubg ID', 'copy-gnubg')));
  }

  /** Reads the model back through the server: its identifiers, or the reason it is refused. */
  async function readBack() {
    const seq = ++readSeq;
    const xgid = toXgid(model);
    // what the position field held when the model changed: text typed since is kept
    const typed = position.value;
    try {
      const v = await post('/api/study/position', { position: xgid });
      if (seq !== readSeq) return;
      view = v;
      editMsg.textContent = '';
      delete editMsg.dataset.refused;
    } catch (e) {
      if (seq !== readSeq) return;
      view = null;
      editMsg.textContent = `This set-up cannot be studied: ${e.message}`;
      editMsg.dataset.refused = 'true';
    }
    drawIds();
    if (view && position.value === typed) { position.value = view.ids.xgid; loadedText = position.value; }
  }

  function changed() {
    arrows = null;
    dice.value = model.dice;
    picked = new Set();
    draw();
    readBack();
  }

  function edit(key) {
    const refused = applyClick(model, key, tool);
    if (refused) { editMsg.textContent = refused; editMsg.dataset.refused = 'true'; return; }
    changed();
  }

  function replaceModel(m) { model = m; changed(); }

  /** Reads the position field into the model when its text changed; false (and the reason shown) when refused. */
  async function load() {
    const text = position.value.trim();
    if (text === loadedText) return true;
    const typed = dice.value.trim();
    const before = model.dice;
    // a read-back still in flight would overwrite the loaded position when it answers
    const seq = ++readSeq;
    try {
      const v = await post('/api/study/position', { position: text });
      if (seq !== readSeq) return false; // the board was edited meanwhile: that wins
      model = modelFromView(v);
      view = v;
      loadedText = text;
      arrows = null;
      picked = new Set();
      // dice typed in before loading are kept: they override the position's
      dice.value = typed && typed !== before ? typed : model.dice;
      editMsg.textContent = '';
      draw();
      drawIds();
      return true;
    } catch (e) { fail(e); return false; }
  }

  /** The dice field read into the model (empty: to roll). */
  function readDice() {
    const t = dice.value.trim();
    const d = /^[1-6]-?[1-6]$/.test(t) ? `${t[0]}-${t[t.length - 1]}` : t ? null : '';
    if (d === null) throw new ApiError(400, 'bad_request', `bad dice "${t}": two dice 1 to 6, like 3-1`);
    if (d !== model.dice) { model.dice = d; changed(); }
  }

  async function evaluate(kind) {
    if (busy) return;
    busy = true;
    show(h('p', { class: 'small muted', role: 'status' }, 'Thinking…'));
    try {
      if (!(await load())) return;
      readDice();
      const body = { position: toXgid(model) };
      if (plies.value !== '') body.plies = Number(plies.value);
      const v = await post('/api/study/evaluate', body);
      out.dataset.kind = kind;
      if (kind === 'hint') {
        const best = v.hint && v.hint.kind === 'moves' && v.candidates && v.candidates[0];
        arrows = best && best.move.includes('/') ? { actor: v.on_roll, segments: T.playSegments(best.move, v.on_roll) } : null;
        draw();
        if (v.hint && v.hint.kind === 'moves') {
          picked = new Set((v.candidates || []).slice(0, 2).map(m => m.move));
          show(candidatesTable(v.candidates || [], {
            caption: `Plays of ${v.hint.dice}, ranked at ${v.plies}-ply (${v.hint.unit === 'mwc' ? 'match-winning chances' : 'money equity'}); chances after each play, for the player on roll`,
            unit: v.hint.unit, empty: 'No play to rank: the dice cannot be played.',
            picked, onPick: (move, on) => { if (on) picked.add(move); else picked.delete(move); },
          }),
            h('p', { class: 'small muted' }, 'The best play is drawn on the board in green. Tick plays and press "Roll out chosen plays" to roll them out together.'));
        } else {
          show(v.hint ? hintBody(v.hint) : h('p', { 'data-testid': 'study-no-hint' },
            `${cap(v.on_roll)} cannot double here; set the dice for the best plays.`));
        }
      } else {
        arrows = null;
        draw();
        show(chancesTable(v.chances, `${cap(v.on_roll)}'s chances before rolling (${v.plies}-ply)`),
          h('p', { 'data-testid': 'study-equity' }, 'Cubeless equity ', h('strong', {}, formatEquity(v.chances.cubeless_equity, 'money')), '.'),
          v.hint && v.hint.kind === 'cube' ? hintBody(v.hint) : []);
      }
    } catch (e) { fail(e); } finally { busy = false; }
  }

  async function rollout(what) {
    if (runner.busy()) return;
    try {
      if (!(await load())) return;
      readDice();
    } catch (e) { fail(e); return; }
    // an earlier refusal no longer applies to the position now rolled out
    if (out.querySelector('[data-testid=study-error]')) show(h('p', { class: 'small muted' }, 'Rolling out the position below.'));
    const body = { position: toXgid(model), ...settings.fields() };
    if (what === 'plays') {
      if (!picked.size) { fail(new Error('tick one or more plays of the hint first')); return; }
      body.plays = [...picked];
      body.cubeful = cubeful.checked;
    } else if (what === 'cube') {
      body.cubeful = true;
    } else {
      body.cubeful = false;
    }
    runner.start(body);
  }

  root.append(
    h('h1', {}, 'Analysis board'),
    gameTabs('backgammon'),
    h('p', { class: 'muted' }, 'Study a backgammon position: paste an XGID, a gnubg Position ID or PositionID:MatchID, or set one up on the board. ',
      'The nets that play on this server answer; nothing is stored.'),
    h('form', { class: 'study-form', onsubmit: e => { e.preventDefault(); evaluate('hint'); } },
      h('label', { for: 'study-position' }, 'Position '), position, ' ',
      h('button', { type: 'button', 'data-testid': 'study-load', onclick: () => load() }, 'Load')),
    h('div', { class: 'study' },
      h('div', {}, boardEl, idsEl),
      h('div', { class: 'study-side' },
        h('div', { class: 'study-form' },
          h('label', { for: 'study-dice' }, 'Dice '), dice, ' ', h('label', { for: 'study-plies' }, 'Depth '), plies, ' ',
          h('button', { type: 'button', 'data-testid': 'study-hint', onclick: () => evaluate('hint') }, 'Hint'), ' ',
          h('button', { type: 'button', 'data-testid': 'study-evaluate', onclick: () => evaluate('evaluate') }, 'Evaluate')),
        h('div', { class: 'study-form rollout-controls' },
          settings.controls, ' ',
          h('label', { class: 'pick' }, cubeful, ' Cubeful plays')),
        h('div', { class: 'study-form rollout-controls' },
          h('button', { type: 'button', 'data-testid': 'study-rollout', onclick: () => rollout('position') }, 'Roll out the position'), ' ',
          h('button', { type: 'button', 'data-testid': 'study-rollout-plays', onclick: () => rollout('plays') }, 'Roll out chosen plays'), ' ',
          h('button', { type: 'button', 'data-testid': 'study-rollout-cube', onclick: () => rollout('cube') }, 'Roll out the cube')),
        editor)),
    out, rollEl);
  draw();
  // Draw the given position at once, with its chances.
  evaluate('evaluate');
  return { destroy() { runner.destroy(); } };
}
