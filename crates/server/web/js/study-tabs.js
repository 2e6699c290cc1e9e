// The analysis board's games as tabs: backgammon (`/study`), Never-Finishing
// (`/study?game=never-finishing`) and Grasshopper (`/study?game=grasshopper`).

import { h } from './dom.js';

const TABS = [
  ['backgammon', 'Backgammon', '/study'],
  ['never-finishing', 'Never-Finishing', '/study?game=never-finishing'],
  ['grasshopper', 'Grasshopper', '/study?game=grasshopper'],
];

/** The tabs, `current` marked. */
export function gameTabs(current) {
  return h('nav', { class: 'study-tabs', 'aria-label': 'Game studied', 'data-testid': 'study-tabs' },
    TABS.map(([game, label, href]) => h('a', {
      href, 'data-link': true, 'data-testid': `study-tab-${game}`,
      'aria-current': game === current ? 'page' : null, class: game === current ? 'current' : null,
    }, label)));
}

/** The analysis board's address for a position of `game`. */
export function studyHref(game, position) {
  const q = new URLSearchParams();
  if (game !== 'backgammon') q.set('game', game);
  q.set('position', position);
  return `/study?${q}`;
}
