// The pages other than the game: lobby (create, join, watch), login / registration / guest,
// player (rating and history), statistics per game, and the replay of a game's record (with
// the analysis of a finished backgammon game: js/analysis.js).

import { get, post, randomHex } from './api.js';
import { h, s, clear, cap, other, GAME_NAMES, playerLink, playerName } from './dom.js';
import { drawTables } from './board-tables.js';
import { drawGrasshopper, actionKeys } from './board-grasshopper.js';
import { drawHalma, moveEnds } from './board-halma.js';
import { playSegments } from './tables-logic.js';
import { resultFor, QUICK_STARTS, SERVER_ENDS } from './words.js';
import { AnalysisPanel, alternativesTable, bestBoard, decisionText, markBadge, markClass } from './analysis.js';
import { ruleLink } from './rules.js';
import { positionIds } from './position-ids.js';
import { studyHref } from './study-tabs.js';
import { grasshopperBody } from './study-grasshopper.js';
import { progressSection } from './progress.js';
import { clockChoices, customClock } from './clock.js';

const when = ms => new Date(ms).toLocaleString();

function field(label, input, help) {
  return h('label', { class: 'field' }, h('span', {}, label), input, help ? h('small', { class: 'muted' }, help) : null);
}

function select(testid, options, value) {
  return h('select', { 'data-testid': testid, name: testid },
    options.map(([v, t]) => h('option', { value: v, selected: String(v) === String(value) }, t)));
}

function guestForm(app, onDone) {
  const nick = h('input', { type: 'text', required: true, maxlength: 32, 'data-testid': 'guest-name', placeholder: 'nickname', 'aria-label': 'Nickname' });
  const msg = h('span', { class: 'message error', role: 'alert' });
  return h('form', { class: 'row', 'data-testid': 'guest-form', onsubmit: async e => {
    e.preventDefault();
    try {
      app.setMe(await post('/api/guest', { nickname: nick.value }));
      onDone();
    } catch (err) { msg.textContent = err.message; }
  } }, h('label', {}, 'Play as a guest: ', nick), h('button', { type: 'submit', class: 'primary', 'data-testid': 'guest-submit' }, 'Start'), msg);
}

// ---- lobby ------------------------------------------------------------------------------

const newGameKey = id => `tabula.newGame.${id}`;

/** The New game form's last settings of player `id` on this browser, or null. */
function loadNewGame(id) {
  try {
    const v = JSON.parse(localStorage.getItem(newGameKey(id)) || 'null');
    return v && typeof v === 'object' ? v : null;
  } catch (e) { return null; }
}

function saveNewGame(id, values) {
  try { localStorage.setItem(newGameKey(id), JSON.stringify(values)); } catch (e) { /* private mode: not kept */ }
}

/** One click for the common games: backgammon 1- and 5-point matches against each bot, a
 * money game against a bot, and an open seat for a person (js/words.js: QUICK_STARTS). */
function quickStart(app) {
  const msg = h('p', { class: 'message', role: 'alert', 'data-testid': 'quick-message' });
  const start = async (q, button) => {
    button.disabled = true;
    try {
      const created = await post('/api/games', { options: q.options, opponent: q.opponent, color: 'white', client_seed: randomHex(12) });
      app.navigate(`/game/${created.id}`);
    } catch (err) {
      button.disabled = false;
      msg.textContent = `The server refused: ${err.message}`;
      msg.className = 'message error';
    }
  };
  const rows = QUICK_STARTS.map(r => h('div', { class: 'quick-row', role: 'group', 'aria-label': r.label },
    h('span', { class: 'quick-label' }, r.label),
    r.choices.map(q => {
      const b = h('button', { type: 'button', 'data-testid': `quick-${q.id}`, title: q.title, onclick: () => start(q, b) }, q.text);
      return b;
    })));
  return h('section', { class: 'card quick', 'data-testid': 'quick-start' }, h('h2', {}, 'Quick start'),
    h('p', { class: 'small muted' }, 'Backgammon in one click, you play White; the form below has every option.'), rows, msg);
}

export async function lobbyPage(app, main) {
  document.title = 'Lobby — Tabula';
  const root = clear(main);
  root.append(h('h1', {}, 'Lobby'));
  if (!app.me) {
    // a visitor is asked who they are first: the quick start and the form come after
    root.append(h('section', { class: 'card', 'data-testid': 'welcome' }, h('h2', {}, 'Welcome'),
      h('p', {}, 'Play backgammon, Never-Finishing, Grasshopper and Grasshopper (Halma) against bots or people. ',
        'To start a game, ', h('a', { href: '/login', 'data-link': true }, 'log in or register'), ', or:'),
      guestForm(app, () => lobbyPage(app, main))));
  } else root.append(quickStart(app));

  // create a game
  const game = select('opt-game', Object.entries(GAME_NAMES), 'backgammon');
  const matchLength = h('input', { type: 'number', min: 0, max: 64, value: 3, 'data-testid': 'opt-match-length' });
  const crawford = h('input', { type: 'checkbox', checked: true, 'data-testid': 'opt-crawford' });
  const practice = h('input', { type: 'checkbox', 'data-testid': 'opt-practice' });
  const beavers = h('input', { type: 'checkbox', checked: true, 'data-testid': 'opt-beavers' });
  const jacoby = h('input', { type: 'checkbox', checked: true, 'data-testid': 'opt-jacoby' });
  const autoDoubles = h('input', { type: 'number', min: 0, max: 15, value: 0, 'data-testid': 'opt-auto-doubles' });
  const checkers = select('opt-checkers', [2, 4, 6, 8, 10, 12, 14].map(n => [n, `${n} checkers`]), 14);
  const size = select('opt-size', [[8, '8×8 (10 pieces)'], [10, '10×10 (15 pieces)']], 8);
  const evacuation = h('input', { type: 'number', min: 0, max: 300, placeholder: 'default', 'data-testid': 'opt-evacuation' });
  const opponent = select('opt-opponent', [['bot', 'a bot'], ['invite', 'a friend (invitation link)'], ['open', 'anyone (open seat in the lobby)']], 'bot');
  const level = select('opt-level', [['random', 'random'], ['easy', 'easy'], ['medium', 'medium'], ['strong', 'strong']], 'easy');
  const color = select('opt-color', [['white', 'White'], ['black', 'Black']], 'white');
  const seed = h('input', { type: 'text', maxlength: 128, value: randomHex(12), 'data-testid': 'opt-seed' });
  // the clock: presets per game (js/clock.js), or a custom delay and reserve
  const clock = h('select', { 'data-testid': 'opt-clock', name: 'opt-clock' });
  const clockDelay = h('input', { type: 'number', min: 0, max: 600, step: 1, value: 12, 'data-testid': 'opt-clock-delay' });
  const clockReserve = h('input', { type: 'number', min: 0, max: 10080, step: 'any', value: 3, 'data-testid': 'opt-clock-reserve' });
  const msg = h('p', { class: 'message', role: 'alert', 'data-testid': 'create-message' });

  const matchField = field('Match length', matchLength, '0 = a money game (one game)');
  const crawfordField = field('Crawford rule', crawford);
  const moneyFields = h('div', { class: 'money' }, field('Beavers', beavers), field('Jacoby rule', jacoby), field('Automatic doubles', autoDoubles, 'on opening ties, at most'));
  const checkersField = field('Checkers each', checkers);
  const sizeField = field('Board', size);
  const evacuationField = field('Evacuation deadline', evacuation, 'a piece still in your own camp after this move of yours loses; empty: 30 on 8×8, 50 on 10×10; 0: off');
  const levelField = field('Bot level', level);
  const clockField = field('Clock', clock, 'a delay a move, then a reserve for the whole game or match; out of time loses');
  const customClockFields = h('div', { class: 'custom-clock', 'data-testid': 'opt-clock-custom' },
    field('Delay (seconds a move)', clockDelay, 'free seconds each turn, 0 to 600'),
    field('Reserve (minutes)', clockReserve, 'for the whole game or match; decimals allowed: 0.5 = 30 s'));
  let clockOptions = [];
  const rulesLink = h('a', { href: '/rules/backgammon', 'data-link': true, 'data-testid': 'rules-link', class: 'small' });
  const sync = () => {
    const g = game.value;
    rulesLink.href = `/rules/${g}`;
    rulesLink.textContent = `Rules of ${GAME_NAMES[g]}`;
    const dice = g === 'backgammon' || g === 'never-finishing';
    matchField.hidden = !dice;
    const money = Number(matchLength.value) === 0;
    crawfordField.hidden = g !== 'backgammon' || money;
    moneyFields.hidden = g !== 'backgammon' || !money;
    checkersField.hidden = g !== 'grasshopper';
    sizeField.hidden = g !== 'halma-grasshopper';
    evacuationField.hidden = g !== 'halma-grasshopper';
    levelField.hidden = opponent.value !== 'bot';
    // the clock's presets follow the game (and the match length); the choice is kept
    const was = clock.value || 'none';
    clockOptions = clockChoices(g, dice ? matchLength.value : 0);
    clear(clock).append(...clockOptions.map(o => h('option', { value: o.value }, o.label)));
    clock.value = clockOptions.some(o => o.value === was) ? was : 'none';
    customClockFields.hidden = clock.value !== 'custom';
  };
  // the last settings of this player on this browser come back (the seed is new each time)
  const remembered = { game, matchLength, crawford, practice, beavers, jacoby, autoDoubles, checkers, size, evacuation, opponent, level, color, clock, clockDelay, clockReserve };
  const saved = app.me ? loadNewGame(app.me.id) : null;
  const restore = keys => {
    for (const k of keys) {
      const el = remembered[k], v = saved[k];
      if (v === undefined || v === null) continue;
      if (el.type === 'checkbox') el.checked = !!v; else el.value = String(v);
    }
  };
  if (saved) restore(Object.keys(remembered).filter(k => k !== 'clock'));
  for (const el of [game, matchLength, opponent, clock]) el.addEventListener('input', sync);
  sync();
  if (saved && saved.clock) { restore(['clock']); sync(); } // the clock's choices follow the game

  const form = h('form', { class: 'card create', 'data-testid': 'create-form', onsubmit: async e => {
    e.preventDefault();
    if (!app.me) { msg.textContent = 'Log in or play as a guest first.'; msg.className = 'message error'; return; }
    const g = game.value;
    let options;
    if (g === 'backgammon') {
      const n = Number(matchLength.value);
      options = n > 0 ? { game: g, match_length: n, crawford: crawford.checked }
        : { game: g, beavers: beavers.checked, jacoby: jacoby.checked, automatic_doubles: Number(autoDoubles.value) };
    } else if (g === 'never-finishing') options = { game: g, match_length: Number(matchLength.value) };
    else if (g === 'grasshopper') options = { game: g, checkers: Number(checkers.value) };
    else {
      options = { game: g, size: Number(size.value) };
      if (evacuation.value.trim() !== '') options.evacuation = Number(evacuation.value);
    }
    const opp = opponent.value === 'bot' ? { kind: 'bot', level: level.value } : { kind: opponent.value };
    const chosenClock = clock.value === 'custom' ? customClock(clockDelay.value, clockReserve.value)
      : (clockOptions.find(o => o.value === clock.value) || {}).clock || undefined;
    try {
      const created = await post('/api/games', { options, opponent: opp, color: color.value, client_seed: seed.value || undefined, unrated: practice.checked, clock: chosenClock });
      saveNewGame(app.me.id, Object.fromEntries(Object.entries(remembered).map(([k, el]) => [k, el.type === 'checkbox' ? el.checked : el.value])));
      app.navigate(`/game/${created.id}`);
    } catch (err) {
      msg.textContent = `The server refused: ${err.message}`;
      msg.className = 'message error';
    }
  } },
  h('h2', {}, 'New game'),
  h('div', { class: 'fields' }, h('div', { class: 'game-choice' }, field('Game', game), rulesLink), matchField, crawfordField, moneyFields, checkersField, sizeField, evacuationField,
    field('Against', opponent), levelField, field('Your colour', color), clockField, customClockFields,
    field('Practice game', practice, 'not rated for either side; against a bot you may ask for hints'),
    h('details', {}, h('summary', {}, 'Dice seed'), field('Your client seed', seed, 'mixed into the dice; see docs/dice.md'))),
  h('button', { type: 'submit', class: 'primary', 'data-testid': 'create-game' }, 'Create game'), msg);
  if (app.me) root.append(form);

  const lists = h('div', { class: 'lists' });
  root.append(lists);
  const renderLists = async (pushed) => {
    let lobby = pushed;
    if (!lobby) {
      try { lobby = await get('/api/lobby'); } catch (e) { clear(lists).append(h('p', { class: 'message error' }, e.message)); return; }
    }
    let mine = [];
    if (app.me) {
      try { mine = (await get(`/api/players/${app.me.id}/games`)).filter(g => g.state === 'waiting' || g.state === 'playing'); } catch (e) { /* ignore */ }
    }
    const row = (g, action) => h('li', { 'data-game-id': g.id },
      h('strong', {}, GAME_NAMES[g.game] || g.game),
      g.description ? h('span', { class: 'muted', 'data-testid': 'game-description' }, ` (${g.description}${g.rated === false ? ', unrated' : ''})`) : '',
      ' — ', playerLink(g.white), ' vs ', playerLink(g.black),
      g.waiting_rating ? h('span', { class: 'muted', 'data-testid': 'seat-rating' },
        ` (rated ${g.waiting_rating.rating}${g.waiting_rating.provisional ? ', provisional' : ''})`) : '',
      ' ', action);
    clear(lists).append(...[
      app.me ? h('section', { class: 'card' }, h('h2', {}, 'Your games'),
        mine.length ? h('ul', { 'data-testid': 'my-games' }, mine.map(g => row(g, h('a', { href: `/game/${g.id}`, 'data-link': true }, g.state === 'waiting' ? 'waiting…' : 'continue'))))
          : h('p', { class: 'muted' }, 'None in progress.'),
        h('p', { class: 'small' }, h('a', { href: `/player/${app.me.id}`, 'data-link': true }, 'All your games and ratings'))) : null,
      h('section', { class: 'card' }, h('h2', {}, 'Open games'),
        lobby.open.length ? h('ul', { 'data-testid': 'open-games' }, lobby.open.map(g => row(g,
          h('button', { type: 'button', 'data-testid': `join-${g.id}`, onclick: async () => {
            if (!app.me) { alert('Log in or play as a guest first.'); return; }
            try {
              await post(`/api/games/${g.id}/join`, { client_seed: randomHex(12) });
              app.navigate(`/game/${g.id}`);
            } catch (err) { alert(err.message); }
          } }, 'Join')))) : h('p', { class: 'muted' }, 'No open seats right now.')),
      h('section', { class: 'card' }, h('h2', {}, 'Games in progress'),
        lobby.playing.length ? h('ul', { 'data-testid': 'playing-games' }, lobby.playing.map(g => row(g, h('a', { href: `/game/${g.id}`, 'data-link': true }, 'watch'))))
          : h('p', { class: 'muted' }, 'Nobody is playing right now.'))].filter(Boolean));
  };
  await renderLists();
  // Live: the server sends the lobby again whenever a game is created, joined or finished
  // (/api/lobby/ws); no polling. A dropped socket reconnects with a growing pause.
  let ws = null, closed = false, backoff = 500, retry = null, updates = 0;
  const connect = () => {
    if (closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(`${proto}://${location.host}/api/lobby/ws`);
    ws.onopen = () => { backoff = 500; lists.dataset.live = '1'; };
    ws.onmessage = e => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (msg.type !== 'lobby') return;
      updates += 1;
      lists.dataset.updates = String(updates);
      renderLists(msg.lobby);
    };
    ws.onclose = () => {
      lists.dataset.live = '0';
      if (closed) return;
      retry = setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 8000);
    };
  };
  connect();
  return { destroy: () => { closed = true; clearTimeout(retry); if (ws) ws.close(); } };
}

// ---- login ------------------------------------------------------------------------------

export async function loginPage(app, main, params) {
  document.title = 'Log in — Tabula';
  const next = params.get('next') || '/';
  const done = () => app.navigate(next.startsWith('/') ? next : '/');
  const root = clear(main);
  const credForm = (kind) => {
    const user = h('input', { type: 'text', required: true, minlength: 3, maxlength: 32, autocomplete: 'username', 'data-testid': `${kind}-username` });
    const pass = h('input', { type: 'password', required: true, minlength: 8, maxlength: 200, autocomplete: kind === 'login' ? 'current-password' : 'new-password', 'data-testid': `${kind}-password` });
    const msg = h('p', { class: 'message error', role: 'alert' });
    return h('form', { class: 'card', 'data-testid': `${kind}-form`, onsubmit: async e => {
      e.preventDefault();
      try {
        app.setMe(await post(`/api/${kind}`, { username: user.value, password: pass.value }));
        done();
      } catch (err) { msg.textContent = err.message; }
    } }, h('h2', {}, kind === 'login' ? 'Log in' : 'Register'),
    field('Username', user, kind === 'register' ? '3 to 32 letters, digits, _ or -' : null),
    field('Password', pass, kind === 'register' ? 'at least 8 characters' : null),
    h('button', { type: 'submit', class: 'primary', 'data-testid': `${kind}-submit` }, kind === 'login' ? 'Log in' : 'Register'), msg);
  };
  root.append(...[h('h1', {}, 'Log in'),
    app.me ? h('p', {}, `You are logged in as ${playerName(app.me)}. `,
      h('button', { type: 'button', onclick: () => app.logout() }, 'Log out'), ' ',
      h('button', { type: 'button', 'data-testid': 'logout-all', title: 'End every session and API token of this player, on every device',
        onclick: () => app.logoutAll() }, 'Log out everywhere')) : null,
    h('div', { class: 'grid' }, credForm('login'), credForm('register'),
      h('section', { class: 'card' }, h('h2', {}, 'Guest'), h('p', { class: 'small' }, 'No account needed; your games are kept under a guest player.'), guestForm(app, done)))].filter(Boolean));
  return null;
}

// ---- player -----------------------------------------------------------------------------

export async function playerPage(app, main, id) {
  const root = clear(main);
  const [page, games, progress] = await Promise.all([get(`/api/players/${id}`), get(`/api/players/${id}/games`), get(`/api/players/${id}/progress`)]);
  const p = page.player;
  document.title = `${p.name} — Tabula`;
  root.append(h('h1', { 'data-testid': 'player-name' }, p.name, h('small', { class: 'muted' }, ` ${p.kind}`)));
  const standings = Object.entries(page.standings);
  root.append(h('section', { class: 'card' }, h('h2', {}, 'Ratings'),
    standings.length ? h('table', { 'data-testid': 'standings' },
      h('thead', {}, h('tr', {}, ['Game', 'Rating', 'Deviation', 'FIBS rating', 'Games', 'Won', 'Lost', 'Drawn'].map(t => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, standings.map(([g, st]) => h('tr', { 'data-game': g },
        h('th', { scope: 'row' }, GAME_NAMES[g] || g),
        h('td', { title: st.provisional ? 'Provisional: fewer than 5 rated opponents so far; results against this player do not move the other player\'s rating' : null },
          Math.round(st.rating), st.provisional ? h('small', { class: 'muted', 'data-testid': 'provisional' }, ' provisional') : null),
        h('td', {}, Math.round(st.deviation)),
        h('td', {}, st.fibs_rating != null ? Math.round(st.fibs_rating) : '—'),
        h('td', {}, st.games), h('td', {}, st.wins), h('td', {}, st.losses), h('td', {}, st.draws)))))
      : p.kind === 'guest'
        ? h('p', { class: 'muted', 'data-testid': 'unrated' }, 'Guests are not rated: games with a guest in either seat count for nobody\'s rating. Register to get one.')
        : h('p', { class: 'muted' }, 'No finished games yet.')));
  root.append(progressSection(progress));
  // all the player's finished games as one zip file (protocol.md, "Progress")
  root.append(h('p', {}, h('a', { href: `/api/players/${encodeURIComponent(id)}/archive`, download: '', 'data-testid': 'archive-link' },
    'Download all finished games'), h('small', { class: 'muted' }, ' (a zip file: each game\'s record, and .mat files of backgammon for gnubg and tabula analyse)')));
  root.append(h('section', { class: 'card' }, h('h2', {}, 'Games'),
    games.length ? h('table', { 'data-testid': 'player-games' },
      h('thead', {}, h('tr', {}, ['When', 'Game', 'Colour', 'Opponent', 'Result', ''].map(t => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, games.map(g => {
        const color = g.white && g.white.id === id ? 'white' : 'black';
        const result = resultFor(g, color);
        return h('tr', {},
          h('td', {}, when(g.created_ms)), h('td', {}, GAME_NAMES[g.game] || g.game, g.description ? h('small', { class: 'muted' }, `, ${g.description}`) : null), h('td', {}, color),
          h('td', {}, playerLink(g[other(color)])), h('td', {}, result),
          h('td', {}, h('a', { href: g.state === 'finished' ? `/replay/${g.id}` : `/game/${g.id}`, 'data-link': true }, g.state === 'finished' ? 'replay' : 'open')));
      }))) : h('p', { class: 'muted' }, 'No games yet.')));
  return null;
}

// ---- statistics -------------------------------------------------------------------------

function statsBar(st) {
  const W = 300, H = 22;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'stats-bar', role: 'img', 'aria-label': st.line });
  const parts = [['white', st.white_wins], ['black', st.black_wins], ['draw', st.draws]];
  let x = 0;
  if (!st.games) svg.append(s('rect', { x: 0, y: 0, width: W, height: H, class: 'bar-empty' }));
  for (const [k, n] of parts) {
    if (!st.games || !n) continue;
    const w = (n / st.games) * W;
    svg.append(s('rect', { x, y: 0, width: w, height: H, class: `bar-${k}` }, s('title', {}, `${k}: ${n}`)));
    x += w;
  }
  return svg;
}

export async function statsPage(app, main) {
  document.title = 'Statistics — Tabula';
  const root = clear(main);
  const stats = await get('/api/stats');
  root.append(h('h1', {}, 'Statistics'), h('p', { class: 'muted' }, 'Finished games on this server, per game.'));
  const grid = h('div', { class: 'grid' });
  for (const st of stats) {
    grid.append(h('section', { class: 'card stats', 'data-testid': `stats-${st.game}` },
      h('h2', {}, GAME_NAMES[st.game] || st.game),
      h('p', {}, h('strong', { 'data-testid': `stats-count-${st.game}` }, String(st.games)), ` finished game${st.games === 1 ? '' : 's'}`,
        st.games ? `, ${st.average_plies.toFixed(1)} actions on average` : ''),
      h('p', { class: 'line', 'data-testid': `stats-line-${st.game}` }, st.line),
      statsBar(st),
      h('p', { class: 'legend small' }, h('span', { class: 'key white' }), ' white ', h('span', { class: 'key black' }), ' black ', h('span', { class: 'key draw' }), ' draws')));
  }
  root.append(grid);
  return null;
}

// ---- replay -----------------------------------------------------------------------------

/**
 * A replay step of a Never-Finishing or Grasshopper game: its position's text and "Open on
 * the analysis board"; for Grasshopper also "Evaluate" (exact where the endgame table holds
 * it, else the strong search, js/study-grasshopper.js).
 */
function variantStudy(el, view) {
  if (view.game !== 'never-finishing' && view.game !== 'grasshopper') return;
  if (!view.notation || (view.status && view.status.status === 'over')) return;
  const href = studyHref(view.game, view.notation) + (view.game === 'never-finishing' && view.dice ? `&dice=${view.dice[0]}-${view.dice[1]}` : '');
  const out = h('span', { 'data-testid': 'gh-result', 'aria-live': 'polite' });
  el.append(h('span', {}, 'Position ', h('code', { 'data-testid': 'ids-position' }, view.notation), ' '),
    h('a', { href, 'data-link': true, 'data-testid': 'open-study' }, 'Open on the analysis board'));
  if (view.game !== 'grasshopper') return;
  el.append(' ', h('button', { type: 'button', class: 'small-button', 'data-testid': 'gh-evaluate', onclick: async e => {
    e.currentTarget.disabled = true;
    clear(out).append(' Searching…');
    try {
      const v = await post('/api/study/grasshopper', { position: view.notation });
      clear(out).append(...grasshopperBody(v));
    } catch (err) {
      clear(out).append(h('span', { class: 'message error', role: 'alert' }, err.message));
    }
  } }, 'Evaluate'), out);
}

export async function replayPage(app, main, id) {
  const root = clear(main);
  const record = await get(`/api/games/${id}/record`);
  const g = record.game;
  document.title = `Replay: ${GAME_NAMES[g.game]} — Tabula`;
  const steps = record.steps;
  const describe = e => {
    // a roll the server made for a player (nonce server:N: nobody rolled in time, or a bot's roll not asked for)
    if (e.kind === 'roll') return `roll ${e.payload}` + (typeof e.nonce === 'string' && e.nonce.startsWith('server:') ? ' (rolled by the server)' : '');
    if (SERVER_ENDS[e.kind]) return `${cap(e.actor || '?')} ${SERVER_ENDS[e.kind].done}`;
    if (e.kind === 'join') {
      const seat = g[e.actor];
      return `${cap(e.actor || '?')} joins: ${seat && seat.id === e.payload ? playerName(seat) : 'a player'}`;
    }
    return `${cap(e.actor || '?')}: ${e.payload}`;
  };
  // One stop per play or cube action (a roll is shown with the play it was rolled for, a
  // "roll" that declines to double is no stop of its own unless the analysis marks it),
  // and each step that ends the game otherwise; the start and the end are stops too.
  const isStop = e => e.kind !== 'roll' && e.kind !== 'join' && !(e.kind === 'action' && e.payload === 'roll');
  const baseStops = [0, ...steps.flatMap((st, k) => (isStop(st.event) ? [k + 1] : []))];
  if (baseStops[baseStops.length - 1] !== steps.length) baseStops.push(steps.length);
  let stops = baseStops;
  const stopText = i => {
    const e = steps[i - 1].event, before = i > 1 ? steps[i - 2].event : null;
    if (e.kind === 'action' && e.payload.includes('/') && before && before.kind === 'roll') {
      return `${cap(e.actor || '?')} ${before.payload.replace('-', '')}: ${e.payload}`;
    }
    if (e.kind === 'action' && e.payload === 'roll') return `${cap(e.actor || '?')}: no double, rolls`;
    return describe(e);
  };
  const boardWrap = h('div', { class: 'board-wrap' });
  const caption = h('p', { class: 'status', 'data-testid': 'replay-step', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', min: 0, max: stops.length - 1, value: stops.length - 1, 'data-testid': 'replay-slider', 'aria-label': 'Decision in the game' });
  const stopOf = i => { let k = 0; stops.forEach((st, j) => { if (st <= i) k = j; }); return k; };
  const list = h('ol', { class: 'moves', 'data-testid': 'replay-moves' });
  const idsEl = h('div', { class: 'position-ids small', 'data-testid': 'position-ids' });
  const stateAt = i => (i === 0 ? record.start : steps[i - 1].state);
  // the analysis, once loaded: the decision judged at each step, and the one shown
  let report = null, current = steps.length, showBest = false;
  const judged = new Map(); // step -> index of its decision in report.decisions
  const names = { white: playerName(g.white), black: playerName(g.black) };
  const judgement = h('p', { class: 'judged-text', 'data-testid': 'analysis-decision', 'aria-live': 'polite' });
  const bestButton = h('button', { type: 'button', 'data-testid': 'show-best', 'aria-pressed': 'false',
    onclick: () => { showBest = !showBest; show(current, true); } }, 'Show best move');
  const markedSteps = () => [...judged.entries()].filter(([, k]) => report.decisions[k].mark).map(([i]) => i).sort((a, b) => a - b);
  // the board stays in view when jumping from error to error
  const toError = i => { show(i); boardWrap.scrollIntoView({ block: 'nearest' }); };
  const prevMark = h('button', { type: 'button', 'data-testid': 'prev-mark', onclick: () => {
    const before = markedSteps().filter(i => i < current);
    if (before.length) toError(before[before.length - 1]);
  } }, '‹ previous error');
  const nextMark = h('button', { type: 'button', 'data-testid': 'next-mark', onclick: () => {
    const after = markedSteps().find(i => i > current);
    if (after) toError(after);
  } }, 'next error ›');
  const altEl = h('div', { class: 'alternatives-wrap' });
  const errorsEl = h('div', { class: 'errors-wrap' });
  const judgedBox = h('div', { class: 'judged', hidden: true }, judgement, altEl, h('div', { class: 'row' }, bestButton, prevMark, nextMark), errorsEl);
  let panel = null;
  const show = (i, keepBest = false) => {
    if (!keepBest) showBest = false;
    current = i;
    slider.value = stopOf(i);
    let view = stateAt(i);
    const k = report ? judged.get(i) : undefined;
    const d = k !== undefined ? report.decisions[k] : null;
    // a step that ended a game of a match shows that game's final board and why it ended
    const games = view.games || [], before = stateAt(Math.max(0, i - 1)).games || [];
    const ended = i > 0 && !view.result && games.length > before.length ? games[games.length - 1] : null;
    let drawn = view;
    if (ended) drawn = { ...view, board: ended.board, dice: null, cube: null, crawford_game: false };
    let lastAction = null;
    for (let j = i - 1; j >= 0; j--) if (steps[j].event.kind === 'action') { lastAction = steps[j].event; break; }
    let svg;
    if (view.game === 'backgammon' || view.game === 'never-finishing') {
      let last = lastAction && lastAction.payload.includes('/') ? { actor: lastAction.actor, segments: playSegments(lastAction.payload, lastAction.actor) } : null;
      let label = ended ? `the final position of game ${ended.number}` : `position ${view.notation}`;
      let board = drawn.board;
      if (d) {
        // a judged decision: the position before it, with the play made (or the best one)
        drawn = stateAt(i - 1);
        board = drawn.board;
        const best = showBest ? bestBoard(drawn, d) : null;
        if (best) {
          board = best;
          last = { actor: d.player, segments: playSegments(d.best, d.player) };
          label = `after the best play, ${d.best}, from position ${drawn.notation}`;
        } else {
          last = d.kind === 'move' && d.played ? { actor: d.player, segments: playSegments(d.played, d.player) } : null;
          label = `position ${drawn.notation}, before ${describe(steps[i - 1].event)}`;
        }
      }
      svg = drawTables({ board, bottom: 'white', dice: drawn.dice, diceSide: drawn.turn, cube: view.game === 'backgammon' ? drawn.cube : null,
        crawford: drawn.crawford_game, last, label });
      if (d) svg.setAttribute('data-showing', showBest ? 'best' : 'before');
    } else if (view.game === 'grasshopper') {
      svg = drawGrasshopper({ view, last: lastAction ? actionKeys(lastAction.payload, lastAction.actor) : null, label: `position ${view.notation}` });
    } else {
      const e = lastAction && moveEnds(lastAction.payload);
      svg = drawHalma({ view, bottom: 'white', last: e ? { path: e.path } : null, label: `position ${view.notation}` });
    }
    clear(boardWrap).append(svg);
    const idsView = d ? stateAt(i - 1) : view;
    clear(idsEl);
    if (idsView.game === 'backgammon' && idsView.xgid && !ended) idsEl.append(positionIds(idsView));
    else if (!ended) variantStudy(idsEl, idsView);
    const ev = i > 0 ? steps[i - 1].event : null;
    const over = view.result ? view.result.sentence
      : view.status.status === 'over' ? (view.status.winner ? `${cap(view.status.winner)} wins ${view.status.points}` : 'draw') : null;
    caption.textContent = `Decision ${stopOf(i)} of ${stops.length - 1}` + (ev ? `: ${stopText(i)}` : ': the start') +
      (d ? ' (the position before it)' : '') +
      (ended ? ` — game ${ended.number} over: ${ended.sentence}` : '') + (over ? ` — ${over}` : '');
    for (const li of list.children) li.classList.toggle('current', Number(li.dataset.step) === i);
    // the list follows the step shown
    const here = list.querySelector('li.current');
    if (here) list.scrollTop = Math.max(0, here.offsetTop - list.clientHeight / 2);
    clear(altEl);
    if (report) {
      judgedBox.hidden = false;
      if (d) {
        judgement.textContent = decisionText(d, names[d.player]) +
          (showBest ? (bestBoard(drawn, d) ? ` The board shows the position after the best play, ${d.best}.` : '') : '');
        judgement.className = 'judged-text' + (d.mark ? ` ${markClass(d.mark)}` : '');
        const alts = alternativesTable(d);
        if (alts) altEl.append(alts);
      } else {
        judgement.textContent = 'No decision judged at this step: pick a move or cube action in the list or the graph.';
        judgement.className = 'judged-text muted';
      }
      const canBest = !!(d && d.kind === 'move' && d.best);
      bestButton.disabled = !canBest;
      bestButton.textContent = showBest && canBest ? 'Show the play made' : 'Show best move';
      bestButton.setAttribute('aria-pressed', String(showBest && canBest));
      const marks = markedSteps();
      prevMark.disabled = !marks.some(m => m < i);
      nextMark.disabled = !marks.some(m => m > i);
      if (panel && panel.graph) panel.graph.setCurrent(d ? k : null);
    }
  };
  slider.addEventListener('input', () => show(stops[Number(slider.value)]));
  const fillList = () => {
    clear(list);
    for (const i of stops.slice(1)) {
      list.append(h('li', { 'data-step': i }, h('button', { type: 'button', class: 'linkish', onclick: () => show(i) }, stopText(i))));
    }
  };
  fillList();
  // the report's decisions on their steps: the mark and error in the list
  const onReport = r => {
    report = r;
    judged.clear();
    const stepOf = new Map(steps.map((st, k) => [st.event.version, k + 1]));
    r.decisions.forEach((d, k) => {
      const i = stepOf.get(d.version);
      if (i !== undefined) judged.set(i, k);
    });
    // a marked decision not to double is a stop of its own
    const marked = [...judged.entries()].filter(([, k]) => r.decisions[k].mark).map(([i]) => i);
    stops = [...new Set([...baseStops, ...marked])].sort((a, b) => a - b);
    slider.max = stops.length - 1;
    fillList();
    // the errors, largest first
    const errors = [...judged.entries()].filter(([, k]) => r.decisions[k].mark)
      .sort((a, b) => r.decisions[b[1]].error - r.decisions[a[1]].error);
    clear(errorsEl).append(...(errors.length
      ? [h('h3', { class: 'small' }, 'Errors, largest first'), h('ol', { class: 'errors', 'data-testid': 'error-list' }, errors.map(([i, k]) => {
        const d = r.decisions[k];
        return h('li', { 'data-step': i, 'data-error': d.error }, h('button', { type: 'button', class: 'linkish', onclick: () => toError(i) },
          `Game ${d.game}, ${stopText(i)}${d.kind === 'move' && d.best && d.best !== d.played ? ` (best ${d.best})` : ''}: −${(d.error * 1000).toFixed(0)} mEMG, ${d.mark}`));
      }))]
      : [h('p', { class: 'small muted', 'data-testid': 'error-list-empty' }, 'No decision marked: no errors to list.')]));
    for (const li of list.children) {
      const k = judged.get(Number(li.dataset.step));
      li.querySelectorAll('.judgement').forEach(x => x.remove());
      li.classList.remove('decision');
      li.removeAttribute('data-testid');
      if (k === undefined) continue;
      const d = r.decisions[k];
      li.classList.add('decision');
      if (d.mark) {
        li.classList.add(markClass(d.mark));
        li.setAttribute('data-testid', 'analysis-mark');
        li.setAttribute('data-mark', d.mark);
      }
      li.firstChild.append(markBadge(d));
    }
    show(current, true);
  };
  const result = g.state === 'finished' ? (g.view.result ? g.view.result.sentence : g.winner ? `${cap(g.winner)} won ${g.points}` : 'drawn') : g.state;
  const analysable = (g.game === 'backgammon' || g.game === 'never-finishing') && g.state === 'finished';
  if (analysable) {
    panel = new AnalysisPanel(app, id, g.version, {
      onReport,
      onSelect: k => {
        const d = report && report.decisions[k];
        const i = d && [...judged.entries()].find(([, j]) => j === k);
        if (i) show(i[0]);
      },
    });
  }
  root.append(
    h('h1', {}, `Replay: ${GAME_NAMES[g.game]}`),
    h('p', {}, playerLink(g.white), ' (white) vs ', playerLink(g.black), ' (black) — ', result,
      g.state === 'finished' && g.view.result ? [' (', ruleLink(g.game, g.view.result.code), ')'] : null,
      ' · ', h('a', { href: `/game/${id}`, 'data-link': true }, 'game page')),
    h('section', { class: 'game' }, h('div', { class: 'board-col' }, boardWrap,
      h('div', { class: 'row replay-controls' },
        h('button', { type: 'button', 'data-testid': 'replay-first', 'aria-label': 'First position', onclick: () => show(0) }, '« first'),
        h('button', { type: 'button', 'data-testid': 'replay-prev', 'aria-label': 'Previous decision', onclick: () => show(stops[Math.max(0, stopOf(current) - 1)]) }, '‹ previous'),
        slider,
        h('button', { type: 'button', 'data-testid': 'replay-next', 'aria-label': 'Next decision', onclick: () => show(stops[Math.min(stops.length - 1, stopOf(current) + 1)]) }, 'next ›'),
        h('button', { type: 'button', 'data-testid': 'replay-last', 'aria-label': 'Last position', onclick: () => show(steps.length) }, 'last »')),
      caption, idsEl, judgedBox),
    h('aside', { class: 'side' }, panel ? panel.el : null, h('h2', { class: 'small' }, 'Events'), list)));
  show(steps.length);
  if (panel) await panel.start();
  return panel ? { destroy: () => panel.destroy() } : null;
}
