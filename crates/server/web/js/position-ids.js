// A backgammon position's identifiers under a board (the game page, the replay): its XGID and
// gnubg ID, selectable to copy, and a link that opens the position on the analysis board
// (not for a finished position: there is nothing left to study in it).

import { h } from './dom.js';

/** The identifiers of a backgammon view (`xgid`, `gnubg`, `status`). */
export function positionIds(v) {
  const over = v.status && v.status.status === 'over';
  return h('p', { class: 'ids' },
    h('code', { 'data-testid': 'ids-xgid' }, v.xgid), ' · ',
    h('span', {}, 'gnubg ', h('code', { 'data-testid': 'ids-gnubg' }, v.gnubg)),
    over ? null : [' · ', h('a', { href: `/study?position=${encodeURIComponent(v.xgid)}`, 'data-link': true, 'data-testid': 'open-study' }, 'Open on the analysis board')]);
}
