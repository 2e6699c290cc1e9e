// The analysis board (`/study`): paste a backgammon position as an XGID or a gnubg ID, set
// the dice or leave them for the cube decision, and ask the server for a hint, an
// evaluation (the chances of the player on roll) or a rollout, whose progress is shown as it
// runs (docs/protocol.md, "Analysis board"). The position is drawn from the server's reading
// of it, with the best play of a hint as green arrows. `?position=...` opens a position.

import { post, ApiError } from './api.js';
import { h, clear, cap } from './dom.js';
import { drawTables } from './board-tables.js';
import { hintBody, formatEquity } from './hint.js';
import * as T from './tables-logic.js';

const pct = x => `${(x * 100).toFixed(1)} %`;

/** The chances of the player on roll as a small table. */
export function chancesTable(c, caption) {
  const row = (label, win, gammon, bg) => h('tr', {},
    h('th', { scope: 'row' }, label), h('td', { class: 'num' }, pct(win)),
    h('td', { class: 'num' }, pct(gammon)), h('td', { class: 'num' }, pct(bg)));
  return h('table', { class: 'chances', 'data-testid': 'study-chances' },
    h('caption', { class: 'small muted' }, caption),
    h('thead', {}, h('tr', {}, h('th', {}), h('th', { scope: 'col', class: 'num' }, 'Games'),
      h('th', { scope: 'col', class: 'num' }, 'Gammons'), h('th', { scope: 'col', class: 'num' }, 'Backgammons'))),
    h('tbody', {},
      row('Win', c.win, c.win_gammon, c.win_backgammon),
      row('Lose', 1 - c.win, c.lose_gammon, c.lose_backgammon)));
}

/** Reads an NDJSON stream, calling `onLine` with each parsed line. */
async function readLines(response, onLine) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) onLine(JSON.parse(line));
    }
  }
}

export async function studyPage(app, main, params) {
  document.title = 'Analysis board — Tabula';
  const root = clear(main);
  const position = h('input', {
    id: 'study-position', type: 'text', size: 60, spellcheck: 'false', autocomplete: 'off',
    'data-testid': 'study-position', value: params.get('position') || 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10',
    placeholder: 'XGID=... or PositionID:MatchID',
  });
  const dice = h('input', { id: 'study-dice', type: 'text', size: 5, placeholder: '3-1', 'data-testid': 'study-dice' });
  const trials = h('select', { id: 'study-trials', 'data-testid': 'study-trials', 'aria-label': 'Rollout trials' },
    [36, 324, 1296].map(n => h('option', { value: n, selected: n === 324 ? true : null }, `${n} trials`)));
  const truncate = h('select', { id: 'study-truncate', 'data-testid': 'study-truncate', 'aria-label': 'Rollout length' },
    h('option', { value: '' }, 'to the end'), h('option', { value: '10' }, 'truncated after 10 plays'));
  const boardEl = h('div', { class: 'study-board', 'data-testid': 'study-board' });
  const out = h('section', { class: 'hint-panel study-out', 'aria-live': 'polite', 'data-testid': 'study-out' },
    h('p', { class: 'small muted' }, 'Paste a position, then ask for a hint, an evaluation or a rollout.'));
  let busy = false;
  let controller = null;

  const show = (...nodes) => { clear(out).append(...nodes.flat()); };
  const fail = e => show(h('p', { class: 'message error', role: 'alert', 'data-testid': 'study-error' },
    e instanceof ApiError ? e.message : `Something went wrong: ${e.message}`));

  function drawBoard(v, hintMoves) {
    let arrows = null;
    const best = hintMoves && hintMoves[0];
    if (best && best.move.includes('/')) arrows = { actor: v.on_roll, segments: T.playSegments(best.move, v.on_roll) };
    const diceList = v.dice ? v.dice.split('-').map(Number) : null;
    clear(boardEl).append(
      drawTables({
        board: v.board, bottom: 'white', dice: diceList, diceUsed: diceList ? diceList.map(() => false) : [],
        diceSide: v.on_roll, cube: v.cube, crawford: !v.cube && v.match_length != null,
        sources: new Set(), dests: new Set(), hint: arrows, interactive: false, onClick: () => {},
        label: `Backgammon board, White at the bottom; ${cap(v.on_roll)} on roll`,
      }),
      h('p', { class: 'small', 'data-testid': 'study-situation' },
        `${cap(v.on_roll)} on roll`, v.dice ? ` with ${v.dice}` : ', to roll',
        v.match_length ? `; ${v.match_length}-point match, White ${v.score.white}, Black ${v.score.black}` : '; money game',
        v.cube ? `; cube ${v.cube.value}${v.cube.owner ? `, ${cap(v.cube.owner)}'s` : ', centred'}` : '; Crawford game, no cube',
        '.'));
  }

  async function evaluate(kind) {
    if (busy) return;
    busy = true;
    show(h('p', { class: 'small muted', role: 'status' }, 'Thinking…'));
    try {
      const body = { position: position.value.trim() };
      if (dice.value.trim()) body.dice = dice.value.trim();
      const v = await post('/api/study/evaluate', body);
      out.dataset.kind = kind;
      if (kind === 'hint') {
        drawBoard(v, v.hint && v.hint.kind === 'moves' ? v.hint.moves : null);
        show(v.hint ? hintBody(v.hint) : h('p', { 'data-testid': 'study-no-hint' },
          `${cap(v.on_roll)} cannot double here; set the dice for the best plays.`));
      } else {
        drawBoard(v, null);
        show(chancesTable(v.chances, `${cap(v.on_roll)}'s chances before rolling (${v.plies}-ply)`),
          h('p', { 'data-testid': 'study-equity' }, 'Cubeless equity ', h('strong', {}, formatEquity(v.chances.cubeless_equity, 'money')), '.'),
          v.hint && v.hint.kind === 'cube' ? hintBody(v.hint) : []);
      }
    } catch (e) { fail(e); } finally { busy = false; }
  }

  async function rollout() {
    if (busy) return;
    busy = true;
    controller = new AbortController();
    const n = Number(trials.value);
    const bar = h('progress', { max: n, value: 0, 'data-testid': 'study-progress' });
    const label = h('span', { class: 'small' }, `0 of ${n} games`);
    const stop = h('button', { type: 'button', 'data-testid': 'study-stop', onclick: () => controller.abort() }, 'Stop');
    out.dataset.kind = 'rollout';
    show(h('p', { role: 'status' }, 'Rolling out… ', bar, ' ', label, ' ', stop));
    try {
      const body = { position: position.value.trim(), trials: n };
      if (truncate.value) body.truncate = Number(truncate.value);
      const response = await fetch('/api/study/rollout', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
        credentials: 'same-origin', signal: controller.signal,
      });
      if (!response.ok) {
        const data = await response.json().catch(() => null);
        throw new ApiError(response.status, data?.error?.code, data?.error?.message || `the server answered ${response.status}`);
      }
      let result = null;
      await readLines(response, line => {
        if (line.progress != null) { bar.value = line.progress; label.textContent = `${line.progress} of ${line.trials} games`; }
        if (line.result) result = line.result;
        if (line.error) throw new Error(line.error);
      });
      if (!result) throw new Error('the rollout ended without a result');
      const ci = result.equity_ci95;
      show(chancesTable(result.chances, `Rollout: ${result.trials} games${result.truncate ? `, truncated after ${result.truncate} plays` : ''}, luck-adjusted, ${result.seconds.toFixed(1)} s`),
        h('p', { 'data-testid': 'study-rollout-equity' }, 'Cubeless equity ',
          h('strong', {}, formatEquity(result.equity, 'money')), ` ± ${result.equity_std_err.toFixed(3)} (standard error); `,
          `with 95 % confidence between ${formatEquity(ci[0], 'money')} and ${formatEquity(ci[1], 'money')}.`),
        result.cube ? hintBody({ kind: 'cube', depth: 'from the rolled-out chances', ...result.cube }) : []);
    } catch (e) {
      if (e.name === 'AbortError') show(h('p', { class: 'small', 'data-testid': 'study-stopped' }, 'Rollout stopped.'));
      else fail(e);
    } finally { busy = false; controller = null; }
  }

  root.append(
    h('h1', {}, 'Analysis board'),
    h('p', { class: 'muted' }, 'Study a backgammon position: paste an XGID, a gnubg Position ID or PositionID:MatchID. ',
      'The nets that play on this server answer; nothing is stored.'),
    h('form', { class: 'study-form', onsubmit: e => { e.preventDefault(); evaluate('hint'); } },
      h('label', { for: 'study-position' }, 'Position '), position, ' ',
      h('label', { for: 'study-dice' }, 'Dice '), dice, ' ',
      h('button', { type: 'submit', 'data-testid': 'study-hint' }, 'Hint'), ' ',
      h('button', { type: 'button', 'data-testid': 'study-evaluate', onclick: () => evaluate('evaluate') }, 'Evaluate'), ' ',
      h('span', { class: 'rollout-controls' },
        h('button', { type: 'button', 'data-testid': 'study-rollout', onclick: () => rollout() }, 'Rollout'), ' ', trials, ' ', truncate)),
    h('div', { class: 'study' }, boardEl, out));
  // Draw the pasted position at once.
  evaluate('evaluate');
  return { destroy() { if (controller) controller.abort(); } };
}
