// Unit tests of the client's pure modules (no browser): `node --test unit.mjs`, run by
// crates/cli/tests/browser.rs. Each test is named after the defect or rule it pins.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMoveList, gameHeading } from '../js/move-list.js';
import { resultFor, QUICK_STARTS, SERVER_ENDS } from '../js/words.js';
import { takerView } from '../js/hint.js';
import { emptyModel, startModel, toXgid, applyClick, onBoard } from '../js/study-editor.js';

const roll = (payload, actor = null) => ({ kind: 'roll', actor, payload, nonce: 'n' });
const act = (actor, payload) => ({ kind: 'action', actor, payload });
const numbered = events => events.map((e, i) => [i + 1, e]);

test('the_never_finishing_opening_roll_is_no_move_of_its_own', () => {
  // White wins the opening 6-4 and rolls both dice again (docs/rules/never-finishing.md)
  const events = numbered([roll('6-4'), roll('5-2', 'white'), act('white', '24/19 24/22')]);
  const [game] = buildMoveList(events, 'never-finishing', []);
  assert.deepEqual(game.opening, ['White 6, Black 4: White starts']);
  assert.equal(game.lines.length, 1);
  assert.equal(game.lines[0].white.text, '52: 24/19 24/22');
  assert.ok(!JSON.stringify(game.lines).includes('no move'), JSON.stringify(game.lines));
});

test('the_backgammon_opening_roll_is_played_by_its_winner', () => {
  const events = numbered([roll('6-4'), act('white', '24/18 13/9')]);
  const [game] = buildMoveList(events, 'backgammon', []);
  assert.equal(game.lines[0].white.text, '64: 24/18 13/9');
});

test('a_lost_match_says_it_was_a_match', () => {
  const g = { state: 'finished', winner: 'black', points: 1, description: '3-point match' };
  assert.equal(resultFor(g, 'white'), 'lost the 3-point match by 1 point');
  assert.equal(resultFor(g, 'black'), 'won the 3-point match by 1 point');
  const money = { state: 'finished', winner: 'white', points: 2, description: 'money game, beavers, Jacoby rule' };
  assert.equal(resultFor(money, 'white'), 'won 2 points');
  assert.equal(resultFor({ state: 'finished', winner: null, points: 0 }, 'white'), 'draw');
  assert.equal(resultFor({ state: 'playing' }, 'white'), 'playing');
});

test('facing_a_double_the_hint_is_for_the_taker', () => {
  // the doubler's equities: double-take +0.4 (a take costs the taker 0.4), drop +1
  const money = takerView({ unit: 'money', no_double: 0.3, double_take: 0.4, double_drop: 1 });
  assert.deepEqual(money, { take: -0.4, drop: -1, proper: 'take' });
  assert.equal(takerView({ unit: 'money', double_take: 1.3, double_drop: 1 }).proper, 'drop');
  assert.equal(takerView({ unit: 'money', double_take: -0.2, double_drop: 1 }).proper, 'take (beaver where allowed)');
  // match-winning chances: the taker's are the complement
  const mwc = takerView({ unit: 'mwc', double_take: 0.7, double_drop: 0.75 });
  assert.ok(Math.abs(mwc.take - 0.3) < 1e-12 && Math.abs(mwc.drop - 0.25) < 1e-12);
  assert.equal(mwc.proper, 'take');
});

test('quick_starts_are_backgammon_against_each_bot_and_a_person', () => {
  const ids = QUICK_STARTS.flatMap(r => r.choices.map(c => c.id));
  assert.equal(new Set(ids).size, ids.length);
  for (const q of QUICK_STARTS.flatMap(r => r.choices)) {
    assert.equal(q.options.game, 'backgammon');
    assert.ok(q.opponent.kind === 'open' || ['easy', 'medium', 'strong'].includes(q.opponent.level), q.id);
  }
  assert.deepEqual(QUICK_STARTS.map(r => r.label), ['1-point match', '5-point match', 'Money game']);
});

test('names_keep_their_case_in_the_move_list', () => {
  const names = { white: 'mochy_fan', black: 'Tabula easy' };
  assert.equal(gameHeading({ number: 3, scoreBefore: { white: 2, black: 0 } }, names), 'Game 3 — mochy_fan 2, Tabula easy 0');
  assert.equal(gameHeading({ number: 1, scoreBefore: null }, names), 'Game 1');
});

test('a_game_the_server_ended_is_listed_with_why', () => {
  const events = numbered([act('white', 'c3-d4'), act('black', 'f6-e5'), { kind: 'resign', actor: 'white', payload: '' }]);
  const [game] = buildMoveList(events, 'halma-grasshopper', []);
  assert.equal(game.lines[1].white.text, 'Resigns');
  assert.equal(game.lines[1].white.kind, 'resign');
  // a roll left unplayed is listed with the ending
  const dice = numbered([roll('6-4'), act('white', '24/18 13/9'), roll('3-1', 'black'), { kind: 'timeout', actor: 'black', payload: '' }]);
  const [bg] = buildMoveList(dice, 'backgammon', []);
  assert.equal(bg.lines[0].black.text, '31: out of time');
  assert.equal(SERVER_ENDS.abort.entry, 'Aborts');
});

test('the_editor_writes_the_starting_position_as_xg_does', () => {
  assert.equal(toXgid(startModel()), 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10');
  const m = startModel();
  Object.assign(m, { onRoll: 'black', dice: '4-2', cubeValue: 2, cubeOwner: 'white', matchLength: 5, score: { white: 1, black: 2 } });
  assert.equal(toXgid(m), 'XGID=-b----E-C---eE---c-e----B-:1:1:-1:42:1:2:0:5:10');
  m.crawford = true;
  assert.equal(toXgid(m), 'XGID=-b----E-C---eE---c-e----B-:0:0:-1:42:1:2:1:5:10', 'no cube in the Crawford game');
});

test('the_editor_refuses_both_sides_on_one_point', () => {
  const m = emptyModel();
  assert.equal(applyClick(m, '6', 'white'), null);
  const why = applyClick(m, '6', 'black');
  assert.match(why, /cannot share a point/);
  assert.equal(m.points[5], 1, 'the refused click changed nothing');
});

test('the_editor_refuses_a_sixteenth_checker', () => {
  const m = startModel();
  assert.equal(onBoard(m, 'white'), 15);
  assert.match(applyClick(m, '2', 'white'), /all 15 checkers/);
  assert.match(applyClick(m, 'bar-white', 'white'), /all 15 checkers/);
  assert.equal(applyClick(m, '6', 'remove'), null);
  assert.equal(applyClick(m, 'bar-white', 'white'), null);
  assert.equal(m.bar.white, 1);
  assert.match(applyClick(m, 'bar-black', 'white'), /Black's bar/);
  assert.match(applyClick(m, 'off-white', 'white'), /borne off/);
  assert.equal(toXgid(m).slice(5, 31), '-b----D-C---eE---c-e----BA');
});
