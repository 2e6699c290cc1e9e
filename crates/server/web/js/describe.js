// "Describe board": the position in words, for players who cannot see the board (the game
// page writes it into an aria-live region on request). One sentence per line: whose turn
// and the dice, then each side's checkers or pieces, the bar, the trays, the cube, the score.

import { cap, other } from './dom.js';
import { label as ghLabel } from './board-grasshopper.js';
import { camp } from './board-halma.js';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = items => (items.length ? items.join(', ') : 'none');

/**
 * The description of `view` as a list of sentences. `o`:
 *  bottom 'white'|'black': the side whose numbers the board shows (backgammon family)
 *  names {white, black}: the players' names; me: the viewer's colour or null
 *  board: the board drawn (the move being built included), else view.board
 *  diceLeft: the dice not yet played in the move being built
 *  status: the page's status line ("Your turn: move.")
 */
export function describeBoard(view, o = {}) {
  const who = c => `${cap(c)} (${(o.names && o.names[c]) || c}${o.me === c ? ', you' : ''})`;
  const lines = [];
  if (o.status) lines.push(o.status);
  if (view.game === 'backgammon' || view.game === 'never-finishing') lines.push(...tables(view, o, who));
  else if (view.game === 'grasshopper') lines.push(...grasshopper(view, who));
  else if (view.game === 'halma-grasshopper') lines.push(...halma(view, who));
  return lines;
}

function tables(view, o, who) {
  const b = o.board || view.board;
  const bottom = o.bottom || 'white';
  const num = w => (bottom === 'white' ? w : 25 - w); // the numbers on the board
  const lines = [];
  if (view.dice) {
    const left = o.diceLeft;
    lines.push(`${cap(view.turn)} rolled ${view.dice[0]} and ${view.dice[1]}` +
      (left && left.length !== (view.dice[0] === view.dice[1] ? 4 : 2) ? `; left to play: ${left.length ? left.join(', ') : 'none'}.` : '.'));
  }
  lines.push(`Points are numbered from ${cap(bottom)}'s side: ${cap(bottom)}'s home board is points 1 to 6, ${cap(other(bottom))}'s is points 19 to 24.`);
  const trapped = new Set(b.trapped || []);
  for (const c of [bottom, other(bottom)]) {
    const on = [];
    // from the far end of the mover's way to home: White moves 24 -> 1 in White's numbers
    const order = [];
    for (let w = 1; w <= 24; w++) order.push(w);
    order.sort((x, y) => (c === 'white' ? y - x : x - y));
    for (const w of order) {
      const v = b.points[w - 1];
      const mine = c === 'white' ? v > 0 : v < 0;
      if (mine) on.push(`${Math.abs(v)} on ${num(w)}` + (trapped.has(w) ? ` (trapping a ${other(c)} checker)` : ''));
      else if (trapped.has(w) && v !== 0) on.push(`1 trapped on ${num(w)}`);
    }
    const pips = b.pips ? b.pips[c] : null;
    lines.push(`${who(c)}: ${list(on)}; on the bar ${b.bar[c]}; borne off ${b.off[c]}` + (pips != null ? `; ${pips} pips.` : '.'));
  }
  if (view.game === 'backgammon' && view.cube) {
    lines.push(view.cube.owner ? `The cube is at ${view.cube.value}, owned by ${cap(view.cube.owner)}.` : `The cube is in the middle, at ${view.cube.value}.`);
  }
  if (view.crawford_game) lines.push('This is the Crawford game: no doubling.');
  if (view.score) {
    lines.push(view.match_length
      ? `Match to ${view.match_length}, game ${view.game_number}: White ${view.score.white}, Black ${view.score.black}.`
      : `Score: White ${view.score.white}, Black ${view.score.black}.`);
  }
  return lines;
}

function grasshopper(view, who) {
  const lines = [];
  lines.push(`Both players move from A1 to D6 and bear off from D. Score: White ${view.score.white}, Black ${view.score.black}` +
    (view.last_scorer ? `; ${cap(view.last_scorer)} scored last and wins by scoring again.` : '; nobody has scored yet.'));
  for (const c of ['white', 'black']) {
    const on = [];
    view.points.forEach((cell, i) => {
      if (cell && cell.color === c) on.push(`${cell.count === 2 ? 'a wall' : 'a single'} on ${ghLabel(i + 1)}`);
    });
    lines.push(`${who(c)}: in hand ${view.hand[c]}; ${list(on)}; ${plural(view.borne_off[c] / 2, 'wall')} borne off.`);
  }
  if (view.passed) lines.push(`${cap(other(view.turn))} passed last turn.`);
  return lines;
}

function halma(view, who) {
  const n = view.size;
  const lines = [`${n}×${n} board; ply ${view.ply} of ${view.ply_limit}; ` +
    (view.evacuation ? `every piece must leave its camp by its owner's move ${view.evacuation}.` : 'no evacuation rule.')];
  const campOf = sq => camp(sq.charCodeAt(0) - 97, Number(sq.slice(1)) - 1, n);
  for (const c of ['white', 'black']) {
    const pieces = [...view.pieces[c]].sort((a, b) => (Number(a.slice(1)) - Number(b.slice(1))) || a.localeCompare(b));
    const home = pieces.filter(sq => campOf(sq) === c).length;
    const there = pieces.filter(sq => campOf(sq) === other(c)).length;
    lines.push(`${who(c)}: ${pieces.join(', ')}; ${home} still in their own camp, ${there} in the target camp.`);
  }
  if (view.draw_offer) lines.push(`${cap(view.draw_offer)} offers a draw.`);
  return lines;
}
