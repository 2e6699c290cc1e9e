// The player page's progress over time (`GET /api/players/{id}/progress`): the rating after
// each rated game, one line per game type, and the error rates of each analysed backgammon
// game (chequer, cube and overall, mEMG per decision, with gnubg's words for the overall
// rate). Each graph is an SVG picture described in words, with its figures in a table
// behind "The figures".

import { h, s, GAME_NAMES } from './dom.js';

const W = 640, H = 220, PAD = { l: 48, r: 12, t: 12, b: 28 };

/** A line graph of `series` ([{name, cls, points: [y...]}]) over `n` games; `fmt` labels the y axis. */
function lineGraph(series, n, label, fmt, testid) {
  const ys = series.flatMap(x => x.points.filter(y => y != null));
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const pad = (hi - lo) * 0.08;
  lo -= pad; hi += pad;
  const x = i => PAD.l + (n <= 1 ? (W - PAD.l - PAD.r) / 2 : (i * (W - PAD.l - PAD.r)) / (n - 1));
  const y = v => PAD.t + ((hi - v) * (H - PAD.t - PAD.b)) / (hi - lo);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'progress-graph', role: 'img', 'aria-label': label, 'data-testid': testid });
  for (const v of [lo + pad, (lo + hi) / 2, hi - pad]) {
    svg.append(s('line', { x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v), class: 'grid' }),
      s('text', { x: PAD.l - 6, y: y(v) + 4, class: 'axis', 'text-anchor': 'end' }, fmt(v)));
  }
  svg.append(s('text', { x: W - PAD.r, y: H - 8, class: 'axis', 'text-anchor': 'end' }, `${n} game${n === 1 ? '' : 's'}, oldest first`));
  for (const ser of series) {
    const pts = ser.points.map((v, i) => (v == null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
    if (pts.length > 1) svg.append(s('polyline', { points: pts.join(' '), class: `series ${ser.cls}`, 'data-series': ser.name }));
    ser.points.forEach((v, i) => { if (v != null) svg.append(s('circle', { cx: x(i), cy: y(v), r: 3, class: `series ${ser.cls}` }, s('title', {}, `${ser.name}: ${fmt(v)}`))); });
  }
  return svg;
}

const legend = series => h('p', { class: 'progress-legend small' }, series.map(x => h('span', { class: `legend-key ${x.cls}` }, x.name)));

function ratingsPart(ratings) {
  const types = [...new Set(ratings.map(r => r.game_type))];
  const series = types.map((t, k) => ({
    name: GAME_NAMES[t] || t, cls: `s${k}`,
    points: ratings.map(r => (r.game_type === t ? r.rating : null)),
  }));
  const last = types.map(t => { const rs = ratings.filter(r => r.game_type === t); return `${GAME_NAMES[t] || t} ${Math.round(rs[rs.length - 1].rating)} after ${rs.length} game${rs.length === 1 ? '' : 's'}`; });
  return [
    lineGraph(series, ratings.length, `Rating after each rated game: ${last.join('; ')}.`, v => String(Math.round(v)), 'rating-graph'),
    legend(series),
    h('details', {}, h('summary', {}, 'The figures'), h('table', { 'data-testid': 'rating-table' },
      h('thead', {}, h('tr', {}, ['When', 'Game', 'Rating', 'Deviation'].map(t => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ratings.map(r => h('tr', {},
        h('td', {}, new Date(r.at_ms).toLocaleDateString()), h('td', {}, h('a', { href: `/replay/${r.game_id}`, 'data-link': true }, GAME_NAMES[r.game_type] || r.game_type)),
        h('td', { class: 'num' }, Math.round(r.rating)), h('td', { class: 'num' }, Math.round(r.deviation))))))),
  ];
}

function analysesPart(analyses) {
  const series = [
    { name: 'Overall', cls: 's0', points: analyses.map(a => a.overall) },
    { name: 'Chequer play', cls: 's1', points: analyses.map(a => a.chequer) },
    { name: 'Cube', cls: 's2', points: analyses.map(a => a.cube) },
  ];
  const last = analyses[analyses.length - 1];
  return [
    lineGraph(series, analyses.length, `Error rate of each analysed game, mEMG per decision; the last: overall ${last.overall.toFixed(1)} (${last.rating}).`, v => v.toFixed(1), 'error-graph'),
    legend(series),
    h('details', {}, h('summary', {}, 'The figures'), h('table', { 'data-testid': 'error-table' },
      h('thead', {}, h('tr', {}, ['When', 'Game', 'Chequer', 'Cube', 'Overall', 'Rating'].map(t => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, analyses.map(a => h('tr', {},
        h('td', {}, new Date(a.at_ms).toLocaleDateString()), h('td', {}, h('a', { href: `/replay/${a.game_id}`, 'data-link': true }, a.kind)),
        h('td', { class: 'num' }, a.chequer.toFixed(1)), h('td', { class: 'num' }, a.cube == null ? '—' : a.cube.toFixed(1)),
        h('td', { class: 'num' }, a.overall.toFixed(1)), h('td', {}, a.rating)))))),
  ];
}

/** The player page's "Progress" card. */
export function progressSection(p) {
  return h('section', { class: 'card', 'data-testid': 'progress' }, h('h2', {}, 'Progress'),
    h('h3', { class: 'small' }, 'Rating, game by game'),
    p.ratings.length ? ratingsPart(p.ratings) : h('p', { class: 'muted', 'data-testid': 'no-rating-history' }, 'No rated game since ratings have been kept game by game.'),
    h('h3', { class: 'small' }, 'Error rate of analysed games (backgammon)'),
    p.analyses.length ? analysesPart(p.analyses) : h('p', { class: 'muted', 'data-testid': 'no-analyses' }, 'No analysed game yet: open a finished backgammon game\'s replay and press Analyse.'));
}
