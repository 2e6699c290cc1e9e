// The game page's move list in the notation players know (issue 16): backgammon and
// Never-Finishing as numbered lines of White's and Black's turns, each a roll with its play
// (`31: 8/5 6/5`) or a cube action (`Doubles => 2`, `Takes`), the opening roll saying who
// threw which die, a heading per game of a match or session with the score before it and the
// result's sentence after it; Grasshopper and Halma numbered by move, White's and Black's in
// one line. Built from the game's log (rolls, actions, joins) and the finished games' `version`
// (the event that ended each), so that it splits the games exactly where the server did.

import { h } from './dom.js';
import { SERVER_ENDS } from './words.js';

const DICE_GAMES = new Set(['backgammon', 'never-finishing']);

/** `5-2` as a .mat roll: the larger die first, `52`. */
function matDice(text) {
  const [a, b] = text.split('-').map(Number);
  return `${Math.max(a, b)}${Math.min(a, b)}`;
}

const RESIGN = { single: 'a single game', gammon: 'a gammon', backgammon: 'a backgammon' };

/** Whether a roll event was made by the server for a player (nonce `server:N`, docs/dice.md). */
export const serverRolled = e => !!e && e.kind === 'roll' && typeof e.nonce === 'string' && e.nonce.startsWith('server:');

/** The words for a roll the server made: for a person who did not roll in time, or for a bot. */
export const serverRollNote = kind => (kind === 'bot' ? 'rolled by the server' : 'rolled by the server (absent)');

/**
 * The games of the list: `[{ number, scoreBefore, result, lines: [{ white, black }] }]`, each
 * entry `{ text, version, kind, note }` or null (`note`: "rolled by the server (absent)" for a
 * play whose roll the server made). `events` are `[version, event]` in order; `games` the
 * view's finished games; `options` the game's options (automatic doubles); `kinds` each seat's
 * player kind (`{white: 'guest', black: 'bot'}`), for the words of a server's roll.
 */
export function buildMoveList(events, game, games, options = {}, formatMove = p => p, kinds = {}) {
  const ends = (games || []).map(g => g.version).filter(v => v != null);
  const out = [];
  let current = null;
  // pending: the roll not yet played (its side, version and whether the server made it);
  // side: whose turn it is, so that a roll with no legal play (the turn passes at once,
  // nothing logged) is still listed ("52: no move")
  let cube = 1, ties = 0, pending = null, opened = false, side = null;
  const start = () => {
    const k = out.length;
    current = { number: k + 1, scoreBefore: k > 0 && games[k - 1] ? games[k - 1].score : null, result: null, lines: [] };
    out.push(current);
    cube = 1; ties = 0; pending = null; opened = false; side = null;
  };
  const noteOf = r => (r && r.server ? serverRollNote(kinds[r.side]) : null);
  // a roll left unplayed: its player could not move, and the turn passed
  const flush = () => {
    if (!pending) return;
    put(pending.side, { text: `${pending.dice}: no move`, version: pending.version, kind: 'move', note: noteOf(pending) });
    side = pending.side === 'white' ? 'black' : 'white';
    pending = null;
  };
  const put = (actor, entry) => {
    let line = current.lines[current.lines.length - 1];
    const col = actor === 'black' ? 'black' : 'white';
    if (!line || (col === 'white' && (line.white || line.black)) || (col === 'black' && line.black)) {
      line = { white: null, black: null };
      current.lines.push(line);
    }
    line[col] = entry;
  };
  start();
  for (const [version, e] of events) {
    if (e.kind === 'join') continue;
    const ending = SERVER_ENDS[e.kind];
    if (ending) {
      // the server ended the game for the player (a roll of theirs left unplayed is listed
      // with it): out of time, resigned, left the game, aborted
      const r = pending && pending.side === e.actor ? pending : null;
      pending = null;
      put(e.actor, { text: r ? `${r.dice}: ${ending.entry.toLowerCase()}` : ending.entry, version, kind: e.kind, note: noteOf(r) });
    } else if (!DICE_GAMES.has(game)) {
      if (e.kind === 'action') put(e.actor, { text: formatMove(e.payload), version, kind: 'move' });
    } else if (e.kind === 'roll') {
      const server = serverRolled(e);
      if (!opened) {
        const [w, b] = e.payload.split('-').map(Number);
        // the opening roll is nobody's turn: absent means no person threw it
        const by = server ? `, ${serverRollNote(kinds.white === 'bot' && kinds.black === 'bot' ? 'bot' : 'guest')}` : '';
        if (w === b) {
          const auto = (options.automatic_doubles || 0) > ties;
          if (auto) { ties++; cube *= 2; }
          current.opening = (current.opening || []).concat(`White ${w}, Black ${b}${by}: a tie${auto ? `, the cube turns to ${cube}` : ''}, thrown again`);
        } else {
          current.opening = (current.opening || []).concat(`White ${w}, Black ${b}${by}: ${w > b ? 'White' : 'Black'} starts`);
          opened = true;
          side = w > b ? 'white' : 'black';
          // backgammon plays the opening dice; in Never-Finishing the winner rolls both dice
          // again, so the opening roll is no turn of its own
          pending = game === 'never-finishing' ? null : { dice: matDice(e.payload), side, version, server: false };
        }
      } else {
        flush();
        pending = { dice: matDice(e.payload), side: side || e.actor || 'white', version, server };
      }
    } else if (e.kind === 'action') {
      const p = e.payload;
      // the other player's turn begins (a double, or the choice to roll): the roll before had no play
      if (pending && e.actor && e.actor !== pending.side && (p === 'roll' || p === 'double')) flush();
      let text = null, note = null;
      if (p === 'roll') text = null; // chose to roll rather than double
      else if (p === 'double') { cube *= 2; text = `Doubles => ${cube}`; }
      else if (p === 'beaver') { cube *= 2; text = `Beavers => ${cube}`; }
      else if (p === 'take') text = 'Takes';
      else if (p === 'drop') text = 'Drops';
      else if (p.startsWith('resign ')) text = `Offers to resign ${RESIGN[p.slice(7)] || p.slice(7)}`;
      else if (p === 'accept') text = 'Accepts the resignation';
      else if (p === 'reject') text = 'Rejects the resignation';
      else {
        text = pending ? `${pending.dice}: ${p}` : p;
        note = noteOf(pending);
        pending = null;
        side = e.actor === 'white' ? 'black' : 'white';
      }
      if (text) put(e.actor, { text, version, kind: /^\d\d: /.test(text) ? 'move' : 'cube', note });
    }
    if (ends.length >= out.length && version === ends[out.length - 1]) {
      current.result = games[out.length - 1].sentence || null;
      start();
    }
  }
  // A game begun but with nothing in it yet (the next game of a match) is not shown.
  if (out.length > 1 && !current.lines.length && !current.opening) out.pop();
  return out;
}

/** A game's heading: `Game 3 — mochy_fan 2, Tabula easy 0` (the names as their players wrote them). */
export function gameHeading(g, names) {
  return `Game ${g.number}` + (g.scoreBefore ? ` — ${names.white} ${g.scoreBefore.white}, ${names.black} ${g.scoreBefore.black}` : '');
}

/** The list as elements: a section per game with its heading, lines and result. */
export function renderMoveList(list, { game, matchLength, lastVersion, names }) {
  const many = list.length > 1 || (matchLength || 0) > 0;
  const cell = (entry, col) => {
    if (!entry) return h('td', { class: 'move empty' });
    return h('td', {
      class: `move ${entry.kind}` + (entry.version === lastVersion ? ' last' : ''),
      'data-version': entry.version, 'data-actor': col, 'data-testid': 'move-entry',
    }, entry.text, entry.note ? h('span', { class: 'server-roll', 'data-testid': 'server-roll' }, ` — ${entry.note}`) : null);
  };
  return list.map(g => h('section', { class: 'move-game', 'data-testid': 'move-game', 'data-game-number': g.number },
    many ? h('h3', { class: 'small', 'data-testid': 'move-game-heading' }, gameHeading(g, names)) : '',
    g.opening ? h('p', { class: 'small muted opening', 'data-testid': 'move-opening' }, 'Opening roll: ', g.opening.join('; '), '.') : '',
    h('table', { class: 'move-table' },
      h('thead', { class: 'sr-only' }, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'White'), h('th', { scope: 'col' }, 'Black'))),
      h('tbody', {}, g.lines.map((line, i) => h('tr', {},
        h('td', { class: 'num' }, `${i + 1}.`), cell(line.white, 'white'), cell(line.black, 'black'))))),
    g.result ? h('p', { class: 'small move-result', 'data-testid': 'move-game-result' }, g.result) : ''));
}

export { DICE_GAMES };
