// The rules pages, written for players: `/rules` (the four games, and every way a game can
// end) and `/rules/GAME` (`backgammon`, `never-finishing`, `grasshopper`,
// `halma-grasshopper`). Each page's text is a static HTML fragment, `/rules/GAME.html`
// (crates/server/web/rules/), fetched and inserted here; every rule that can end a game is an
// element whose id is its end code (`/rules/backgammon#gammon`), so that a result links to
// the rule that decided it (`ruleHref`).

import { h, clear, GAME_NAMES } from './dom.js';

export const RULE_GAMES = ['backgammon', 'never-finishing', 'grasshopper', 'halma-grasshopper'];

const DICE = ['backgammon', 'never-finishing'];

/**
 * Every end code (protocol.md, "The end of a game", and `time-out` for the clock) and the
 * games whose rules page explains it, under an element whose id is the code.
 */
export const END_RULES = {
  'single': DICE,
  'gammon': DICE,
  'backgammon': ['backgammon'],
  'jacoby-single': ['backgammon'],
  'cube-dropped': ['backgammon'],
  'resigned-single': ['backgammon'],
  'resigned-gammon': ['backgammon'],
  'resigned-backgammon': ['backgammon'],
  'dead-position': ['never-finishing'],
  'scored-twice': ['grasshopper'],
  'both-passed': ['grasshopper'],
  'no-checkers-left': ['grasshopper'],
  'all-in-camp': ['halma-grasshopper'],
  'not-evacuated': ['halma-grasshopper'],
  'returned-to-camp': ['halma-grasshopper'],
  'repetition': ['halma-grasshopper'],
  'ply-limit': ['halma-grasshopper'],
  'agreement': ['halma-grasshopper'],
  'match-won': DICE,
  'session-complete': DICE,
  'time-out': RULE_GAMES,
  'resigned': ['never-finishing', 'grasshopper', 'halma-grasshopper'],
  'abandoned': RULE_GAMES,
  'aborted': RULE_GAMES,
};

/** Short names of the endings, for the index's table. */
const END_NAMES = {
  'single': 'a single game: all checkers borne off, the loser had borne off some',
  'gammon': 'a gammon: the loser had borne off none',
  'backgammon': 'a backgammon: a gammon with a loser\'s checker on the bar or in the winner\'s home board',
  'jacoby-single': 'a gammon counted single: the Jacoby rule',
  'cube-dropped': 'a double refused',
  'resigned-single': 'a resignation of a single game, accepted',
  'resigned-gammon': 'a resignation of a gammon, accepted',
  'resigned-backgammon': 'a resignation of a backgammon, accepted',
  'dead-position': 'a draw: no roll can ever move a checker again',
  'scored-twice': 'a win: two points in succession',
  'both-passed': 'a draw: a pass answered by a pass',
  'no-checkers-left': 'a draw: neither player has a checker left',
  'all-in-camp': 'a win: every piece in the opponent\'s camp',
  'not-evacuated': 'a loss: a piece still at home after the evacuation deadline',
  'returned-to-camp': 'a loss: a piece moved back home after the deadline',
  'repetition': 'a draw: the same position for the third time',
  'ply-limit': 'a draw: the move limit reached',
  'agreement': 'a draw by agreement',
  'match-won': 'the match won',
  'session-complete': 'a money session ended',
  'time-out': 'a loss on time: the clock ran out',
  'resigned': 'a resignation, the game ended at once',
  'abandoned': 'a game against a bot left untouched for 7 days',
  'aborted': 'called off before a move: no result',
};

/** The rules page and anchor that explain why a game of `game` ended with `code`, or null. */
export function ruleHref(game, code) {
  const games = END_RULES[code];
  if (!games) return RULE_GAMES.includes(game) ? `/rules/${game}#ending` : null;
  return `/rules/${games.includes(game) ? game : games[0]}#${code}`;
}

/**
 * A link "the rule" to the rule behind an ending, for a result sentence; `newTab` while a
 * game goes on (the end of a game of a match), so that the game page stays open.
 */
export function ruleLink(game, code, { testid = 'end-rule-link', newTab = false } = {}) {
  const href = code ? ruleHref(game, code) : null;
  if (!href) return null;
  const name = `The rule: ${END_NAMES[code] || code}${newTab ? ' (opens in a new tab)' : ''}`;
  return h('a', { href, 'data-link': newTab ? null : true, target: newTab ? '_blank' : null, rel: newTab ? 'noopener' : null,
    class: 'rule-link', 'data-testid': testid, 'data-code': code, 'aria-label': name }, 'the rule');
}

const cache = new Map();

async function fragment(game) {
  if (!cache.has(game)) {
    const r = await fetch(`/rules/${game}.html`);
    if (!r.ok) throw new Error(`the rules of ${GAME_NAMES[game]} are missing (${r.status})`);
    cache.set(game, await r.text());
  }
  const t = document.createElement('template');
  t.innerHTML = cache.get(game); // a static file of this server's own, no script
  return t.content;
}

function gamesNav(current) {
  return h('nav', { class: 'rules-games', 'aria-label': 'Rules of each game' },
    h('a', { href: '/rules', 'data-link': true, 'aria-current': current ? null : 'page' }, 'All games'),
    ...RULE_GAMES.map(g => h('a', { href: `/rules/${g}`, 'data-link': true, 'aria-current': g === current ? 'page' : null,
      'data-testid': `rules-nav-${g}` }, GAME_NAMES[g])));
}

/** Marks and shows the element a `#code` names. */
function showTarget(root, hash) {
  for (const el of root.querySelectorAll('.is-target')) el.classList.remove('is-target');
  const id = decodeURIComponent((hash || '').replace(/^#/, ''));
  if (!id) { window.scrollTo(0, 0); return; }
  const el = document.getElementById(id);
  if (!el || !root.contains(el)) return;
  el.classList.add('is-target');
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: 'center' });
}

/** `/rules` and `/rules/GAME`. */
export async function rulesPage(app, main, game) {
  const root = clear(main);
  if (!game) {
    document.title = 'Rules — Tabula';
    const blurb = {
      'backgammon': 'the classic race with hitting, the doubling cube, matches and money play.',
      'never-finishing': 'backgammon with all fifteen checkers starting at the far end, where a blot can be hit or trapped; no cube.',
      'grasshopper': 'a race on the backgammon board without dice: build walls, bear them off, score twice in a row.',
      'halma-grasshopper': 'the 1948 Halma game on a draughts board: step and jump your pieces into the opposite corner.',
    };
    const rows = Object.keys(END_RULES).map(c => h('tr', {},
      h('td', {}, END_NAMES[c], ' ', h('code', {}, c)),
      h('td', {}, END_RULES[c].map((g, i) => [i ? ', ' : '', h('a', { href: `/rules/${g}#${c}`, 'data-link': true }, GAME_NAMES[g])]))));
    root.append(h('div', { class: 'rules' },
      h('h1', {}, 'Rules'),
      gamesNav(null),
      h('p', {}, 'The rules of the four games as this server plays them, written for players. Each page ends with how the game can end, and with the clock.'),
      h('ul', { class: 'rules-index', 'data-testid': 'rules-index' }, RULE_GAMES.map(g => h('li', {},
        h('a', { href: `/rules/${g}`, 'data-link': true, 'data-testid': `rules-${g}` }, GAME_NAMES[g]), ' — ', blurb[g]))),
      h('section', { 'aria-labelledby': 'endings' },
        h('h2', { id: 'endings' }, 'Why a game ended'),
        h('p', {}, 'When a game ends, the page says why, with a link to the rule. Every ending:'),
        h('table', { class: 'endings' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Ending'), h('th', { scope: 'col' }, 'Rule'))),
          h('tbody', {}, rows)))));
    window.scrollTo(0, 0);
    return { path: location.pathname, keepOnHashChange: true, onHash: () => {} };
  }
  if (!RULE_GAMES.includes(game)) {
    document.title = 'Not found — Tabula';
    root.append(h('h1', {}, 'Not found'), h('p', {}, 'No rules page here. ', h('a', { href: '/rules', 'data-link': true }, 'All the rules.')));
    return null;
  }
  document.title = `Rules of ${GAME_NAMES[game]} — Tabula`;
  const body = await fragment(game);
  const article = h('div', { class: 'rules', 'data-testid': 'rules-page', 'data-game': game });
  article.append(gamesNav(game), body);
  root.append(article);
  showTarget(article, location.hash);
  // links inside the page (`#gammon`) move to the rule without reloading the page
  const onHashChange = () => showTarget(article, location.hash);
  window.addEventListener('hashchange', onHashChange);
  return {
    path: location.pathname, keepOnHashChange: true, onHash: hash => showTarget(article, hash),
    destroy: () => window.removeEventListener('hashchange', onHashChange),
  };
}
