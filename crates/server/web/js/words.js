// Results and names in words, as pages show them: small pure functions (no DOM), kept apart
// so that the unit tests (tests/unit.mjs) can run them under plain node.

/** `1 point`, `2 points`. */
export const pointsWords = n => `${n} point${n === 1 ? '' : 's'}`;

/**
 * A finished game's result for one of its players, in words, as the player page lists it:
 * `won 2 points`, `lost the 3-point match by 1 point`, `draw`; an unfinished game's state.
 * `g` is a game summary (`state`, `winner`, `points`, `description`), `color` the player's seat.
 */
export function resultFor(g, color) {
  if (g.state === 'aborted') return 'aborted (no result)';
  if (g.state !== 'finished') return g.state;
  if (!g.winner) return 'draw';
  const verb = g.winner === color ? 'won' : 'lost';
  const match = /(\d+)-point match/.exec(g.description || '');
  if (match) return `${verb} the ${match[1]}-point match` + (g.points ? ` by ${pointsWords(g.points)}` : '');
  return `${verb} ${pointsWords(g.points || 0)}`;
}

const BOTS = ['easy', 'medium', 'strong'];

/**
 * The lobby's quick starts, by row: each choice's `id` (the button's test id is `quick-<id>`),
 * its text and title, and the body of `POST /api/games` it sends (options and opponent).
 */
export const QUICK_STARTS = [
  ...[1, 5].map(n => ({
    label: `${n}-point match`,
    choices: [
      ...BOTS.map(level => ({
        id: `${n}pt-${level}`, text: `vs ${level}`, title: `A ${n}-point backgammon match against the ${level} bot`,
        options: { game: 'backgammon', match_length: n }, opponent: { kind: 'bot', level },
      })),
      {
        id: `${n}pt-open`, text: 'vs a person', title: `A ${n}-point backgammon match: an open seat in the lobby for anyone`,
        options: { game: 'backgammon', match_length: n }, opponent: { kind: 'open' },
      },
    ],
  })),
  {
    label: 'Money game',
    choices: [
      ...BOTS.map(level => ({
        id: `money-${level}`, text: `vs ${level}`, title: `A backgammon money game against the ${level} bot`,
        options: { game: 'backgammon' }, opponent: { kind: 'bot', level },
      })),
      {
        id: 'money-open', text: 'vs a person', title: 'A backgammon money game: an open seat in the lobby for anyone',
        options: { game: 'backgammon' }, opponent: { kind: 'open' },
      },
    ],
  },
];

/**
 * The events by which the server ends a game for a player (docs/protocol.md, "Leaving a
 * game"), by kind: `entry`, the move list's word for it; `done`, what the actor did, after
 * their name ("alice resigned").
 */
export const SERVER_ENDS = {
  timeout: { entry: 'Out of time', done: 'ran out of time' },
  resign: { entry: 'Resigns', done: 'resigned' },
  abandon: { entry: 'Left the game', done: 'left the game untouched' },
  abort: { entry: 'Aborts', done: 'called the game off' },
};
