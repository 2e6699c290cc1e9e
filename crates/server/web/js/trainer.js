// The trainer (`/trainer`): the decisions the player got wrong in their analysed backgammon
// games, asked again. A play is made on the board (click or drag a checker, then where it
// goes) or typed; a cube decision is two buttons. The answer shows whether it was the best,
// what it gives up, and the ranked alternatives with their chances; exercises answered wrong
// come back later (docs/client.md, "Trainer"; docs/protocol.md, "Trainer").

import { get, post, ApiError } from './api.js';
import { h, clear, cap } from './dom.js';
import { drawTables } from './board-tables.js';
import { DragController } from './drag.js';
import { formatEquity, formatDiff, formatChance } from './hint.js';
import * as T from './tables-logic.js';

const other = c => (c === 'white' ? 'black' : 'white');
const parseDice = d => (d ? d.split('-').map(Number) : null);

/** "in 10 minutes", "in 3 hours", "tomorrow": when an exercise comes back. */
export function whenBack(dueMs, nowMs = Date.now()) {
  const s = Math.max(0, Math.round((dueMs - nowMs) / 1000));
  if (s < 60) return `in ${s} second${s === 1 ? '' : 's'}`;
  const m = Math.round(s / 60);
  if (m < 60) return `in ${m} minute${m === 1 ? '' : 's'}`;
  const hrs = Math.round(m / 60);
  if (hrs < 24) return `in ${hrs} hour${hrs === 1 ? '' : 's'}`;
  const d = Math.round(hrs / 24);
  return d === 1 ? 'tomorrow' : `in ${d} days`;
}

/** The score in one sentence. */
export function scoreText(sc) {
  if (!sc.exercises) return 'No exercises yet.';
  const parts = [`${sc.exercises} exercise${sc.exercises === 1 ? '' : 's'} from your analysed games`];
  const states = [];
  if (sc.due) states.push(`${sc.due} due now`);
  if (sc.waiting) states.push(`${sc.waiting} coming back later`);
  states.push(`${sc.learned} learned`);
  parts.push(`: ${states.join(', ')}.`);
  if (sc.answers) parts.push(` ${sc.right} of your ${sc.answers} answer${sc.answers === 1 ? '' : 's'} right (${Math.round((100 * sc.right) / sc.answers)} %).`);
  return parts.join('');
}

const CUBE_WORDS = { double: 'Double', 'no-double': 'No double', take: 'Take', pass: 'Pass' };

function prompt(ex) {
  const p = ex.position;
  const you = cap(ex.colour);
  const match = p.match_length ? `${p.match_length}-point match, White ${p.score.white}, Black ${p.score.black}` : 'money game';
  if (ex.kind === 'move') return `You are ${you} to play ${p.dice} (${match}). Find the best play.`;
  if (ex.kind === 'double') return `You are ${you}, on roll (${match}; cube at ${p.cube ? p.cube.value : 1}). Double, or roll?`;
  return `${cap(other(ex.colour))} doubles to ${(p.cube ? p.cube.value : 1) * 2} (${match}). You are ${you}: take or pass?`;
}

/** The answer: right or not, the best choice, what the choice gave up, the alternatives. */
function answerPanel(ex, a) {
  const unit = a.unit;
  const lost = `${formatDiff(-a.lost, unit).replace(/^[−-]/, '')}${unit === 'mwc' ? ' in match-winning chances' : ' in equity'}`;
  const verdict = a.right
    ? h('p', { class: 'verdict right', 'data-testid': 'trainer-verdict', 'data-right': 'true' },
      h('strong', {}, 'Right. '), ex.kind === 'move' ? `${a.choice} is the best play.` : `${CUBE_WORDS[a.choice]} is the right decision.`)
    : h('p', { class: 'verdict wrong', 'data-testid': 'trainer-verdict', 'data-right': 'false' },
      h('strong', {}, 'Not the best. '),
      ex.kind === 'move' ? `${a.choice} gives up ${lost}; the best play (drawn on the board) is ${a.best}.`
        : `${CUBE_WORDS[a.choice]} gives up ${lost}; the right decision is ${CUBE_WORDS[a.best].toLowerCase()}.`);
  const game = h('p', { class: 'small muted' }, `In the game you played ${ex.kind === 'move' ? a.played : CUBE_WORDS[a.played] ? CUBE_WORDS[a.played].toLowerCase() : a.played}. `,
    h('a', { href: `/replay/${ex.game_id}`, 'data-link': true }, 'See the game'), '.');
  const next = a.stage >= 3
    ? h('p', { 'data-testid': 'trainer-schedule' }, 'Learned: this exercise is not asked again.')
    : h('p', { 'data-testid': 'trainer-schedule' }, a.right
      ? `Right after a miss: it comes back ${whenBack(a.due_ms)} to make sure.`
      : `It comes back ${whenBack(a.due_ms)}.`);
  let table = null;
  if (a.hint.kind === 'moves') {
    const rows = (a.hint.moves || []).slice();
    if (a.chosen) rows.push(a.chosen);
    table = h('table', { class: 'alternatives', 'data-testid': 'trainer-alternatives' },
      h('caption', { class: 'small muted' }, `The best plays of ${a.hint.dice} at ${a.hint.plies}-ply (${unit === 'mwc' ? 'match-winning chances' : 'equity'}; chances after the play)`),
      h('thead', {}, h('tr', {}, ['#', 'Play', 'Equity', 'Diff', 'Win', 'W g', 'L g'].map((t, i) =>
        h('th', { scope: 'col', class: i > 1 ? 'num' : null }, t)))),
      h('tbody', {}, rows.map(m => h('tr', { 'data-testid': 'trainer-alternative', 'data-move': m.move, class: m.move === a.choice ? 'played' : null },
        h('td', {}, m.rank),
        h('td', { class: 'play' }, m.move, m.move === a.choice ? h('span', { class: 'small muted' }, ' (your choice)') : null),
        h('td', { class: 'num' }, formatEquity(m.equity, unit)),
        h('td', { class: 'num' }, m.rank === 1 ? 'best' : formatDiff(m.diff, unit)),
        h('td', { class: 'num' }, formatChance(m.chances.win)),
        h('td', { class: 'num' }, formatChance(m.chances.win_gammon)),
        h('td', { class: 'num' }, formatChance(m.chances.lose_gammon))))));
  } else {
    const who = ex.kind === 'take' ? `${cap(other(ex.colour))}'s` : 'your';
    table = h('table', { class: 'alternatives', 'data-testid': 'trainer-cube' },
      h('caption', { class: 'small muted' }, `The cube at ${a.hint.plies}-ply, ${who} equity: ${a.hint.proper}`),
      h('tbody', {},
        [['No double', a.hint.no_double], ['Double, take', a.hint.double_take], ['Double, pass', a.hint.double_drop]]
          .map(([t, x]) => h('tr', {}, h('th', { scope: 'row' }, t), h('td', { class: 'num' }, formatEquity(x, unit))))));
  }
  return [verdict, table, game, next];
}

export async function trainerPage(app, main) {
  document.title = 'Trainer — Tabula';
  const root = clear(main);
  root.append(h('h1', {}, 'Trainer'));
  if (!app.me) {
    root.append(h('p', { 'data-testid': 'trainer-anonymous' }, 'The trainer asks you again the decisions you got wrong in your analysed games. ',
      h('a', { href: '/login', 'data-link': true }, 'Log in'), ', or play a game as a guest from the ', h('a', { href: '/', 'data-link': true }, 'lobby'), ' first.'));
    return null;
  }
  const scoreEl = h('p', { 'data-testid': 'trainer-score', 'aria-live': 'polite' });
  const body = h('div', { class: 'trainer', 'data-testid': 'trainer' });
  root.append(h('p', { class: 'muted' }, 'Each play or cube decision the analysis of your games marked doubtful, bad or very bad is an exercise here. ',
    'One you miss comes back ten minutes later, then a day after you get it right; one you get right at once is learned.'), scoreEl, body);

  let data = null, ex = null, turn = null, selected = null, choice = null, answer = null, busy = false, message = '';
  const boardWrap = h('div', { class: 'board-wrap' });
  // drag and drop plays as clicking does (js/drag.js)
  new DragController(boardWrap, {
    color: () => ex && ex.colour,
    radius: () => 18.5,
    pick: key => { if (selected !== key) { selected = key; choice = null; render(); } },
    drop: key => click(key),
    cancel: () => { selected = null; render(); },
  });

  const keyOf = p => (p === T.BAR ? `bar-${ex.colour}` : p === T.OFF ? `off-${ex.colour}` : String(T.toWhite(p, ex.colour)));

  async function load() {
    try {
      data = await get('/api/trainer');
    } catch (e) {
      clear(body).append(h('p', { class: 'message error', role: 'alert' }, e instanceof ApiError ? e.message : String(e)));
      return;
    }
    ex = data.exercise;
    answer = null; selected = null; choice = null; message = '';
    turn = ex && ex.kind === 'move' ? new T.Turn(T.moverBoard(ex.position.board, ex.colour), parseDice(ex.position.dice), ex.choices, false) : null;
    render();
  }

  async function send(text) {
    if (busy || answer) return;
    busy = true; message = '';
    render();
    try {
      answer = await post(`/api/trainer/${ex.id}/answer`, { choice: text });
      data.score = answer.score;
      selected = null; choice = null;
    } catch (e) {
      message = e instanceof ApiError ? e.message : String(e);
    } finally { busy = false; }
    render();
  }

  function click(key) {
    if (!turn || answer || busy) return;
    const moves = turn.moves();
    if (selected && moves.some(m => keyOf(m.from) === selected && keyOf(m.to) === key)) {
      const ms = moves.filter(m => keyOf(m.from) === selected && keyOf(m.to) === key);
      if (ms.length === 1) { turn.play(ms[0]); selected = null; } else choice = ms;
    } else if (moves.some(m => keyOf(m.from) === key)) {
      selected = selected === key ? null : key;
    } else selected = null;
    render();
  }

  function typed(text) {
    const r = T.matchTyped(turn.start, ex.choices, text, false);
    if (r.error) { message = r.error; render(); return; }
    send(r.text);
  }

  function drawBoard() {
    const p = ex.position;
    const board = turn ? T.whiteBoard(turn.board, ex.colour) : p.board;
    const sources = new Set(), dests = new Set();
    let diceUsed = null;
    const dice = parseDice(p.dice);
    if (turn && !answer) {
      for (const m of turn.moves()) {
        sources.add(keyOf(m.from));
        if (selected && keyOf(m.from) === selected) dests.add(keyOf(m.to));
      }
      if (choice) dests.add(keyOf(choice[0].to));
      const left = turn.diceLeft.slice();
      diceUsed = T.diceList(dice).map(d => { const i = left.indexOf(d); if (i >= 0) { left.splice(i, 1); return false; } return true; });
      if (dice[0] !== dice[1] && dice[0] < dice[1]) diceUsed.reverse();
    }
    const chosen = turn && !answer && turn.chosen();
    const svg = drawTables({
      board, bottom: ex.colour, dice, diceUsed, diceSide: p.on_roll,
      cube: p.cube, crawford: !p.cube && !!p.match_length, offer: ex.kind === 'take' ? { by: p.on_roll, to: ex.colour, value: (p.cube ? p.cube.value : 1) * 2 } : null,
      sources, dests, selected,
      // the answer shows the best play on the board, as the analysis board's hint does
      hint: answer && ex.kind === 'move' && answer.best.includes('/') ? { actor: ex.colour, segments: T.playSegments(answer.best, ex.colour) } : null,
      diceAction: chosen ? { label: `confirm ${chosen}`, run: () => send(chosen) } : null,
      onClick: k => click(k),
      label: `Backgammon board, ${cap(ex.colour)} at the bottom; ${prompt(ex)}`,
    });
    clear(boardWrap).append(svg);
  }

  function controls() {
    if (answer) {
      return h('div', { class: 'controls' }, h('button', { type: 'button', class: 'primary', 'data-testid': 'trainer-next', onclick: () => load() }, 'Next exercise'));
    }
    if (ex.kind !== 'move') {
      return h('div', { class: 'controls' }, ex.choices.map(c => h('button', {
        type: 'button', 'data-testid': `trainer-${c}`, disabled: busy ? true : null, onclick: () => send(c),
      }, CUBE_WORDS[c])));
    }
    const chosen = turn.chosen();
    const input = h('input', { type: 'text', id: 'trainer-move', 'data-testid': 'trainer-move-input', autocomplete: 'off', spellcheck: 'false', placeholder: 'or type a play, like 13/9 4/3' });
    return h('div', { class: 'controls' },
      choice ? choice.map(m => h('button', { type: 'button', 'data-testid': `choose-${m.effect || 'move'}`, onclick: () => { turn.play(m); choice = null; selected = null; render(); } }, m.effect === 'hit' ? 'Hit' : 'Do not hit')) : null,
      h('button', { type: 'button', class: 'primary', 'data-testid': 'trainer-confirm', disabled: !chosen || busy ? true : null, onclick: () => send(chosen) }, chosen ? `Answer ${chosen}` : 'Answer'),
      h('button', { type: 'button', 'data-testid': 'trainer-undo', disabled: turn.stepsTaken ? null : true, onclick: () => { turn.undo(); selected = null; choice = null; render(); } }, 'Undo'),
      h('form', { class: 'typed', onsubmit: e => { e.preventDefault(); typed(input.value); } },
        h('label', { for: 'trainer-move', class: 'sr-only' }, 'Play'), input, h('button', { type: 'submit', 'data-testid': 'trainer-move-submit' }, 'Answer')));
  }

  function render() {
    scoreEl.textContent = data ? scoreText(data.score) : '';
    if (!ex) {
      const sc = data.score;
      clear(body).append(h('p', { 'data-testid': 'trainer-empty' }, sc.exercises
        ? (data.next_due_ms ? `Nothing is due now: the next exercise comes back ${whenBack(data.next_due_ms)}.` : 'Every exercise is learned. Analyse more of your games for new ones.')
        : 'No exercises yet. Analyse a finished backgammon game (the Analyse button of its replay): each of your plays and cube decisions it marks doubtful, bad or very bad becomes an exercise here.'));
      return;
    }
    drawBoard();
    clear(body).append(
      h('p', { class: 'trainer-prompt', 'data-testid': 'trainer-prompt', 'data-kind': ex.kind, 'data-exercise': ex.id },
        prompt(ex), ex.answers ? ` (answered ${ex.answers} time${ex.answers === 1 ? '' : 's'} before, ${ex.rights} right)` : ''),
      h('div', { class: 'trainer-main' }, boardWrap,
        h('div', { class: 'trainer-side' },
          controls(),
          message ? h('p', { class: 'message error', role: 'alert', 'data-testid': 'trainer-message' }, message) : null,
          answer ? h('section', { class: 'hint-panel', 'data-testid': 'trainer-answer', 'aria-live': 'polite' }, answerPanel(ex, answer)) : null)));
  }

  await load();
  return null;
}
