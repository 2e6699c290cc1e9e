// End-to-end test of Tabula's browser client, against a running server on a fresh database.
//
//   BASE_URL=http://127.0.0.1:8080 [SCREENSHOT_DIR=docs/screenshots] [CHROMIUM=/usr/bin/chromium] node e2e.mjs
//
// Every move is chosen by clicking, as a person would: a checker or piece, then one of the
// highlighted destinations, then Roll / Confirm / Double / Take... Prints one line per passed
// scenario; exits non-zero with the reason on the first failure of any scenario.

import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const BASE = (process.env.BASE_URL || '').replace(/\/+$/, '');
const SHOTS = process.env.SCREENSHOT_DIR || '';
if (!BASE) {
  console.error('e2e: set BASE_URL to a running `tabula serve` (fresh database)');
  process.exit(2);
}
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

const STEP_LIMIT_MS = 20000; // no progress for this long is a failure
const T0 = Date.now();

class Failure extends Error {}
const fail = msg => { throw new Failure(msg); };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox'],
});

let failures = 0;
let clicks = 0; // clicks made by the current scenario
let notable = {}; // special buttons pressed: choose-hit, take, pass...
const finished = {}; // game -> id of a finished game

// E2E_ONLY=1,4 runs only those scenarios (for development; 5 needs 1's games)
const ONLY = (process.env.E2E_ONLY || '').split(',').filter(Boolean);

async function scenario(name, fn) {
  if (ONLY.length && !ONLY.includes(name.split(':')[0])) return;
  const t = Date.now();
  clicks = 0;
  notable = {};
  try {
    await fn();
    const extra = Object.entries(notable).map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(`ok - ${name} (${((Date.now() - t) / 1000).toFixed(1)} s, ${clicks} clicks${extra ? '; ' + extra : ''})`);
  } catch (e) {
    failures++;
    console.error(`FAIL - ${name}: ${e instanceof Failure ? e.message : e.stack || e}`);
  }
}

/** A page in a fresh context, with uncaught page errors collected. */
async function newPage(viewport = { width: 1200, height: 820 }) {
  const context = await browser.newContext({ viewport });
  // the opponent's moves animate at the fast speed (scenario 14 checks the default speed),
  // unless the page chose otherwise
  await context.addInitScript(() => {
    try { if (!localStorage.getItem('tabula.preferences')) localStorage.setItem('tabula.preferences', '{"animation":"fast"}'); } catch (e) { /* about:blank */ }
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', e => page.errors.push(e.message));
  page.setDefaultTimeout(10000);
  return page;
}

function checkErrors(page, who) {
  if (page.errors.length) fail(`${who}: uncaught error in the page: ${page.errors.join(' | ')}`);
}

async function guest(page, nickname) {
  await page.goto(`${BASE}/login`);
  await page.fill('[data-testid=guest-form] [data-testid=guest-name]', nickname);
  await page.click('[data-testid=guest-form] [data-testid=guest-submit]');
  await page.waitForSelector('[data-testid=nav-me]', { state: 'attached' }); // on a phone the links are behind the Menu
}

/** Creates a game through the lobby's form; returns its id. */
async function createGame(page, o) {
  await page.goto(`${BASE}/`);
  await page.waitForSelector('[data-testid=create-form]');
  await page.selectOption('[data-testid=opt-game]', o.game);
  if (o.matchLength !== undefined) await page.fill('[data-testid=opt-match-length]', String(o.matchLength));
  if (o.checkers) await page.selectOption('[data-testid=opt-checkers]', String(o.checkers));
  if (o.size) await page.selectOption('[data-testid=opt-size]', String(o.size));
  await page.selectOption('[data-testid=opt-opponent]', o.opponent || 'bot');
  if ((o.opponent || 'bot') === 'bot') await page.selectOption('[data-testid=opt-level]', o.level || 'easy');
  await page.selectOption('[data-testid=opt-color]', o.color || 'white');
  // the form remembers the last game's settings: no clock unless one is asked for
  await page.selectOption('[data-testid=opt-clock]', o.clock || 'none');
  if (o.clock) {
    // a clock preset, or 'custom' with o.delay (seconds) and o.reserve (minutes, decimals allowed)
    if (o.clock === 'custom') {
      await page.fill('[data-testid=opt-clock-delay]', String(o.delay));
      await page.fill('[data-testid=opt-clock-reserve]', String(o.reserve));
    }
  }
  await page.click('[data-testid=create-game]');
  await page.waitForURL(/\/game\/[^/?]+$/);
  await page.waitForSelector('[data-testid=board]');
  return page.url().split('/game/')[1];
}

/** What the page offers now: enabled buttons, board sources and destinations, the result. */
function snapshot(page) {
  return page.evaluate(() => {
    const over = document.querySelector('[data-testid=game-over]');
    const between = document.querySelector('[data-testid=match-game-over]');
    const board = document.querySelector('[data-testid=board]');
    const buttons = [...document.querySelectorAll('[data-testid=controls] button')]
      .filter(b => !b.disabled).map(b => b.getAttribute('data-testid'));
    const attr = a => [...document.querySelectorAll(`[data-testid=board] [${a}]`)].map(e => e.getAttribute('data-testid'));
    return {
      over: over ? over.textContent : null,
      between: between ? between.textContent : null,
      version: board ? board.getAttribute('data-version') : null,
      state: board ? board.getAttribute('data-state') : null,
      buttons,
      sources: attr('data-source'),
      dests: attr('data-dest'),
      status: (document.querySelector('[data-testid=status]') || {}).textContent,
      message: (document.querySelector('[data-testid=message]') || {}).textContent,
      error: !!document.querySelector('[data-testid=page-error]'),
    };
  });
}

const pick = list => list[Math.floor(Math.random() * list.length)];

/** Halma: the destination that gets furthest towards the far camp. */
function halmaBest(dests, color) {
  const score = id => {
    const sq = id.replace('sq-', '');
    const f = sq.charCodeAt(0) - 97, r = Number(sq.slice(1)) - 1;
    return (color === 'white' ? f + r : -(f + r)) + Math.random() * 1.5;
  };
  return dests.reduce((a, b) => (score(b) > score(a) ? b : a));
}

/** Backgammon racing: a point's distance from home on the mover's side (bar 25, off 0). */
function pipsAway(id, color) {
  if (id.startsWith('bar-')) return 25;
  if (id.startsWith('off-')) return 0;
  const n = Number(id.replace('point-', ''));
  return (color === 'white' ? n : 25 - n) + Math.random() * 0.1;
}

/**
 * Plays one click on `page` if it has something to do; returns what it did or null.
 * `policy`: {color, game, double(snap) -> bool, avoid: Set of buttons never pressed, drop:
 * drop every double, stopAtBetween: return {between} at the end of a game of a match instead
 * of going on to the next game}.
 */
async function step(page, policy) {
  const s = await snapshot(page);
  if (s.error) fail(`the page shows an error: ${s.status}`);
  if (s.over) return { over: s.over };
  if (s.between && policy.stopAtBetween) return { between: s.between, snap: s };
  const has = b => s.buttons.includes(b);
  const click = async id => {
    await page.click(`[data-testid="${id}"]`, { timeout: 5000 });
    clicks++;
    if (!/^(point|bar|off|hand|sq)-|^(confirm|roll)$/.test(id)) notable[id] = (notable[id] || 0) + 1;
    return { did: id, snap: s };
  };
  if (s.between) return click('next-game');
  if (has('confirm')) return click('confirm');
  for (const b of ['choose-hit', 'choose-trap']) if (has(b)) return click(pick(['choose-hit', 'choose-trap'].filter(has)));
  if (has('accept')) return click('accept');
  if (has('drop') && policy.drop) return click('drop');
  if (has('take') && !policy.avoid?.has('take')) return click('take');
  if (has('double') && policy.double && policy.double(s)) return click('double');
  if (has('roll')) return click('roll');
  if (s.dests.length) {
    if (policy.game === 'halma-grasshopper') return click(halmaBest(s.dests, policy.color));
    // racing: the furthest destination
    if (policy.race) return click(s.dests.reduce((a, b) => (pipsAway(b, policy.color) < pipsAway(a, policy.color) ? b : a)));
    return click(pick(s.dests));
  }
  if (s.sources.length && policy.game === 'halma-grasshopper') {
    // the front pieces first: a quick game, which often ends by the evacuation rule (pieces
    // left at home after move 30); any ending will do, as long as the page says which
    return click(halmaBest(s.sources, policy.color));
  }
  if (s.sources.length) {
    // racing: the checker furthest back
    if (policy.race) return click(s.sources.reduce((a, b) => (pipsAway(b, policy.color) > pipsAway(a, policy.color) ? b : a)));
    return click(pick(s.sources));
  }
  if (has('pass')) return click('pass');
  return null;
}

/** Plays `page` until the game is over; `onTurn(n, page)` runs after each action of ours. */
async function playToEnd(page, policy, hooks = {}) {
  let last = Date.now(), actions = 0;
  for (;;) {
    const r = await step(page, policy);
    if (r && r.over) return r.over;
    if (r) {
      last = Date.now();
      actions++;
      if (hooks.after) await hooks.after(r, actions);
    } else {
      if (Date.now() - last > STEP_LIMIT_MS) {
        const s = await snapshot(page);
        fail(`${policy.game}: no progress for ${STEP_LIMIT_MS / 1000} s; status "${s.status}", message "${s.message}", buttons [${s.buttons}]`);
      }
      await page.waitForTimeout(40);
    }
    checkErrors(page, policy.game);
  }
}

async function shot(page, name) {
  if (!SHOTS) return;
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

// ---- scenario 1: a guest plays each game against a bot to the end, by clicking ------------

const GAMES = [
  { game: 'backgammon', matchLength: 1 },
  { game: 'never-finishing', matchLength: 1 },
  { game: 'grasshopper', checkers: 4 },
  { game: 'halma-grasshopper', size: 8 },
];

let soloPage, soloName;
await scenario('1: a guest plays each of the four games against the easy bot to the end by clicking', async () => {
  const page = await newPage();
  soloPage = page;
  soloName = 'solo' + Math.floor(Math.random() * 1000);
  await guest(page, soloName);
  for (const g of GAMES) {
    const id = await createGame(page, { ...g, opponent: 'bot', level: 'easy', color: 'white' });
    let shotTaken = false;
    const policy = { game: g.game, color: 'white', avoid: new Set() };
    const over = await playToEnd(page, policy, {
      after: async (r, n) => {
        // one picture mid-game, with a checker selected and its destinations lit
        if (shotTaken || !SHOTS || !r.did.match(/^(point|bar|hand|sq)-/)) return;
        const s = await snapshot(page);
        const trapped = await page.$('[data-testid^=trapped-]');
        const due = g.game === 'never-finishing' ? (trapped && n >= 6) || n >= 40 : n >= (g.game === 'grasshopper' ? 6 : 12);
        if (due && s.dests.length) {
          shotTaken = true;
          await shot(page, g.game);
        }
      },
    });
    if (!shotTaken) await shot(page, g.game);
    if (!/Game over/.test(over)) fail(`${g.game}: unexpected end text "${over}"`);
    // the end names the players and says why the game ended: the server's sentence and code
    const ended = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
    const result = ended.view.result;
    if (!result || !result.code || !result.sentence) fail(`${g.game}: the server gives no result: ${JSON.stringify(ended.view.result)}`);
    if (!over.includes(result.sentence)) fail(`${g.game}: the page says "${over}", not why: "${result.sentence}"`);
    if (!result.sentence.includes(soloName) && !result.sentence.includes('Tabula easy') && !/^Drawn/.test(result.sentence)) fail(`${g.game}: the sentence names nobody: "${result.sentence}"`);
    const code = await page.getAttribute('[data-testid=game-over]', 'data-code');
    if (code !== result.code) fail(`${g.game}: the page's code is ${code}, the server's ${result.code}`);
    notable[`${g.game} ${result.code}`] = 1;
    if (g.game === 'backgammon' || g.game === 'never-finishing') {
      // the dice verification is kept in a details section, out of the way
      await page.waitForSelector('[data-testid=dice-verify]:has-text("seed is revealed")', { state: 'attached' });
      const line = await page.textContent('[data-testid=dice-verify]');
      if (!/Dice verifiable: the seed is revealed, commitment [0-9a-f]{64}; check with tabula verify-dice/.test(line)) fail(`${g.game}: dice line "${line}"`);
      if (await page.isVisible('[data-testid=dice-verify]')) fail(`${g.game}: the dice verification is shown before it is asked for`);
    }
    // what next: the same game again against the bot, or a new one
    if (!(await page.$('[data-testid=play-again]')) || !(await page.$('[data-testid=new-game]'))) fail(`${g.game}: no Play again / New game at the end`);
    if (g.game === 'backgammon') { await page.evaluate(() => window.scrollTo(0, 0)); await shot(page, 'game-over'); }
    const state = await page.getAttribute('[data-testid=board]', 'data-state');
    if (state !== 'finished') fail(`${g.game}: the board says ${state} after the end`);
    const api = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
    if (api.state !== 'finished') fail(`${g.game}: the server says ${api.state}`);
    finished[g.game] = id;
    // never_finishing_lists_no_opening_roll_as_no_move (issue 30): the opening roll the
    // winner rolls again is the opening line, not "1. 64: no move"
    const entries = await page.$$eval('[data-testid=move-entry]', l => l.map(e => e.textContent.trim()));
    if (g.game === 'never-finishing' && /no move/.test(entries[0] || '')) fail(`the Never-Finishing move list reads ${JSON.stringify(entries.slice(0, 3))}`);
    // names_keep_their_case_in_sentences (issue 30): "solo12", never "Solo12", in the
    // sentences and the move list's headings
    const capitalised = soloName[0].toUpperCase() + soloName.slice(1);
    if ((await page.textContent('main')).includes(capitalised)) fail(`${g.game}: the page writes the name "${soloName}" as "${capitalised}"`);
    checkErrors(page, g.game);
  }
  // Play again: the same options against the same bot, colours swapped
  const lastId = finished['halma-grasshopper'];
  const before = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), lastId);
  await page.click('[data-testid=play-again]');
  clicks++;
  await page.waitForFunction(id => location.pathname.startsWith('/game/') && !location.pathname.endsWith(id), lastId, { timeout: STEP_LIMIT_MS });
  const newId = decodeURIComponent(page.url().split('/game/')[1].split('?')[0]);
  const again = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), newId);
  if (JSON.stringify(again.options) !== JSON.stringify(before.options)) fail(`Play again changed the options: ${JSON.stringify(again.options)}`);
  if (!again.black || again.black.id !== before.white.id || !again.white || again.white.id !== before.black.id) fail('Play again did not swap the colours against the same bot');
  notable['play again'] = 1;
});

// ---- scenario 2 + 3: two guests play a match through the invitation link; a spectator ----

let spectatorSaw = false;
await scenario('2: two guests play a 2-point backgammon match through the invitation link, with a double and a take, to the end', async () => {
  const a = await newPage();
  const b = await newPage({ width: 420, height: 860 }); // a narrow window
  const watcher = await newPage();
  await guest(a, 'alice');
  const id = await createGame(a, { game: 'backgammon', matchLength: 2, opponent: 'invite', color: 'white' });
  await a.waitForSelector('[data-testid=invite-link]');
  const link = await a.inputValue('[data-testid=invite-link]');
  if (!link.includes(`/game/${id}?invite=`)) fail(`the invitation link is ${link}`);
  // Bob opens the link without an account, becomes a guest and joins
  await b.goto(link);
  await b.fill('[data-testid=guest-name]', 'bob');
  await b.click('[data-testid=guest-submit]');
  await b.waitForSelector('[data-testid=player-black] .badge:has-text("you")');
  await a.waitForSelector('[data-testid=player-black] a:has-text("bob")', { timeout: 8000 });
  // the move list says that a guest joined (nobody takes a guest for a user of that name)
  await a.waitForSelector('[data-testid=move-list] li:has-text("Black joins: bob (guest)")', { timeout: 8000 });
  // a spectator watches from the start
  await watcher.goto(`${BASE}/game/${id}`);
  await watcher.waitForSelector('[data-testid=live][data-state=live]');
  await watcher.evaluate(() => { window.__notReloaded = true; });

  let doubled = false, took = false, cut = false, last = Date.now();
  const players = [{ page: a, color: 'white' }, { page: b, color: 'black' }];
  for (;;) {
    let acted = false, over = null;
    for (const p of players) {
      const before = await watcher.$$eval('[data-testid=move-list] [data-testid=move-entry]', l => l.length);
      const r = await step(p.page, {
        game: 'backgammon', color: p.color, race: true,
        double: () => !doubled,
      });
      if (r && r.over) { over = r.over; break; }
      if (!r) continue;
      acted = true;
      last = Date.now();
      if (r.did === 'double' && !doubled) {
        // the double on offer is shown to the taker: the cube turned to 2 on the board (not
        // the centred 64 in the margin), and a sentence naming who doubles and what is asked
        const taker = players.find(q => q !== p).page;
        await taker.waitForSelector('[data-testid=cube][data-offer="2"]', { timeout: 8000 })
          .catch(() => fail('the taker does not see the cube offered at 2'));
        const note = await taker.textContent('[data-testid=cube-offer]');
        if (!/doubles to 2: .+ must take or drop/.test(note || '')) fail(`the double on offer reads "${note}"`);
        await shot(taker, '2-double-on-offer');
        // ... and to everyone else at desktop size: the spectator's 1200 px page
        await watcher.waitForSelector('[data-testid=cube][data-offer="2"]', { timeout: 8000 })
          .catch(() => fail('the spectator does not see the cube offered at 2'));
        const seen = await watcher.textContent('[data-testid=cube-offer]');
        if (!/doubles to 2: .+ must take or drop/.test(seen || '')) fail(`the spectator's double on offer reads "${seen}"`);
        await watcher.evaluate(() => window.scrollTo(0, 0));
        await shot(watcher, 'double-on-offer-desktop');
      }
      if (r.did === 'double') doubled = true;
      if (r.did === 'take') took = true;
      if (!spectatorSaw && (r.did === 'confirm' || r.did === 'double')) {
        // scenario 3: the spectator's move list grows without a reload
        await watcher.waitForFunction(n => document.querySelectorAll('[data-testid=move-list] [data-testid=move-entry]').length > n, before, { timeout: 8000 })
          .catch(() => fail('the spectator did not see the move appear'));
        if (!(await watcher.evaluate(() => window.__notReloaded))) fail('the spectator page reloaded');
        spectatorSaw = true;
      } else if (spectatorSaw && !cut && took) {
        // the spectator's connection drops: it reconnects on its own and catches up
        cut = true;
        await watcher.evaluate(() => window.__tabulaGame.ws.close());
        await watcher.waitForSelector('[data-testid=live][data-state=live]', { timeout: 8000 })
          .catch(() => fail('the spectator did not reconnect'));
      }
      break;
    }
    if (over) break;
    if (!acted) {
      if (Date.now() - last > STEP_LIMIT_MS) {
        const [sa, sb] = [await snapshot(a), await snapshot(b)];
        fail(`no progress: alice "${sa.status}" [${sa.buttons}] "${sa.message}"; bob "${sb.status}" [${sb.buttons}] "${sb.message}"`);
      }
      await a.waitForTimeout(40);
    }
    checkErrors(a, 'alice');
    checkErrors(b, 'bob');
  }
  if (!doubled || !took) fail(`the game ended before a double and a take (doubled ${doubled}, took ${took})`);
  for (const p of [a, b, watcher]) await p.waitForSelector('[data-testid=game-over]');
  const api = await a.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  if (api.state !== 'finished') fail(`the server says ${api.state}`);
  if (!api.view.cube || api.view.cube.value < 2) fail(`the cube ended at ${JSON.stringify(api.view.cube)}`);
  // you_joined_the_game_is_not_shown_after_the_game_ended (issue 30)
  const bobSays = await b.textContent('[data-testid=message]');
  if (/You joined/.test(bobSays)) fail(`after the game, Bob's page still says "${bobSays}"`);
  // the spectator, reconnected once, lists every event of the game
  await watcher.waitForFunction(n => document.querySelector('[data-testid=move-list]').dataset.version === String(n), api.version, { timeout: 8000 })
    .catch(async () => fail(`the spectator's move list reached version ${await watcher.$eval('[data-testid=move-list]', e => e.dataset.version)} of ${api.version}`));
  // ... in the players' notation: numbered lines of rolls and plays, the double and the take
  const listed = await watcher.$$eval('[data-testid=move-entry]', l => l.map(e => e.textContent.trim()));
  if (!listed.some(t => /^\d\d: \S+\/\S+/.test(t))) fail(`no play in the 31: 8/5 6/5 form: ${listed.slice(0, 6)}`);
  if (!listed.includes('Doubles => 2') || !listed.includes('Takes')) fail(`the cube actions are not listed: ${listed.filter(t => !/^\d\d:/.test(t))}`);
  const opening = (await watcher.textContent('[data-testid=move-opening]')).trim();
  if (!/^Opening roll: White \d, Black \d/.test(opening)) fail(`the opening roll reads "${opening}"`);
  const result = (await watcher.textContent('[data-testid=move-game-result]')).trim();
  if (!/wins/.test(result)) fail(`the game's result line reads "${result}"`);
  if (!cut) fail('the spectator connection was never cut');
  checkErrors(watcher, 'spectator');
  await a.context().close();
  await b.context().close();
  await watcher.context().close();
});

await scenario('3: a spectator sees a move appear live, and catches up after its connection drops', async () => {
  if (!spectatorSaw) fail('the spectator saw no live move in scenario 2');
});

// ---- scenario 4: illegal clicks and typing do nothing harmful --------------------------

await scenario('4: illegal clicks and an illegal typed move send nothing and change nothing', async () => {
  const page = await newPage();
  await guest(page, 'careful');
  await createGame(page, { game: 'backgammon', matchLength: 1, opponent: 'bot', level: 'easy', color: 'white' });
  // reach a move decision of ours
  const t = Date.now();
  for (;;) {
    const s = await snapshot(page);
    if (s.sources.length) break;
    if (s.buttons.includes('roll')) await page.click('[data-testid=roll]');
    else if (s.over) fail('the game ended before a move of ours');
    if (Date.now() - t > STEP_LIMIT_MS) fail(`no move decision reached: ${s.status}`);
    await page.waitForTimeout(40);
  }
  const posts = [];
  page.on('request', r => { if (r.method() !== 'GET') posts.push(`${r.method()} ${r.url()}`); });
  const before = await snapshot(page);
  const boardBefore = await page.getAttribute('[data-testid=board]', 'aria-label');
  // points holding Black's checkers, and empty points that are no destination
  const g = await page.evaluate(async () => (await fetch(location.pathname.replace('/game/', '/api/games/'))).json());
  const opponent = [], empty = [];
  g.view.board.points.forEach((v, i) => { if (v < 0) opponent.push(i + 1); if (v === 0) empty.push(i + 1); });
  if (!opponent.length || !empty.length) fail('no opponent checker or empty point to click');
  // 1. an opponent checker
  await page.click(`[data-testid=point-${opponent[0]}]`);
  // 2. an empty point with nothing selected
  await page.click(`[data-testid=point-${empty[0]}]`);
  // 3. select a checker of ours, then click a point that is no destination of it
  await page.click(`[data-testid="${before.sources[0]}"]`);
  const sel = await snapshot(page);
  const notDest = [...opponent, ...empty].map(n => `point-${n}`).find(id => !sel.dests.includes(id));
  if (notDest) await page.click(`[data-testid="${notDest}"]`);
  // 4. the opponent's bar and borne-off tray
  await page.click('[data-testid=bar-black]');
  await page.click('[data-testid=off-black]');
  // 5. a typed illegal move
  await page.fill('[data-testid=move-input]', '24/1 13/2');
  await page.press('[data-testid=move-input]', 'Enter');
  await page.waitForSelector('[data-testid=message].error');
  const msg = await page.textContent('[data-testid=message]');
  await page.fill('[data-testid=move-input]', 'nonsense');
  await page.press('[data-testid=move-input]', 'Enter');
  await page.waitForTimeout(300);
  if (posts.length) fail(`requests were sent: ${posts.join(', ')}`);
  const after = await snapshot(page);
  if (after.version !== before.version) fail(`the version moved from ${before.version} to ${after.version}`);
  if (await page.getAttribute('[data-testid=board]', 'aria-label') !== boardBefore) fail('the board changed');
  if (after.error || !after.sources.length) fail('the page lost its board or its legal moves');
  const confirmEnabled = await page.isEnabled('[data-testid=confirm]');
  if (confirmEnabled && !(await page.textContent('[data-testid=confirm]')).includes('/')) fail('Confirm is enabled without a play');
  if (!/not (a )?legal|illegal|cannot|ambiguous/i.test(msg)) fail(`the typed illegal move gave no clear message: "${msg}"`);
  checkErrors(page, 'illegal clicks');
  await page.context().close();
});

// ---- scenario 5: statistics, the player page and the replay ----------------------------

await scenario('5: the statistics page shows the finished games with the white/black/draws line', async () => {
  const page = soloPage || await newPage();
  await page.goto(`${BASE}/stats`);
  await page.waitForSelector('[data-testid=stats-backgammon]');
  for (const g of ['backgammon', 'never-finishing', 'grasshopper', 'halma-grasshopper']) {
    const count = Number(await page.textContent(`[data-testid=stats-count-${g}]`));
    if (!(count > 0)) fail(`${g}: ${count} finished games shown`);
    const line = await page.textContent(`[data-testid=stats-line-${g}]`);
    if (!/^white won \d+ \(\d+(\.\d+)? %\), black won \d+ \(\d+(\.\d+)? %\), draws \d+ \(\d+(\.\d+)? %\)$/.test(line.trim())) fail(`${g}: the line is "${line}"`);
    if (!(await page.$(`[data-testid=stats-${g}] svg.stats-bar rect`))) fail(`${g}: no chart`);
  }
  checkErrors(page, 'statistics');
});

await scenario('5b: the player page lists the games and ratings; the replay slider walks a record', async () => {
  if (!soloPage || !finished.backgammon) fail('scenario 1 did not finish its games');
  const page = soloPage;
  await page.click('[data-testid=nav-me]');
  // A guest is not rated (docs/protocol.md, "Ratings"): the page says so instead.
  await page.waitForSelector('[data-testid=unrated]');
  if (await page.$('[data-testid=standings]')) fail('a guest has ratings');
  const games = await page.$$eval('[data-testid=player-games] tbody tr', r => r.length);
  if (games < 4) fail(`the player page lists ${games} games`);
  // the player page tells a match from a game: "lost the 1-point match by 3 points"
  const results = await page.$$eval('[data-testid=player-games] tbody tr td:nth-child(5)', l => l.map(e => e.textContent));
  if (!results.some(r => /^(won|lost) the 1-point match/.test(r))) fail(`no match result in words on the player page: ${results}`);
  await page.goto(`${BASE}/replay/${finished.backgammon}`);
  await page.waitForSelector('[data-testid=replay-slider]');
  // the_replay_page_shows_no_null_before_any_analysis (issue 30)
  await page.waitForSelector('[data-testid=analysis] [data-testid=analyse]');
  const analysisText = await page.textContent('[data-testid=analysis]');
  if (/\bnull\b/.test(analysisText)) fail(`the Analysis section reads "${analysisText}"`);
  const max = Number(await page.getAttribute('[data-testid=replay-slider]', 'max'));
  if (!(max > 2)) fail(`the record has ${max} steps`);
  // the_replay_steps_by_decision (issue 31): one stop per play or cube action, the roll shown with its play
  const rec = await page.evaluate(async id => (await fetch(`/api/games/${id}/record`)).json(), finished.backgammon);
  const acts = rec.steps.filter(st => st.event.kind === 'action' && st.event.payload !== 'roll').length;
  if (max < acts || max > acts + 2 || max >= rec.steps.length) fail(`the replay has ${max} stops for ${acts} plays and cube actions in ${rec.steps.length} events`);
  await page.click('[data-testid=replay-first]');
  const start = await page.textContent('[data-testid=replay-step]');
  if (!/Decision 0 of/.test(start)) fail(`the first step reads "${start}"`);
  await page.click('[data-testid=replay-next]');
  const one = await page.textContent('[data-testid=replay-step]');
  if (!/^Decision 1 of \d+: (White|Black) \d{2}: \S+/.test(one)) fail(`the first decision reads "${one}", not the roll with its play`);
  await page.click('[data-testid=replay-next]');
  const two = await page.textContent('[data-testid=replay-step]');
  if (!/Decision 2 of/.test(two)) fail(`after two steps: "${two}"`);
  await page.fill('[data-testid=replay-slider]', String(max));
  if (!/over|wins|draw/i.test(await page.textContent('[data-testid=replay-step]'))) fail('the last step does not show the result');
  checkErrors(page, 'replay');
});

await scenario('5c: the replay page analyses the backgammon game: ratings, marks, the equity graph, the best move', async () => {
  if (!soloPage || !finished.backgammon) fail('scenario 1 did not finish its games');
  const page = soloPage;
  const id = finished.backgammon;
  await page.goto(`${BASE}/replay/${id}`);
  // a step of the replay shows its position's XGID and gnubg ID, and opens it on the analysis board
  await page.click('[data-testid=replay-first]');
  await page.click('[data-testid=replay-next]');
  clicks += 2;
  const stepXgid = (await page.textContent('[data-testid=position-ids] [data-testid=ids-xgid]').catch(() => '')).trim();
  if (!/^XGID=[-A-Oa-o]{26}:/.test(stepXgid)) fail(`a replay step shows the XGID "${stepXgid}"`);
  const stepLink = await page.getAttribute('[data-testid=position-ids] [data-testid=open-study]', 'href');
  if (new URL(stepLink, BASE).searchParams.get('position') !== stepXgid) fail(`the replay's link opens ${stepLink}, not ${stepXgid}`);
  await page.click('[data-testid=analyse]');
  clicks++;
  // progress while the job runs (a quick job may be done before the page shows any)
  const seen = await page.waitForSelector('[data-testid=analysis-progress], [data-testid=analysis-players], [data-testid=analysis-failed], [data-testid=analysis-message]', { timeout: 10000 });
  const first = await seen.getAttribute('data-testid');
  if (first === 'analysis-failed' || first === 'analysis-message') fail(`the analysis was refused: "${await seen.textContent()}"`);
  if (first === 'analysis-progress') {
    const text = await seen.textContent();
    if (!/^(Queued: waiting|Analysing: (\d+ of \d+ decisions|replaying))/.test(text)) fail(`the progress reads "${text}"`);
    notable.progress = 1;
  }
  await page.waitForSelector('[data-testid=analysis-players], [data-testid=analysis-failed]', { timeout: 240000 });
  if (await page.$('[data-testid=analysis-failed]')) fail(`the analysis failed: "${await page.textContent('[data-testid=analysis-failed]')}"`);
  const view = await page.evaluate(async id => (await fetch(`/api/games/${id}/analysis`)).json(), id);
  if (view.state !== 'done' || !view.report) fail(`the server's analysis is ${view.state}`);
  const decisions = view.report.decisions;
  // both players' ratings
  const ratings = await page.$$eval('[data-testid=analysis-players] [data-testid=analysis-rating]', l => l.map(e => e.textContent.trim()));
  if (ratings.length !== 2 || ratings.some(r => !r)) fail(`the players table shows the ratings [${ratings}]`);
  if (ratings.join() !== view.report.players.map(p => p.rating).join()) fail(`the page shows [${ratings}], the server [${view.report.players.map(p => p.rating)}]`);
  // the marks in the event list, or at least the error of every decision
  const marked = decisions.filter(d => d.mark).length;
  const marks = await page.$$eval('[data-testid=replay-moves] [data-testid=analysis-mark]', l => l.length);
  if (marks !== marked) fail(`${marks} steps marked on the page, ${marked} decisions marked by the server`);
  const errors = await page.$$eval('[data-testid=replay-moves] [data-testid=analysis-error]', l => l.length);
  // a decision not to double is no stop of its own unless marked
  const listed = decisions.filter(d => d.kind !== 'no-double' || d.mark).length;
  if (!marked && errors !== listed) fail(`no mark, and ${errors} errors shown for ${listed} decisions`);
  // the errors, largest first, each a button to its decision; previous and next error keep the board in view
  if (marked) {
    const sizes = await page.$$eval('[data-testid=error-list] li', l => l.map(e => Number(e.getAttribute('data-error'))));
    if (sizes.length !== marked || sizes.some((x, i) => i && x > sizes[i - 1])) fail(`the error list reads [${sizes}] for ${marked} marked decisions`);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.click('[data-testid=replay-first]');
    await page.click('[data-testid=next-mark]');
    clicks += 2;
    const top = await page.$eval('[data-testid=board]', e => { const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < window.innerHeight; });
    if (!top) fail('next error scrolled the board out of view');
    const current = await page.$eval('[data-testid=replay-moves]', l => { const c = l.querySelector('li.current'); return c ? c.offsetTop - l.scrollTop : null; });
    if (current === null) fail('the events list shows no current step after next error');
  } else if (!(await page.$('[data-testid=error-list-empty]'))) fail('no error list and no word that nothing is marked');
  notable[`${decisions.length} decisions, ${marked} marked`] = 1;
  // the equity graph: one point per decision
  const points = await page.$eval('[data-testid=equity-graph] polyline', e => e.getAttribute('points').trim().split(/\s+/).length);
  if (points !== decisions.length) fail(`the graph has ${points} points for ${decisions.length} decisions`);
  // a move decision (a marked one where there is one): its judgement, then the best play
  let k = decisions.findIndex(d => d.kind === 'move' && d.mark && d.best !== d.played);
  if (k < 0) k = decisions.findIndex(d => d.kind === 'move');
  const d = decisions[k];
  if (!d || d.kind !== 'move') fail('no move decision in the report');
  const record = await page.evaluate(async id => (await fetch(`/api/games/${id}/record`)).json(), id);
  const stepNo = record.steps.findIndex(st => st.event.version === d.version) + 1;
  if (!stepNo) fail(`decision at version ${d.version} has no step`);
  await page.click(`[data-testid=replay-moves] li[data-step="${stepNo}"] button`);
  clicks++;
  const text = await page.textContent('[data-testid=analysis-decision]');
  if (!text.includes(`played ${d.played}`)) fail(`the judgement reads "${text}", not the play made ${d.played}`);
  if (d.best !== d.played && d.error > 0 && !text.includes(`Best: ${d.best}`)) fail(`the judgement reads "${text}", not the best play ${d.best}`);
  if (await page.getAttribute('[data-testid=board]', 'data-showing') !== 'before') fail('the board does not show the position before the decision');
  // its best plays, with differences and chances, the play made marked where it is among them
  const alts = await page.$$eval('[data-testid=alternatives] [data-testid=alternative]', l => l.map(r => ({ move: r.getAttribute('data-move'), played: r.classList.contains('played'), cells: r.querySelectorAll('td').length })));
  if (!alts.length || alts.length > 5 || alts[0].move !== d.best || alts.some(a => a.cells !== 7)) fail(`the decision's alternatives read ${JSON.stringify(alts)} (best ${d.best})`);
  if (alts.some(a => a.move === d.played) && !alts.find(a => a.move === d.played).played) fail('the play made is not marked among the alternatives');
  if (await page.getAttribute('[data-testid=equity-graph] [data-testid=graph-current]', 'visibility') !== 'visible') fail('the graph does not mark the decision');
  const board = await page.$eval('[data-testid=board]', e => e.outerHTML);
  await page.click('[data-testid=show-best]');
  clicks++;
  const bestBoard = await page.$eval('[data-testid=board]', e => e.outerHTML);
  const bestText = await page.textContent('[data-testid=analysis-decision]');
  if (bestBoard === board && bestText === text) fail('"Show best move" changed neither the board nor the text');
  if (await page.getAttribute('[data-testid=board]', 'data-showing') !== 'best') fail('the board does not show the best play');
  // the picture: the report beside the board
  await page.setViewportSize({ width: 1200, height: 1060 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'analysis');
  await page.setViewportSize({ width: 1200, height: 820 });
  // opened again, the page shows the analysis at once, with no button
  await page.reload();
  await page.waitForSelector('[data-testid=analysis-players]');
  if (await page.$('[data-testid=analyse]')) fail('the Analyse button is offered again for an analysed game');
  // the_error_rate_is_drawn_analysis_by_analysis (issue 31): the guest's player page graphs it
  await page.click('[data-testid=nav-me]');
  await page.waitForSelector('[data-testid=progress]');
  const mine = view.report.players.find(p => p.name && (p.colour === 'white' || p.colour === 'black') && record.game[p.colour] && record.game[p.colour].kind !== 'bot');
  const errorLabel = await page.getAttribute('[data-testid=error-graph]', 'aria-label').catch(() => null);
  if (!errorLabel || !mine || !errorLabel.includes(`overall ${mine.overall_error_rate.toFixed(1)} (${mine.rating})`)) fail(`the error graph reads "${errorLabel}" (the report: ${mine && mine.overall_error_rate} ${mine && mine.rating})`);
  if (!(await page.$('[data-testid=no-rating-history]'))) fail('a guest\'s page draws a rating graph');
  await page.$eval('[data-testid=progress]', e => e.scrollIntoView({ block: 'start' }));
  await shot(page, 'progress');
  checkErrors(page, 'analysis');
});

// ---- scenario 5d: the trainer --------------------------------------------------------------

/** The right cube choice of a report's decision, from its proper action ("Double, take"). */
function properChoice(d) {
  const [doubler, taker] = (d.proper || '').split(',').map(x => x.trim().toLowerCase());
  if (d.kind === 'double' || d.kind === 'no-double') return /^(re)?double/.test(doubler) ? 'double' : 'no-double';
  return /take|beaver/.test(taker || '') ? 'take' : 'pass';
}

await scenario('5d: the trainer asks the guest the decisions marked in the analysed game; one answered wrong (as played) comes back later and is answered right', async () => {
  if (!soloPage || !finished.backgammon) fail('scenario 1 did not finish its games');
  const page = soloPage;
  const id = finished.backgammon;
  const view = await page.evaluate(async id => (await fetch(`/api/games/${id}/analysis`)).json(), id);
  if (view.state !== 'done') fail('scenario 5c did not analyse the game');
  const record = await page.evaluate(async id => (await fetch(`/api/games/${id}/record`)).json(), id);
  const mine = ['white', 'black'].find(c => record.game[c] && record.game[c].kind !== 'bot');
  const kinds = ['move', 'double', 'no-double', 'take', 'pass'];
  const decisions = view.report.decisions.filter(d => d.player === mine && d.mark && kinds.includes(d.kind));
  if (!decisions.length) fail('the guest made no marked decision in the analysed game: nothing to train');
  const byId = new Map(decisions.map(d => [`${id}-${d.version}`, d]));
  await page.click('[data-testid=nav-trainer]');
  clicks++;
  await page.waitForSelector('[data-testid=trainer-prompt], [data-testid=trainer-empty]');
  const score = await page.textContent('[data-testid=trainer-score]');
  const n = decisions.length;
  if (!score.startsWith(`${n} exercise${n === 1 ? '' : 's'} from your analysed games: ${n} due now`)) fail(`the score reads "${score}" for ${n} marked decisions`);
  const known = new Map(); // exercise -> best choice, as the server graded it
  let target = null, missed = false, answered = 0;
  const deadline = Date.now() + 120000;
  for (;;) {
    if (Date.now() > deadline) fail('the exercise answered wrong did not come back within two minutes');
    await page.waitForSelector('[data-testid=trainer-prompt], [data-testid=trainer-empty]');
    const prompt = await page.$('[data-testid=trainer-prompt]');
    if (!prompt) {
      const empty = await page.textContent('[data-testid=trainer-empty]');
      if (!/comes back in/.test(empty)) fail(`nothing due, and the page says "${empty}"`);
      await page.waitForTimeout(500);
      await page.reload();
      continue;
    }
    const ex = await prompt.getAttribute('data-exercise');
    const kind = await prompt.getAttribute('data-kind');
    const d = byId.get(ex);
    if (!d) fail(`exercise ${ex} is no marked decision of the guest's`);
    let choice;
    if (!target) {
      target = ex;
      choice = kind === 'move' ? d.played : d.kind;
      if (kind === 'move') {
        // the board takes the play: a checker picked shows where it may go
        const source = (await page.$$('[data-testid=board] [data-source]'))[0];
        if (!source) fail('the exercise\'s board offers no checker to move');
        await source.click();
        clicks++;
        if (!(await page.$('[data-testid=board] [data-dest]'))) fail('a picked checker shows no destination');
      }
    } else choice = known.get(ex) || (kind === 'move' ? d.best : properChoice(d));
    const graded = page.waitForResponse(r => r.url().endsWith(`/api/trainer/${ex}/answer`));
    if (kind === 'move') {
      await page.fill('[data-testid=trainer-move-input]', choice);
      await page.click('[data-testid=trainer-move-submit]');
    } else await page.click(`[data-testid=trainer-${choice}]`);
    clicks++;
    const a = await (await graded.catch(async e => {
      const said = await page.textContent('[data-testid=trainer-message]').catch(() => 'nothing');
      fail(`no answer was sent for ${choice} (${kind} ${ex}); the page says: ${said}`);
    })).json();
    if (a.error) fail(`the answer ${choice} to ${ex} was refused: ${a.error.message}`);
    answered++;
    known.set(ex, a.best);
    await page.waitForSelector('[data-testid=trainer-verdict]');
    const verdict = await page.getAttribute('[data-testid=trainer-verdict]', 'data-right');
    if (verdict !== String(a.right)) fail(`the page says right=${verdict}, the server ${a.right}`);
    const schedule = await page.textContent('[data-testid=trainer-schedule]');
    if (ex === target && !missed) {
      if (a.right) fail(`the play made in the game, ${choice}, was graded the best`);
      if (!/^It comes back in \d+ seconds?\.$/.test(schedule)) fail(`after a miss the page says "${schedule}"`);
      const alts = await page.$$eval('[data-testid=trainer-alternatives] [data-testid=trainer-alternative], [data-testid=trainer-cube] tr', l => l.length);
      if (!alts) fail('the answer shows no alternatives');
      missed = true;
      await shot(page, 'trainer');
      if (SHOTS) {
        // the next exercise on a phone, in a second tab of the same guest
        const phone = await page.context().newPage();
        await phone.setViewportSize({ width: 390, height: 844 });
        await phone.goto(`${BASE}/trainer`);
        await phone.waitForSelector('[data-testid=trainer-prompt], [data-testid=trainer-empty]');
        await shot(phone, 'trainer-phone');
        await phone.close();
      }
    } else if (ex === target) {
      if (!a.right) fail(`the best choice ${choice} came back wrong`);
      if (!/to make sure/.test(schedule)) fail(`a right answer after a miss says "${schedule}"`);
      break;
    }
    await page.click('[data-testid=trainer-next]');
    clicks++;
    await page.waitForSelector('[data-testid=trainer-answer]', { state: 'detached' });
  }
  notable[`trainer: ${n} exercises, ${answered} answers`] = 1;
  const after = await page.textContent('[data-testid=trainer-score]');
  if (!/\d+ of your \d+ answers right/.test(after)) fail(`the score reads "${after}"`);
  checkErrors(page, 'trainer');
});

// ---- scenario 6: registration and login, resigning, a 10x10 Halma game ------------------

await scenario('6: a user registers and logs in through the pages, resigns a money game to the bot, and plays on a 10x10 Halma board', async () => {
  const page = await newPage();
  const user = 'reg' + Math.floor(Math.random() * 1e6), password = 'secret-' + Math.floor(Math.random() * 1e6);
  const loginForm = '[data-testid=login-form]', regForm = '[data-testid=register-form]';
  const showsMe = async what => {
    await page.waitForSelector('[data-testid=nav-me]');
    const name = (await page.textContent('[data-testid=nav-me]')).trim();
    if (name !== user) fail(`${what}: the header shows "${name}", not "${user}"`);
  };
  // (a) register through the page's form
  await page.goto(`${BASE}/login`);
  await page.waitForSelector(regForm);
  if (!(await page.$('[data-testid=nav-login]'))) fail('a fresh context is already logged in');
  await page.fill(`${regForm} [data-testid=register-username]`, user);
  await page.fill(`${regForm} [data-testid=register-password]`, password);
  await page.click(`${regForm} [data-testid=register-submit]`);
  await showsMe('after registering');
  const me = await page.evaluate(async () => (await fetch('/api/me')).json());
  if (me.kind === 'guest' || me.name !== user) fail(`the server sees ${JSON.stringify(me)}`);
  // log out through the header
  await page.click('[data-testid=logout]');
  await page.waitForSelector('[data-testid=nav-login]');
  if (await page.$('[data-testid=nav-me]')) fail('still shown as logged in after logging out');
  // a wrong password: the server's refusal is shown, and the page stays
  await page.click('[data-testid=nav-login]');
  await page.waitForURL(/\/login$/);
  await page.fill(`${loginForm} [data-testid=login-username]`, user);
  await page.fill(`${loginForm} [data-testid=login-password]`, password + 'x');
  await page.click(`${loginForm} [data-testid=login-submit]`);
  await page.waitForFunction(f => (document.querySelector(`${f} [role=alert]`) || {}).textContent, loginForm);
  const refusal = await page.textContent(`${loginForm} [role=alert]`);
  if (!/wrong username or password/i.test(refusal)) fail(`the wrong password shows "${refusal}"`);
  if (!/\/login$/.test(page.url())) fail(`a refused login navigated to ${page.url()}`);
  if (await page.$('[data-testid=nav-me]')) fail('a refused login shows the user as logged in');
  // the right password
  await page.fill(`${loginForm} [data-testid=login-password]`, password);
  await page.click(`${loginForm} [data-testid=login-submit]`);
  await showsMe('after logging in');
  await page.waitForURL(u => !/\/login$/.test(u.pathname));

  // (b) a money game against the easy bot, resigned as soon as the page allows it
  const id = await createGame(page, { game: 'backgammon', matchLength: 0, opponent: 'bot', level: 'easy', color: 'white' });
  let last = Date.now(), over = null, offers = 0;
  const levels = ['single', 'gammon', 'backgammon'];
  while (!over) {
    const s = await snapshot(page);
    if (s.error) fail(`the page shows an error: ${s.status}`);
    if (s.over) { over = s.over; break; }
    if (s.buttons.includes('resign') && offers < 3) {
      await page.click('[data-testid=resign]');
      clicks++;
      // the lowest level still offered (after a rejection only higher ones are)
      await page.waitForSelector('[data-testid^=resign-]:not([data-testid=resign-cancel])');
      const offered = await page.$$eval('[data-testid=controls] [data-testid^=resign-]', l => l.map(b => b.getAttribute('data-testid').slice(7)));
      const level = levels.find(l => offered.includes(l));
      if (!level) fail(`no resignation level offered: [${offered}]`);
      if (!offers && level !== 'single') fail(`the first offer cannot be a single game: [${offered}]`);
      const v = s.version;
      await page.click(`[data-testid=resign-${level}]`);
      clicks++;
      notable[`resign-${level}`] = 1;
      offers++;
      // the bot answers: the game ends, or it goes on past the offer
      await page.waitForFunction(v => document.querySelector('[data-testid=game-over]') ||
        Number(document.querySelector('[data-testid=board]').getAttribute('data-version')) > Number(v) + 1, v, { timeout: STEP_LIMIT_MS });
      last = Date.now();
      continue;
    }
    const r = await step(page, { game: 'backgammon', color: 'white' });
    if (r && r.over) { over = r.over; break; }
    if (r) last = Date.now();
    else {
      if (Date.now() - last > STEP_LIMIT_MS) fail(`no progress towards a resignation: "${s.status}" [${s.buttons}]`);
      await page.waitForTimeout(40);
    }
    checkErrors(page, 'resigning');
  }
  if (!offers) fail('the game ended before a resignation could be offered');
  if (!new RegExp(`^Game over: (${user}|Tabula easy) wins \\d+ points?: .+\\. You (win|lose)\\. \\(the rule\\)$`).test(over)) fail(`the end reads "${over}"`);
  const api = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  if (api.state !== 'finished') fail(`the server says ${api.state}`);
  const record = await page.evaluate(async id => (await fetch(`/api/games/${id}/record`)).json(), id);
  const answers = record.steps.map(st => st.event).filter(e => e.kind === 'action' && /^(resign |accept$|reject$)/.test(e.payload)).map(e => e.payload);
  if (!answers.some(a => a.startsWith('resign '))) fail(`the record holds no resignation: ${answers}`);
  if (answers.includes('accept')) {
    if (api.winner !== 'black') fail(`an accepted resignation, but ${api.winner} won`);
    notable['bot accepts'] = 1;
  } else notable['bot rejects'] = answers.filter(a => a === 'reject').length;
  await page.click('[data-testid=nav-me]');
  await page.waitForSelector('[data-testid=player-games]');
  if ((await page.textContent('[data-testid=player-name]')).trim().split(/\s/)[0] !== user) fail('the player page is not the user\'s');
  const row = await page.$(`[data-testid=player-games] tr:has(a[href="/replay/${id}"])`);
  if (!row) fail('the player page does not list the resigned game');
  const rowText = await row.textContent();
  if (!/Backgammon/.test(rowText) || !/(won|lost) \d+/.test(rowText)) fail(`the player page's row reads "${rowText}"`);
  // the_rating_is_drawn_game_by_game (issue 31): the rated game is the graph's one point
  const ratingPoints = await page.$$eval('[data-testid=rating-graph] circle', l => l.length).catch(() => 0);
  if (ratingPoints !== 1) fail(`the rating graph has ${ratingPoints} points after one rated game`);
  const ratingLabel = await page.getAttribute('[data-testid=rating-graph]', 'aria-label');
  if (!/^Rating after each rated game: Backgammon \d+ after 1 game\.$/.test(ratingLabel)) fail(`the rating graph reads "${ratingLabel}"`);
  // all_games_download_as_one_archive (issue 31): unzipped, its .mat is read by `tabula analyse`
  const href = await page.getAttribute('[data-testid=archive-link]', 'href');
  const zipped = await page.request.get(`${BASE}${href}`);
  if (zipped.status() !== 200 || zipped.headers()['content-type'] !== 'application/zip') fail(`the archive answers ${zipped.status()} ${zipped.headers()['content-type']}`);
  const dir = mkdtempSync(join(tmpdir(), 'tabula-archive-'));
  writeFileSync(join(dir, 'games.zip'), await zipped.body());
  execFileSync('python3', ['-m', 'zipfile', '-e', join(dir, 'games.zip'), join(dir, 'out')]);
  const mat = readdirSync(join(dir, 'out')).find(f => f.endsWith(`-${id}.mat`));
  if (!mat || !/-backgammon-money-/.test(mat)) fail(`the archive holds no money .mat for game ${id}: ${readdirSync(join(dir, 'out'))}`);
  if (process.env.TABULA_BIN) {
    const report = execFileSync(process.env.TABULA_BIN, ['analyse', join(dir, 'out', mat), '--plies', '0'], { encoding: 'utf8' });
    if (!report.includes(user)) fail(`\`tabula analyse\` of the archive's .mat reads "${report.slice(0, 200)}"`);
    notable['archive analysed'] = 1;
  }
  rmSync(dir, { recursive: true, force: true });

  // (c) a 10x10 Halma game against the random bot: two moves by clicking
  await createGame(page, { game: 'halma-grasshopper', size: 10, opponent: 'bot', level: 'random', color: 'white' });
  const squares = await page.$$eval('[data-testid=board] [data-testid^=sq-]', l => l.length);
  if (squares !== 100) fail(`the Halma board has ${squares} squares`);
  if (!/10×10/.test(await page.textContent('h1.game-title'))) fail('the title does not say 10×10');
  const listed = () => page.$$eval('[data-testid=move-list] [data-testid=move-entry]', l => l.length);
  for (let k = 0; k < 2; k++) {
    await page.waitForSelector('[data-testid=board] [data-source]', { timeout: STEP_LIMIT_MS });
    const before = await listed();
    const s = await snapshot(page);
    await page.click(`[data-testid="${halmaBest(s.sources, 'white')}"]`);
    clicks++;
    const d = await snapshot(page);
    if (!d.dests.length) fail('a selected Halma piece has no destination');
    await page.click(`[data-testid="${halmaBest(d.dests, 'white')}"]`);
    clicks++;
    await page.waitForFunction(n => document.querySelectorAll('[data-testid=move-list] [data-testid=move-entry]').length > n, before, { timeout: 8000 })
      .catch(async () => fail(`move ${k + 1}: the move list stayed at ${await listed()}`));
  }
  // both of our moves and the bot's first reply are listed
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=move-entry][data-actor=white]').length >= 2);
  const mine = await page.$$eval('[data-testid=move-entry][data-actor=white]', l => l.length);
  if (mine !== 2) fail(`the move list holds ${mine} moves of White`);
  // log out everywhere from the account area: this session and every other one end
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const otherLogin = await otherPage.request.post(`${BASE}/api/login`, { data: { username: user, password } });
  if (otherLogin.status() !== 200) fail(`a second login answered ${otherLogin.status()}`);
  await page.goto(`${BASE}/login`);
  await page.click('[data-testid=logout-all]');
  await page.waitForSelector('[data-testid=nav-login]');
  if ((await page.request.get(`${BASE}/api/me`)).status() !== 401) fail('this session outlived "Log out everywhere"');
  if ((await otherPage.request.get(`${BASE}/api/me`)).status() !== 401) fail('another session outlived "Log out everywhere"');
  await other.close();
  checkErrors(page, 'halma 10x10');
  await page.context().close();
});

// ---- scenario 7: the end of a game inside a match is announced ----------------------------

await scenario('7: the end of a game inside a backgammon match is announced with its final board before the next game starts', async () => {
  const page = await newPage();
  await guest(page, 'matcher');
  const id = await createGame(page, { game: 'backgammon', matchLength: 5, opponent: 'bot', level: 'easy', color: 'white' });
  // every double dropped: the cube stays at 1, so no game scores 5 points and ends the match
  const policy = { game: 'backgammon', color: 'white', avoid: new Set(['take']), drop: true, stopAtBetween: true };
  let last = Date.now(), between = null;
  while (!between) {
    const r = await step(page, policy);
    if (r && r.over) fail(`the match ended without a game of it announced: "${r.over}"`);
    if (r && r.between) { between = r; break; }
    if (r) last = Date.now();
    else {
      if (Date.now() - last > STEP_LIMIT_MS) fail('no progress towards the end of game 1');
      await page.waitForTimeout(40);
    }
    checkErrors(page, 'match');
  }
  const api = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  const g1 = api.view.games[0];
  if (api.state !== 'playing' || api.view.game_number < 2 || !g1) fail(`the server is not in game 2: ${api.state}, game ${api.view.game_number}`);
  // the announcement: which game, why it ended (naming the players), the score
  const text = between.between;
  if (!text.includes(`Game 1: ${g1.sentence}`)) fail(`the announcement reads "${text}", not "Game 1: ${g1.sentence}"`);
  if (!text.includes(`Score: matcher (guest) ${g1.score.white}, Tabula easy ${g1.score.black} (match to 5)`)) fail(`no score in "${text}"`);
  if (await page.getAttribute('[data-testid=match-game-over]', 'data-code') !== g1.code) fail('the announcement has the wrong code');
  notable[`game 1 ${g1.code}`] = 1;
  // the board is game 1's final position, not game 2's start, and nothing of game 2 is offered
  const checkBoard = async () => {
    if (await page.getAttribute('[data-testid=board]', 'data-final-of-game') !== '1') fail('the board is not marked as game 1\'s final position');
    const labels = await page.$$eval('[data-testid=board] [data-testid^=point-]', l => Object.fromEntries(l.map(e => [e.getAttribute('data-testid'), e.getAttribute('aria-label')])));
    for (let w = 1; w <= 24; w++) {
      const want = Math.abs(g1.board.points[w - 1]);
      const m = /: (\d+) (white|black)/.exec(labels[`point-${w}`]);
      if ((m ? Number(m[1]) : 0) !== want) fail(`point ${w} shows "${labels[`point-${w}`]}", game 1 ended with ${want}`);
    }
    for (const c of ['white', 'black']) {
      const tray = await page.getAttribute(`[data-testid=off-${c}]`, 'aria-label');
      if (!tray.endsWith(`: ${g1.board.off[c]}`)) fail(`${c}'s tray shows "${tray}", game 1 ended with ${g1.board.off[c]} off`);
    }
    const s = await snapshot(page);
    if (s.buttons.length) fail(`game 2's controls are offered during the announcement: [${s.buttons}]`);
    if (await page.isVisible('[data-testid=move-input]')) fail('the move box is shown during the announcement');
  };
  await checkBoard();
  await shot(page, 'match-game-over');
  await page.waitForTimeout(1000); // it stays until the player goes on
  await checkBoard();
  if (!/game 1\b/.test(await page.textContent('h1.game-title'))) fail('the title does not name game 1');
  await page.click('[data-testid=next-game]');
  clicks++;
  await page.waitForSelector('[data-testid=match-game-over]', { state: 'detached' });
  if (await page.getAttribute('[data-testid=board]', 'data-final-of-game')) fail('the final board stays after "Next game"');
  if (!/game 2\b/.test(await page.textContent('h1.game-title'))) fail('the title does not say game 2');
  await page.waitForSelector('[data-testid=controls] [data-testid=roll]', { timeout: STEP_LIMIT_MS }); // game 2's opening roll
  // the move list: game 1 under its heading, with its numbered lines and its result
  const heading = (await page.textContent('[data-testid=move-game][data-game-number="1"] [data-testid=move-game-heading]')).trim();
  if (heading !== 'Game 1') fail(`game 1's heading reads "${heading}"`);
  const lines = await page.$$eval('[data-testid=move-game][data-game-number="1"] tr td.num', l => l.map(e => e.textContent));
  if (!lines.length || lines[0] !== '1.' || lines[lines.length - 1] !== `${lines.length}.`) fail(`game 1's lines are numbered ${lines.slice(0, 3)}…`);
  const res = (await page.textContent('[data-testid=move-game][data-game-number="1"] [data-testid=move-game-result]')).trim();
  if (res !== g1.sentence) fail(`game 1's result in the move list reads "${res}", the server says "${g1.sentence}"`);
  await shot(page, 'move-list');
  checkErrors(page, 'match');
  await page.context().close();
});

// ---- scenario 8: the hint in an unrated game against a bot --------------------------------

await scenario('8: in an unrated backgammon game against the easy bot, Hint ranks the plays of the roll (and weighs a cube decision) without playing anything', async () => {
  const page = await newPage();
  await guest(page, 'hinted');
  const id = await createGame(page, { game: 'backgammon', matchLength: 0, opponent: 'bot', level: 'easy', color: 'white' });
  const game = () => page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  const waitPanel = async kind => {
    const el = await page.waitForSelector(`[data-testid=hint-panel][data-kind=${kind}], [data-testid=hint-panel][data-kind=error]`, { timeout: STEP_LIMIT_MS });
    if (await el.getAttribute('data-kind') === 'error') fail(`the hint was refused: "${await el.textContent()}"`);
  };
  // reach a move decision of ours with the dice rolled; on the way, a cube decision's hint
  let cubeSeen = false;
  const t = Date.now();
  let s;
  for (;;) {
    s = await snapshot(page);
    if (s.error) fail(`the page shows an error: ${s.status}`);
    if (s.over) fail('the game ended before a move of ours');
    if (s.sources.length) break;
    if (/Opening roll/.test(s.status) && s.buttons.includes('hint')) fail('Hint is offered for the opening roll');
    if (s.buttons.includes('double') && s.buttons.includes('roll') && !cubeSeen) {
      if (!s.buttons.includes('hint')) fail(`no Hint at a cube decision: [${s.buttons}]`);
      await page.click('[data-testid=hint]');
      clicks++;
      await waitPanel('cube');
      const cells = await page.$$eval('[data-testid=hint-cube] td', l => l.map(e => e.textContent.trim()));
      if (cells.length !== 3 || !cells.every(c => /^[+−]\d+\.\d{3}$/.test(c))) fail(`the cube hint shows [${cells}]`);
      const proper = (await page.textContent('[data-testid=hint-proper]')).trim();
      if (!/^Proper cube action: \S.*\.$/.test(proper)) fail(`the cube hint reads "${proper}"`);
      cubeSeen = true;
      notable['cube hint'] = 1;
    }
    if (s.buttons.includes('take')) { await page.click('[data-testid=take]'); clicks++; }
    else if (s.buttons.includes('roll')) { await page.click('[data-testid=roll]'); clicks++; }
    if (Date.now() - t > STEP_LIMIT_MS) fail(`no move decision reached: "${s.status}" [${s.buttons}]`);
    await page.waitForTimeout(40);
  }
  // a new position: no hint of the last one is left
  if (await page.$('[data-testid=hint-panel]')) fail('the hint panel stayed after the position changed');
  if (!s.buttons.includes('hint')) fail(`no Hint button at our move: [${s.buttons}]`);
  const g = await game();
  if (g.rated !== false) fail(`a guest's game against a bot is rated: ${g.rated}`);
  const legal = new Set(g.view.legal);
  const posts = [];
  page.on('request', r => { if (r.method() !== 'GET') posts.push(`${r.method()} ${r.url()}`); });
  await page.click('[data-testid=hint]');
  clicks++;
  await waitPanel('moves');
  const rows = await page.$$eval('[data-testid=hint-panel] [data-testid=hint-row]', l => l.map(r => ({
    move: r.getAttribute('data-move'), diff: Number(r.getAttribute('data-diff')),
    shown: r.querySelector('[data-testid=hint-diff]').textContent.trim(), text: r.textContent,
  })));
  if (!rows.length || rows.length > 5) fail(`the hint lists ${rows.length} plays`);
  if (!rows.some(r => legal.has(r.move))) fail(`no listed play [${rows.map(r => r.move)}] is in the legal notation [${[...legal].slice(0, 6)}…]`);
  if (rows[0].diff !== 0 || rows[0].shown !== 'best') fail(`the first row's difference is ${rows[0].diff}, shown as "${rows[0].shown}"`);
  for (let k = 1; k < rows.length; k++) if (rows[k].diff > rows[k - 1].diff + 1e-9) fail(`the plays are not ranked: ${rows.map(r => r.diff)}`);
  if (!/[+−]\d+\.\d{3}/.test(rows[0].text)) fail(`the best row shows no money equity: "${rows[0].text}"`);
  notable[`${rows.length} plays ranked`] = 1;
  // the best play as arrows on the board
  if (rows[0].move.includes('/') && !(await page.$('[data-testid=board] [data-testid=hint-move] line'))) fail('the best play is not drawn on the board');
  // read-only: nothing was sent, the position is where it was
  if (posts.length) fail(`the hint sent ${posts.join(', ')}`);
  if ((await snapshot(page)).version !== s.version) fail('asking for a hint moved the game');
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'hint');
  await page.setViewportSize({ width: 1200, height: 820 });
  // our move played: the panel clears
  const t2 = Date.now();
  for (;;) {
    const r = await step(page, { game: 'backgammon', color: 'white' });
    if (r && (r.over || r.did === 'confirm')) break;
    if (Date.now() - t2 > STEP_LIMIT_MS) fail('our move could not be played after the hint');
    if (!r) await page.waitForTimeout(40);
  }
  await page.waitForSelector('[data-testid=hint-panel]', { state: 'detached', timeout: 8000 })
    .catch(() => fail('the hint panel stayed after our move'));
  // the bot's reply stays visible at our next turn: its dice (played) on its side, its move as arrows
  // (the bot may double instead, or the game end: then there is no roll of ours to wait for)
  await page.waitForSelector('[data-testid=controls] button, [data-testid=game-over]', { timeout: STEP_LIMIT_MS });
  const botPlayed = (await game()).view;
  if (await page.$('[data-testid=controls] [data-testid=roll]') && botPlayed.status.status === 'decide' && !botPlayed.dice) {
    const dice = await page.$('[data-testid=board] [data-testid=dice][data-side=black][data-played=true]');
    const arrows = await page.$('[data-testid=board] [data-testid=last-move] line');
    const events = await page.evaluate(async id => (await fetch(`/api/games/${id}/events`)).json(), id);
    const lastAction = events.filter(e => e.kind === 'action').pop();
    if (lastAction && lastAction.actor === 'black' && lastAction.payload.includes('/')) {
      if (!dice) fail("the bot's dice are not drawn on its side before our roll");
      if (!arrows) fail("the bot's move is not drawn before our roll");
      notable['bot move shown'] = 1;
    }
  }
  checkErrors(page, 'hint');
  await page.context().close();
});

// ---- scenario 9: the analysis board with a pasted XGID -------------------------------------

await scenario('9: the analysis board reads a pasted XGID, ranks the plays of set dice, weighs the cube, and rolls out with its progress shown', async () => {
  const page = await newPage({ width: 1200, height: 900 });
  await page.goto(`${BASE}/study`);
  await page.waitForSelector('[data-testid=study-chances]', { timeout: STEP_LIMIT_MS });
  // a 5-point match at 2-1, Black on roll with 4-2 (top player, lower case on the XGID)
  const xgid = 'XGID=-b----E-C---eE---c-e----B-:0:0:-1:42:1:2:0:5:10';
  await page.fill('[data-testid=study-position]', xgid);
  await page.fill('[data-testid=study-dice]', '');
  await page.click('[data-testid=study-hint]');
  clicks++;
  await page.waitForSelector('[data-testid=study-out][data-kind=hint] [data-testid=hint-moves]', { timeout: STEP_LIMIT_MS })
    .catch(async () => fail(`no ranked plays: "${await page.textContent('[data-testid=study-out]')}"`));
  const situation = (await page.textContent('[data-testid=study-situation]')).trim();
  if (!/^Black on roll with 4-2; 5-point match, White 1, Black 2; cube 1, centred\.$/.test(situation)) fail(`the board reads "${situation}"`);
  const rows = await page.$$eval('[data-testid=study-out] [data-testid=hint-row]', l => l.map(r => ({
    move: r.getAttribute('data-move'), diff: Number(r.getAttribute('data-diff')), text: r.textContent })));
  if (!rows.length || rows[0].diff !== 0) fail(`the plays of 4-2 are not ranked: ${JSON.stringify(rows)}`);
  if (!/\d+\.\d %/.test(rows[0].text)) fail(`a match play shows no match-winning chance: "${rows[0].text}"`);
  if (rows[0].move.includes('/') && !(await page.$('[data-testid=study-board] [data-testid=hint-move] line'))) fail('the best play is not drawn');
  // the dice typed in override the position's: the cube decision needs the position to roll
  await page.fill('[data-testid=study-position]', 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:1:2:0:5:10');
  await page.click('[data-testid=study-evaluate]');
  clicks++;
  await page.waitForSelector('[data-testid=study-out][data-kind=evaluate] [data-testid=hint-proper]', { timeout: STEP_LIMIT_MS });
  const equity = (await page.textContent('[data-testid=study-equity]')).trim();
  if (!/^Cubeless equity [+−]\d\.\d{3}\.$/.test(equity)) fail(`the evaluation reads "${equity}"`);
  // a bad position: a sentence, nothing drawn over
  await page.fill('[data-testid=study-position]', 'XGID=nonsense');
  await page.click('[data-testid=study-hint]');
  clicks++;
  const err = await page.waitForSelector('[data-testid=study-error]', { timeout: STEP_LIMIT_MS });
  if (!/^bad position/.test((await err.textContent()).trim())) fail(`the error reads "${await err.textContent()}"`);
  // a rollout: progress first, then the result
  await page.fill('[data-testid=study-position]', 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:1:2:0:5:10');
  await page.selectOption('[data-testid=study-trials]', '324');
  await page.selectOption('[data-testid=study-truncate]', '10');
  await page.click('[data-testid=study-rollout]');
  clicks++;
  await page.waitForSelector('[data-testid=study-progress]', { timeout: STEP_LIMIT_MS });
  let sawProgress = false;
  const t = Date.now();
  while (!(await page.$('[data-testid=study-rollouts][data-state=done]'))) {
    const v = await page.$eval('[data-testid=study-progress]', p => p.value).catch(() => null);
    if (v != null && v > 0 && v < 324) sawProgress = true;
    if (await page.$('[data-testid=study-error]')) fail(`the rollout failed: ${await page.textContent('[data-testid=study-error]')}`);
    if (Date.now() - t > 120000) fail('the rollout did not finish in two minutes');
    await page.waitForTimeout(50);
  }
  if (!sawProgress) fail('no progress was shown between the start and the end of the rollout');
  const ro = (await page.textContent('[data-testid=study-rollout-equity]')).trim();
  if (!/^Cubeless equity [+−]\d\.\d{3} ± \d\.\d{3} \(standard error\); with 95 % confidence between/.test(ro)) fail(`the rollout reads "${ro}"`);
  if (!(await page.$('[data-testid=study-rollouts] [data-testid=hint-proper]'))) fail('the rollout shows no cube decision');
  notable['rollout progress'] = 1;
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'analysis-board');
  checkErrors(page, 'analysis board');
  await page.context().close();
});

// ---- scenario 26: the position editor, candidates, rollouts stopped and resumed -----------

/** `tabula rollout --json` of a position (TABULA_BIN: the binary the servers run). */
function cliRollout(position, args) {
  const bin = process.env.TABULA_BIN;
  if (!bin) fail('TABULA_BIN is not set: the scenario compares with `tabula rollout`');
  return JSON.parse(execFileSync(bin, ['rollout', position, '--json', '--threads', '2', ...args], { encoding: 'utf8' }));
}

/** Waits for the rollout panel to reach `state` (running, stopped, done); fails on an error. */
async function rolloutState(page, state, limitMs = 180000) {
  const t = Date.now();
  for (;;) {
    const now = await page.getAttribute('[data-testid=study-rollouts]', 'data-state');
    if (now === state) return;
    if (now === 'error') fail(`the rollout failed: ${await page.textContent('[data-testid=study-rollouts]')}`);
    if (Date.now() - t > limitMs) fail(`the rollout did not reach "${state}" (it is "${now}")`);
    await page.waitForTimeout(100);
  }
}

await scenario('26: a position set up on an empty board gets its XGID; its plays are ranked with their chances; two are rolled out together, equal to `tabula rollout`; a stopped rollout keeps its games and resumes to the same result; the cube is rolled out; a game position opens on the analysis board', async () => {
  const page = await newPage({ width: 1280, height: 900 });
  await page.goto(`${BASE}/study`);
  await page.waitForSelector('[data-testid=study-chances]', { timeout: STEP_LIMIT_MS });
  await page.click('[data-testid=edit-toggle]');
  await page.click('[data-testid=edit-clear]');
  clicks += 2;
  await page.waitForSelector('[data-testid=edit-message][data-refused]', { timeout: STEP_LIMIT_MS });
  const empty = (await page.textContent('[data-testid=edit-message]')).trim();
  if (!/over/.test(empty)) fail(`an empty board is not refused as a finished game: "${empty}"`);
  // White: three on the six-point, two on the five; Black: two on their six (White's 19), one on White's 20
  const put = async (key, n) => { for (let k = 0; k < n; k++) { await page.click(`[data-testid=study-board] [data-testid=point-${key}]`); clicks++; } };
  await put(6, 3);
  await put(5, 2);
  await page.check('[data-testid=tool-black]');
  await put(19, 2);
  await put(20, 1);
  const want = 'XGID=-----BC------------ba-----:0:0:1:00:0:0:3:0:10';
  await page.waitForFunction(w => document.querySelector('[data-testid=study-xgid]')?.textContent === w, want, { timeout: STEP_LIMIT_MS })
    .catch(async () => fail(`the XGID reads "${await page.textContent('[data-testid=study-ids]')}", not ${want}`));
  const gnubg = (await page.textContent('[data-testid=study-gnubg]')).trim();
  if (!/^[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}$/.test(gnubg)) fail(`the gnubg ID reads "${gnubg}"`);
  // both sides on one point: refused with the reason, nothing changed
  await page.click('[data-testid=study-board] [data-testid=point-6]');
  clicks++;
  const shared = (await page.textContent('[data-testid=edit-message]')).trim();
  if (!/cannot share a point/.test(shared)) fail(`a Black checker on White's point reads "${shared}"`);
  if (await page.textContent('[data-testid=study-xgid]') !== want) fail('a refused click changed the position');
  await shot(page, 'study-editor');
  // the pasted gnubg ID fills the board again
  await page.click('[data-testid=edit-start]');
  // the starting position reads back first (its identifiers redrawn above the field), so that
  // the field is filled and Load clicked on a settled page, as a person would
  await page.waitForFunction(() => document.querySelector('[data-testid=study-xgid]')?.textContent.startsWith('XGID=-b----E-C---eE---c-e----B-:'), null, { timeout: STEP_LIMIT_MS })
    .catch(async () => fail(`the starting position reads back as "${await page.textContent('[data-testid=study-ids]')}"`));
  await page.fill('[data-testid=study-position]', gnubg);
  await page.click('[data-testid=study-load]');
  clicks += 2;
  await page.waitForFunction(w => document.querySelector('[data-testid=study-xgid]')?.textContent === w, want, { timeout: STEP_LIMIT_MS })
    .catch(async () => fail(`the pasted gnubg ID reads back as "${await page.textContent('[data-testid=study-ids]')}"`));
  // the candidates of 3-1, with their chances, at 0-ply
  await page.fill('[data-testid=study-dice]', '3-1');
  await page.selectOption('[data-testid=study-plies]', '0');
  await page.click('[data-testid=study-hint]');
  clicks++;
  await page.waitForSelector('[data-testid=study-out][data-kind=hint] [data-testid=hint-moves]', { timeout: STEP_LIMIT_MS })
    .catch(async () => fail(`no candidates: "${await page.textContent('[data-testid=study-out]')}"`));
  const rows = await page.$$eval('[data-testid=hint-row]', l => l.map(r => ({
    move: r.getAttribute('data-move'), after: r.getAttribute('data-after'), cells: [...r.querySelectorAll('td')].map(td => td.textContent.trim()) })));
  if (rows.length < 3) fail(`only ${rows.length} candidates`);
  if (!rows.every(r => r.cells.filter(c => /^\d+\.\d %$/.test(c)).length === 5)) fail(`a candidate lacks its five chances: ${JSON.stringify(rows[0])}`);
  // choose the second and third plays only
  const boxes = await page.$$('[data-testid=candidate-pick]');
  for (const [k, box] of boxes.entries()) { if ((k === 1 || k === 2) !== (await box.isChecked())) { await box.click(); clicks++; } }
  await page.selectOption('[data-testid=study-trials]', '36');
  await page.fill('[data-testid=study-seed]', '7');
  await page.click('[data-testid=study-rollout-plays]');
  clicks++;
  await rolloutState(page, 'done');
  const rolled = await page.$$eval('[data-testid=rollout-row]', l => l.map(r => ({ move: r.getAttribute('data-move'), trials: Number(r.getAttribute('data-trials')), equity: Number(r.getAttribute('data-equity')) })));
  if (rolled.length !== 2 || !rolled.every(r => r.trials === 36)) fail(`the rollout shows ${JSON.stringify(rolled)}`);
  if (rolled[0].equity < rolled[1].equity) fail('the rolled-out plays are not sorted best first');
  for (const r of rolled) {
    const after = rows.find(x => x.move === r.move)?.after;
    if (!after) fail(`rolled out ${r.move}, which was not chosen`);
    const cli = cliRollout(after, ['--trials', '36', '--seed', '7']);
    if (Math.abs(cli.equity + r.equity) > 1e-12) fail(`${r.move}: the browser's rollout gives ${r.equity}, \`tabula rollout\` of ${after} gives ${-cli.equity} for the mover`);
  }
  notable['plays rolled out'] = rolled.length;
  await page.$eval('[data-testid=study-out]', e => e.scrollIntoView({ block: 'start' }));
  await shot(page, 'study-candidates');
  // a rollout stopped after its first block keeps it, and resumes to the rollout run at once
  // (of the starting position: long enough that Stop comes before the end)
  const opening = 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10';
  await page.fill('[data-testid=study-position]', opening);
  await page.click('[data-testid=study-load]');
  clicks++;
  await page.waitForFunction(w => document.querySelector('[data-testid=study-xgid]')?.textContent === w, opening, { timeout: STEP_LIMIT_MS });
  await page.fill('[data-testid=study-dice]', '');
  await page.selectOption('[data-testid=study-trials]', '1296');
  await page.selectOption('[data-testid=study-truncate]', '10');
  await page.click('[data-testid=study-rollout]');
  clicks++;
  // Stop as soon as the first block's results show (clicked from the page: the progress bar
  // keeps the button moving for Playwright's idea of stable)
  await page.waitForFunction(() => {
    const stop = document.querySelector('[data-testid=study-stop]');
    if (stop && document.querySelector('[data-testid=study-rollouts] [data-testid=study-rollout-equity]')) { stop.click(); return true; }
    return false;
  }, null, { timeout: 120000, polling: 'raf' })
    .catch(async () => fail(`the rollout could not be stopped after its first block: "${await page.textContent('[data-testid=study-rollouts]')}"`));
  clicks++;
  await rolloutState(page, 'stopped');
  const stopped = (await page.textContent('[data-testid=study-stopped]')).trim();
  const m = /after (\d+) of 1296 games/.exec(stopped);
  if (!m || Number(m[1]) < 36 || Number(m[1]) >= 1296) fail(`the stopped rollout reads "${stopped}"`);
  if (!(await page.$('[data-testid=study-rollouts] [data-testid=study-rollout-equity]'))) fail('the stopped rollout shows no result');
  await page.$eval('[data-testid=study-rollouts]', e => e.scrollIntoView({ block: 'center' }));
  await shot(page, 'study-stopped');
  await page.click('[data-testid=study-resume]');
  clicks++;
  await rolloutState(page, 'done', 240000);
  const resumed = (await page.textContent('[data-testid=study-rollout-equity]')).trim();
  const whole = cliRollout(opening, ['--trials', '1296', '--truncate', '10', '--seed', '7']);
  const shown = (whole.equity < 0 ? '−' : '+') + Math.abs(whole.equity).toFixed(3);
  if (!resumed.includes(shown)) fail(`the resumed rollout reads "${resumed}", the rollout run at once ${shown}`);
  notable['stopped at'] = Number(m[1]);
  // the cube, rolled out cubeful: no double and double/take on the same dice
  await page.selectOption('[data-testid=study-trials]', '36');
  await page.click('[data-testid=study-rollout-cube]');
  clicks++;
  await rolloutState(page, 'done');
  const actions = await page.$$eval('[data-testid=rollout-row]', l => l.map(r => r.getAttribute('data-move')));
  if (actions.join('|') !== 'no double|double, take') fail(`the cube rollout shows [${actions}]`);
  const proper = (await page.textContent('[data-testid=study-rollouts] [data-testid=hint-proper]')).trim();
  if (!/^Proper cube action: \S.*\.$/.test(proper)) fail(`the cube rollout reads "${proper}"`);
  // on a phone the board, the identifiers and the results stack in one column
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${BASE}/study?position=${encodeURIComponent(want)}`);
  await page.waitForSelector('[data-testid=study-xgid]', { timeout: STEP_LIMIT_MS });
  await page.waitForSelector('[data-testid=study-board] [data-layout=compact]', { timeout: STEP_LIMIT_MS })
    .catch(() => fail('the analysis board is not drawn compact on a phone'));
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  if (wide > 400) fail(`the analysis board is ${wide} px wide on a 390 px phone`);
  await shot(page, 'study-phone');
  checkErrors(page, 'analysis board');
  await page.context().close();
  // a practice game's position opens on the analysis board
  const player = await newPage();
  await guest(player, 'studies');
  const id = await createGame(player, { game: 'backgammon', matchLength: 0, opponent: 'bot', level: 'easy', color: 'white' });
  await player.waitForSelector('[data-testid=position-ids] [data-testid=open-study]', { timeout: STEP_LIMIT_MS })
    .catch(() => fail('a practice game shows no link to the analysis board'));
  // read and click the link in one task: the page redraws it whenever the game moves on
  // (the opening roll), which would detach an element handle between the two
  const gameXgid = await player.evaluate(() => {
    const a = document.querySelector('[data-testid=position-ids] [data-testid=open-study]');
    a.click();
    return new URL(a.href).searchParams.get('position');
  });
  if (!/^XGID=/.test(gameXgid || '')) fail(`the game's link opens "${gameXgid}"`);
  clicks++;
  await player.waitForSelector('[data-testid=study-xgid]', { timeout: STEP_LIMIT_MS });
  const studied = (await player.textContent('[data-testid=study-xgid]')).trim();
  if (studied !== gameXgid) fail(`game ${id}'s position ${gameXgid} opens as ${studied}`);
  checkErrors(player, 'game to study');
  await player.context().close();
});

// ---- scenario 27: Never-Finishing and Grasshopper study ------------------------------------

await scenario('27: the analysis board studies Never-Finishing (plays ranked with a trap marked ^, the chances, two plays rolled out) and Grasshopper (exact values from the endgame table, else the search); replays of both games open their positions, and a Grasshopper step is evaluated', async () => {
  const page = await newPage();
  // a guest, who may ask for the analysis of a replayed game
  await guest(page, 'studier');
  // Never-Finishing: a Black blot White can hit or trap
  const nf = '14b/16/1b/5/15w:0:0:0:0:w';
  await page.goto(`${BASE}/study?game=never-finishing&position=${encodeURIComponent(nf)}&dice=6-1`);
  await page.waitForSelector('[data-testid=hint-moves] [data-testid=hint-row]', { timeout: 20000 });
  if (await page.getAttribute('[data-testid=study-tab-never-finishing]', 'aria-current') !== 'page') fail('the Never-Finishing tab is not the current one');
  const rows = await page.$$eval('[data-testid=hint-row]', l => l.map(r => r.getAttribute('data-move')));
  if (!rows.some(m => m.includes('^')) || !rows.some(m => m.includes('*'))) fail(`the plays of 6-1 read [${rows}]: no trap (^) and hit (*) among them`);
  const cells = await page.$$eval('[data-testid=hint-row]:first-child td', l => l.length);
  if (cells !== 11) fail(`a ranked play has ${cells} cells, not 11 (box, rank, play, equity, diff, five chances, depth)`);
  await page.setViewportSize({ width: 1200, height: 1250 });
  await shot(page, 'study-nf');
  await page.setViewportSize({ width: 1200, height: 820 });
  // the two best plays rolled out together, 36 games each
  await page.selectOption('[data-testid=study-trials]', '36');
  await page.click('[data-testid=study-rollout-plays]');
  clicks += 2;
  await page.waitForSelector('[data-testid=study-rollouts][data-state=done]', { timeout: 120000 });
  const rolled = await page.$$eval('[data-testid=rollout-row]', l => l.map(r => ({ move: r.getAttribute('data-move'), trials: Number(r.getAttribute('data-trials')) })));
  if (rolled.length !== 2 || rolled.some(r => r.trials !== 36) || !rolled.every(r => rows.slice(0, 2).includes(r.move))) fail(`the rollout shows ${JSON.stringify(rolled)} for [${rows.slice(0, 2)}]`);
  // the chances before rolling
  await page.click('[data-testid=study-evaluate]');
  clicks++;
  await page.waitForSelector('[data-testid=study-chances]');
  const eq = await page.textContent('[data-testid=study-equity]');
  if (!/Cubeless equity [+−-]?\d\.\d{3}/.test(eq) || !eq.includes('no cube')) fail(`the evaluation reads "${eq}"`);
  // a bad position is refused with the reason
  await page.fill('[data-testid=study-position]', '15b/22/16w:0:0:0:0:w');
  await page.click('[data-testid=study-load]');
  clicks++;
  const refused = await (await page.waitForSelector('[data-testid=study-error]')).textContent();
  if (!/bad position/.test(refused)) fail(`a bad position is answered "${refused}"`);
  // Grasshopper: the small start (two checkers each) is held by the table built for the test
  await page.click('[data-testid=study-tab-grasshopper]');
  clicks++;
  await page.waitForSelector('[data-testid=gh-verdict]', { timeout: 20000 });
  const source = await page.getAttribute('[data-testid=gh-verdict]', 'data-source');
  const value = await page.getAttribute('[data-testid=gh-verdict]', 'data-value');
  const verdict = await page.textContent('[data-testid=gh-verdict]');
  if (source !== 'endgame table' || !['win', 'draw', 'loss'].includes(value) || !/^Exact: White to move (wins|draws|loses) with best play/.test(verdict)) fail(`the small start reads "${verdict}" (${source}, ${value})`);
  const moves = await page.$$eval('[data-testid=gh-move]', l => l.map(r => r.getAttribute('data-value')));
  if (!moves.length || moves[0] !== value) fail(`the moves' values read [${moves}], the position ${value}`);
  await shot(page, 'study-grasshopper');
  // four checkers each: beyond the table, the search answers with its move
  await page.fill('[data-testid=study-position]', '....../....../....../...... w 4-4 0-0 - 4');
  await page.click('[data-testid=study-evaluate]');
  clicks++;
  await page.waitForFunction(() => { const v = document.querySelector('[data-testid=gh-verdict]'); return v && v.getAttribute('data-source') !== 'endgame table'; }, null, { timeout: 30000, polling: 100 });
  const searched = await page.textContent('[data-testid=gh-verdict]');
  if (!/(Not solved here|Proven by the search)/.test(searched) || !/move: /.test(searched)) fail(`four checkers each read "${searched}"`);
  checkErrors(page, 'variant study');
  // replays of scenario 1's games: their positions open on the analysis board
  if (finished.grasshopper && finished['never-finishing']) {
    await page.goto(`${BASE}/replay/${finished.grasshopper}`);
    await page.click('[data-testid=replay-first]');
    await page.click('[data-testid=replay-next]');
    await page.click('[data-testid=replay-next]');
    clicks += 3;
    const link = await page.getAttribute('[data-testid=position-ids] [data-testid=open-study]', 'href');
    const text = (await page.textContent('[data-testid=position-ids] [data-testid=ids-position]')).trim();
    const url = new URL(link, BASE);
    if (url.searchParams.get('game') !== 'grasshopper' || url.searchParams.get('position') !== text) fail(`a Grasshopper step links to ${link} for "${text}"`);
    await page.click('[data-testid=gh-evaluate]');
    clicks++;
    const said = await (await page.waitForSelector('[data-testid=position-ids] [data-testid=gh-verdict]', { timeout: 30000 })).textContent();
    if (!/move/.test(said)) fail(`a Grasshopper step is evaluated as "${said}"`);
    await page.goto(`${BASE}/replay/${finished['never-finishing']}`);
    await page.click('[data-testid=replay-first]');
    await page.click('[data-testid=replay-next]');
    clicks += 2;
    const nfLink = await page.getAttribute('[data-testid=position-ids] [data-testid=open-study]', 'href');
    if (new URL(nfLink, BASE).searchParams.get('game') !== 'never-finishing') fail(`a Never-Finishing step links to ${nfLink}`);
    // the Never-Finishing game analysed on its replay: every play judged, the marks shown
    await page.click('[data-testid=analyse]');
    clicks++;
    await page.waitForSelector('[data-testid=analysis-players], [data-testid=analysis-failed]', { timeout: 120000 });
    if (await page.$('[data-testid=analysis-failed]')) fail(`the Never-Finishing analysis failed: ${await page.textContent('[data-testid=analysis-failed]')}`);
    const nfReport = (await page.evaluate(async id => (await fetch(`/api/games/${id}/analysis`)).json(), finished['never-finishing'])).report;
    const nfMarked = nfReport.decisions.filter(d => d.mark).length;
    const nfShown = await page.$$eval('[data-testid=replay-moves] [data-testid=analysis-mark]', l => l.length);
    if (!nfReport.decisions.length || nfReport.decisions.some(d => d.kind !== 'move') || nfShown !== nfMarked) fail(`the Never-Finishing report has ${nfReport.decisions.length} decisions, ${nfMarked} marked; the page marks ${nfShown}`);
    notable[`nf analysis: ${nfReport.decisions.length} plays, ${nfMarked} marked`] = 1;
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'analysis-nf');
    await page.click('[data-testid=position-ids] [data-testid=open-study]');
    clicks++;
    await page.waitForSelector('[data-testid=study-chances], [data-testid=hint-moves], [data-testid=study-error]', { timeout: 20000 });
    if (await page.$('[data-testid=study-error]')) fail(`the replay's position is refused: ${await page.textContent('[data-testid=study-error]')}`);
    checkErrors(page, 'variant replays');
  } else notable['replays skipped: scenario 1 did not run'] = 1;
  await page.close();
});

// ---- scenario 10: the lobby in words, and no stray text for visitors ----------------------

await scenario('10: open seats show their options in words (and practice games say unrated); a visitor sees no stray "null" and no 401; the phone header keeps one line', async () => {
  const visitor = await newPage();
  const refused = [];
  visitor.on('console', m => { if (m.type() === 'error') refused.push(m.text()); });
  visitor.on('response', r => { if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`); });
  for (const path of ['/', '/login']) {
    await visitor.goto(`${BASE}${path}`);
    await visitor.waitForSelector('[data-testid=guest-form]');
    // a_visitor_is_asked_to_log_in_before_the_form (issue 30): no form to fill in first
    if (path === '/' && (await visitor.$('[data-testid=create-form]') || await visitor.$('[data-testid=quick-start]'))) fail('a visitor is shown the New game form before logging in');
    await visitor.waitForTimeout(300);
    const text = await visitor.textContent('main');
    if (/\bnull\b/.test(text)) fail(`the visitor's ${path} shows "null": ${text.slice(0, 200)}`);
  }
  if (refused.length) fail(`a visitor's pages logged errors: ${refused.join(' | ')}`);
  await visitor.context().close();
  // the header keeps one line, and its height, on a phone before and after logging in
  const phone = await newPage({ width: 390, height: 800 });
  await phone.goto(`${BASE}/`);
  await phone.waitForSelector('[data-testid=guest-form]');
  const headerHeight = () => phone.$eval('header.top', e => e.getBoundingClientRect().height);
  const before = await headerHeight();
  await guest(phone, 'a-rather-long-guest-name');
  await phone.goto(`${BASE}/`);
  await phone.waitForSelector('[data-testid=nav-me]', { state: 'attached' });
  const after = await headerHeight();
  if (Math.abs(after - before) > 1 || after > 60) fail(`the phone header is ${before.toFixed(0)} px as a visitor and ${after.toFixed(0)} px logged in`);
  // the_phone_header_folds_into_a_menu (issue 30): the links behind Menu, each 44 px high
  if (await phone.isVisible('[data-testid=nav-stats]')) fail('the phone header shows its links without the menu');
  await phone.click('[data-testid=menu-toggle]');
  if (await phone.getAttribute('[data-testid=menu-toggle]', 'aria-expanded') !== 'true') fail('Menu does not say it is open');
  const links = await phone.$$eval('header.top nav a, header.top nav button', l => l.map(e => ({ t: e.textContent.trim(), h: e.getBoundingClientRect().height, w: e.getBoundingClientRect().width })));
  const small = links.filter(l => l.h < 44 || l.w < 100);
  if (links.length < 6 || small.length) fail(`the phone menu's links: ${JSON.stringify(links)}`);
  await shot(phone, 'phone-menu');
  await phone.click('[data-testid=nav-stats]');
  await phone.waitForURL(/\/stats$/);
  if (await phone.isVisible('[data-testid=nav-lobby]')) fail('the menu stayed open after following a link');
  checkErrors(phone, 'phone header');
  await phone.context().close();
  const page = await newPage();
  await guest(page, 'lister');
  const open = await page.evaluate(async () => {
    const post = async body => (await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    const a = await post({ options: { game: 'backgammon', match_length: 5 }, opponent: { kind: 'open' } });
    const b = await post({ options: { game: 'halma-grasshopper', size: 10 }, opponent: { kind: 'open' }, unrated: true });
    return [a.id, b.id];
  });
  const other = await newPage();
  await guest(other, 'browser');
  await other.goto(`${BASE}/`);
  const describe = async id => {
    const el = await other.waitForSelector(`[data-testid=open-games] [data-game-id="${id}"] [data-testid=game-description]`, { timeout: STEP_LIMIT_MS });
    return (await el.textContent()).trim();
  };
  const a = await describe(open[0]);
  if (a !== '(5-point match, unrated)' && a !== '(5-point match)') fail(`the backgammon seat reads "${a}"`);
  const b = await describe(open[1]);
  if (b !== '(10×10 board, evacuation after move 50, unrated)') fail(`the practice Halma seat reads "${b}"`);
  checkErrors(other, 'lobby');
  await page.context().close();
  await other.context().close();
});

// ---- scenario 19: the lobby and the waiting page are live, without polling ---------------

await scenario('19: the lobby shows a new open seat, and the waiting creator sees the opponent join, pushed over WebSockets with no polling', async () => {
  const watcher = await newPage();
  await guest(watcher, 'lobby-watcher');
  const polls = [];
  watcher.on('request', r => {
    const u = new URL(r.url());
    if (u.pathname === '/api/lobby' || /^\/api\/games\/[0-9a-f]{18}$/.test(u.pathname)) polls.push(u.pathname);
  });
  await watcher.goto(`${BASE}/`);
  await watcher.waitForSelector('.lists[data-live="1"]', { timeout: STEP_LIMIT_MS });
  const startPolls = polls.length;
  // Another guest opens a seat: it appears in the watcher's lobby without a reload.
  const host = await newPage();
  await guest(host, 'lobby-host');
  const id = await host.evaluate(async () => {
    const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ options: { game: 'grasshopper', checkers: 4 }, opponent: { kind: 'open' }, client_seed: 'host' }) });
    return (await r.json()).id;
  });
  await watcher.waitForSelector(`[data-testid=open-games] [data-game-id="${id}"]`, { timeout: STEP_LIMIT_MS });
  // Six quiet seconds: a polling lobby would have asked again (it used to every 5 s).
  await watcher.waitForTimeout(6000);
  const lobbyPolls = polls.slice(startPolls).filter(p => p === '/api/lobby');
  if (lobbyPolls.length) fail(`the lobby asked the server ${lobbyPolls.length} time(s) instead of listening`);
  // The host waits on the game page; the watcher joins from the lobby.
  const hostPolls = [];
  host.on('request', r => { if (new URL(r.url()).pathname === `/api/games/${id}`) hostPolls.push(Date.now()); });
  await host.goto(`${BASE}/game/${id}`);
  await host.waitForSelector('[data-testid=board]');
  await host.waitForTimeout(4000);
  const waitingPolls = hostPolls.length;
  if (waitingPolls > 1) fail(`the waiting page asked for the game ${waitingPolls} times in 4 s (polling)`);
  await watcher.click(`[data-testid=join-${id}]`);
  await watcher.waitForURL(`**/game/${id}`);
  // The host's page learns of the join over its WebSocket and names the opponent.
  await host.waitForFunction(() => document.body.textContent.includes('lobby-watcher'), null, { timeout: STEP_LIMIT_MS });
  // The game has left the open seats and joined the games in progress, live.
  const other = await newPage();
  await other.goto(`${BASE}/`);
  await other.waitForSelector('.lists[data-live="1"]', { timeout: STEP_LIMIT_MS });
  await other.waitForSelector(`[data-testid=playing-games] [data-game-id="${id}"]`, { timeout: STEP_LIMIT_MS });
  if (await other.$(`[data-testid=open-games] [data-game-id="${id}"]`)) fail('the taken seat is still listed as open');
  for (const [p, who] of [[watcher, 'watcher'], [host, 'host'], [other, 'visitor']]) { checkErrors(p, who); await p.context().close(); }
  notable['lobby pushes'] = 1;
});

// ---- scenario 14: the opponent's moves are animated -----------------------------------------

/** A page in a fresh context with the given reduced-motion setting; it records every animation
 * frame the board shows (window.__frames: {version, step, kind, moved}) from the first script on. */
async function animatedPage(reducedMotion) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 820 }, reducedMotion });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', e => page.errors.push(e.message));
  page.setDefaultTimeout(10000);
  await page.addInitScript(sideScript);
  await page.addInitScript(() => {
    window.__frames = [];
    const seen = new WeakSet();
    const look = () => {
      const b = document.querySelector('[data-testid=board][data-animating]');
      if (!b || seen.has(b)) return;
      seen.add(b);
      const ghost = b.querySelector('[data-testid=anim-checker]');
      const f = { version: Number(b.getAttribute('data-animated-version')), step: b.getAttribute('data-animation-step'),
        kind: b.getAttribute('data-animation-kind'), colour: ghost && /\bblack\b/.test(ghost.getAttribute('class')) ? 'black' : 'white', moved: false };
      window.__frames.push(f);
      if (ghost) {
        const x0 = ghost.getAttribute('cx'), y0 = ghost.getAttribute('cy');
        new MutationObserver(() => { if (ghost.getAttribute('cx') !== x0 || ghost.getAttribute('cy') !== y0) f.moved = true; })
          .observe(ghost, { attributes: true, attributeFilter: ['cx', 'cy'] });
      }
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-animating'] });
  });
  return page;
}

/** In the page: how far (px) the centre of White's point `w` is right of the board's centre. */
const sideScript = () => {
  window.pointSide = w => {
    const b = document.querySelector('[data-testid=board]');
    const p = b.querySelector(`[data-testid=point-${w}]`).getBoundingClientRect(), r = b.getBoundingClientRect();
    return p.x + p.width / 2 - (r.x + r.width / 2);
  };
};

/** The number of checkers each point shows (from the points' labels), White's numbering. */
const shownPoints = page => page.$$eval('[data-testid=board] [data-testid^=point-]', l => Object.fromEntries(l.map(e => {
  const m = /: (\d+) (white|black)/.exec(e.getAttribute('aria-label') || '');
  return [e.getAttribute('data-testid').slice(6), m ? (m[2] === 'white' ? 1 : -1) * Number(m[1]) : 0];
})));

/** Single checker steps a play makes at least (`13/7(2)` two, `24/18*\/13` two). */
function leastSteps(play) {
  let n = 0;
  for (const tok of play.split(/\s+/).filter(Boolean)) {
    const m = /^(.*?)(?:\((\d)\))?$/.exec(tok);
    n += (m[1].split('/').length - 1) * (m[2] ? Number(m[2]) : 1);
  }
  return n;
}

await scenario('14: the bot\'s moves are animated checker by checker (hits included) before the new position is drawn; with reduced motion nothing is animated', async () => {
  const page = await animatedPage('no-preference');
  await guest(page, 'watcher14');
  const id = await createGame(page, { game: 'backgammon', matchLength: 1, opponent: 'bot', level: 'easy', color: 'white' });
  if (await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)) fail('reduced motion is on in the animated context');
  // the default orientation: home board on the right, so White's point 1 is right of the centre
  const side = async () => page.evaluate(() => pointSide(1));
  if (await page.getAttribute('[data-testid=board]', 'data-orientation') !== 'home-right' || !(await side() > 0)) fail('by default the home board is not on the right');
  const botPlays = async () => (await page.evaluate(async id => (await fetch(`/api/games/${id}/events`)).json(), id))
    .filter(e => e.kind === 'action' && e.actor === 'black' && e.payload.includes('/'));
  const policy = { game: 'backgammon', color: 'white' };
  let last = Date.now(), over = null;
  for (;;) {
    if ((await botPlays()).length >= 4) break;
    const r = await step(page, policy);
    if (r && r.over) { over = r.over; break; }
    if (r) last = Date.now();
    else {
      if (Date.now() - last > STEP_LIMIT_MS) fail('no progress in the game');
      await page.waitForTimeout(40);
    }
    checkErrors(page, 'animation');
  }
  // the last animation runs to its end, then the board is the server's position
  await page.waitForFunction(() => !document.querySelector('[data-testid=board][data-animating]'), null, { timeout: STEP_LIMIT_MS })
    .catch(() => fail('the board is still animating long after the last move'));
  const plays = await botPlays();
  if (!plays.length) fail(`the bot made no play before the end (${over})`);
  const frames = await page.evaluate(() => window.__frames);
  const count = Number(await page.getAttribute('[data-testid=board]', 'data-animations'));
  if (count !== plays.length) fail(`${plays.length} plays by the bot, ${count} animated (data-animations)`);
  for (const p of plays) {
    const mine = frames.filter(f => f.version === p.version);
    if (!mine.length) fail(`the bot's play ${p.payload} (version ${p.version}) was not animated`);
    const total = Number(mine[0].step.split('/')[1]);
    const steps = [...new Set(mine.map(f => f.step))];
    if (steps.length !== total) fail(`the play ${p.payload} showed frames [${steps}] of ${total}`);
    const moves = mine.filter(f => f.kind === 'move'), hits = mine.filter(f => f.kind === 'hit');
    if (moves.length < leastSteps(p.payload)) fail(`the play ${p.payload} was shown in ${moves.length} checker steps`);
    if (moves.some(f => f.colour !== 'black') || hits.some(f => f.colour !== 'white')) fail(`the play ${p.payload} moved the wrong checkers`);
    if (p.payload.includes('*') !== hits.length > 0) fail(`the play ${p.payload} was shown with ${hits.length} hit(s)`);
    if (hits.length) notable['hit animated'] = 1;
  }
  if (!frames.some(f => f.moved)) fail('no animated checker ever moved');
  notable[`${plays.length} plays, ${frames.length} frames`] = 1;
  const g = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  if (await page.getAttribute('[data-testid=board]', 'data-version') !== String(g.version)) fail('the board does not show the last version');
  const shown = await shownPoints(page);
  for (let w = 1; w <= 24; w++) {
    if (g.view.game !== 'backgammon' || g.state !== 'playing') break;
    if (shown[w] !== g.view.board.points[w - 1]) fail(`after the animation point ${w} shows ${shown[w]}, the server has ${g.view.board.points[w - 1]}`);
  }
  checkErrors(page, 'animation');
  await page.context().close();

  // Halma: a bot's move glides along its path, and the pieces end where the server has them
  const halma = await animatedPage('no-preference');
  await guest(halma, 'hopper14');
  const hid = await createGame(halma, { game: 'halma-grasshopper', size: 8, opponent: 'bot', level: 'random', color: 'white' });
  for (let k = 0; k < 2; k++) {
    await halma.waitForSelector('[data-testid=board] [data-source]', { timeout: STEP_LIMIT_MS });
    const v0 = Number(await halma.getAttribute('[data-testid=board]', 'data-version'));
    const s = await snapshot(halma);
    await halma.click(`[data-testid="${halmaBest(s.sources, 'white')}"]`);
    const d = await snapshot(halma);
    if (!d.dests.length) fail('a selected Halma piece has no destination');
    await halma.click(`[data-testid="${halmaBest(d.dests, 'white')}"]`);
    clicks += 2;
    // Our move is on the board before we look for the next one (the old pieces stay drawn
    // while it is sent).
    await halma.waitForFunction(v => Number(document.querySelector('[data-testid=board]').getAttribute('data-version')) > v, v0, { timeout: STEP_LIMIT_MS })
      .catch(() => fail('our Halma move never reached the board'));
  }
  await halma.waitForFunction(() => Number(document.querySelector('[data-testid=board]').getAttribute('data-animations')) >= 1 &&
    !document.querySelector('[data-testid=board][data-animating]'), null, { timeout: STEP_LIMIT_MS })
    .catch(() => fail('no Halma move of the bot was animated'));
  await halma.waitForSelector('[data-testid=board] [data-source]', { timeout: STEP_LIMIT_MS });
  const hg = await halma.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), hid);
  const pieces = await halma.$$eval('[data-testid=board] [data-testid^=sq-]', l => l.filter(e => /: (white|black) piece/.test(e.getAttribute('aria-label'))).map(e => e.getAttribute('data-testid').slice(3)).sort());
  const want = [...hg.view.pieces.white, ...hg.view.pieces.black].sort();
  if (pieces.join() !== want.join()) fail(`the Halma board shows pieces on [${pieces}], the server has [${want}]`);
  if (!(await halma.evaluate(() => window.__frames.some(f => f.moved && f.colour === 'black')))) fail('no black Halma piece was seen moving');
  checkErrors(halma, 'halma animation');
  await halma.context().close();

  // reduced motion: the same moves, drawn at once
  const still = await animatedPage('reduce');
  await guest(still, 'still14');
  const sid = await createGame(still, { game: 'backgammon', matchLength: 1, opponent: 'bot', level: 'easy', color: 'white' });
  if (!(await still.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches))) fail('reduced motion is not emulated');
  const stillPlays = async () => (await still.evaluate(async id => (await fetch(`/api/games/${id}/events`)).json(), sid))
    .filter(e => e.kind === 'action' && e.actor === 'black' && e.payload.includes('/')).length;
  last = Date.now();
  for (;;) {
    if (await stillPlays() >= 2) break;
    const r = await step(still, policy);
    if (r && r.over) break;
    if (r) last = Date.now();
    else {
      if (Date.now() - last > STEP_LIMIT_MS) fail('no progress in the reduced-motion game');
      await still.waitForTimeout(40);
    }
  }
  await still.waitForTimeout(500);
  const n = await stillPlays();
  if (!n) fail('the bot made no play in the reduced-motion game');
  const stillFrames = await still.evaluate(() => window.__frames.length);
  const stillCount = await still.getAttribute('[data-testid=board]', 'data-animations');
  if (stillFrames || stillCount !== '0') fail(`with reduced motion ${stillFrames} frames were animated (data-animations ${stillCount}) for ${n} plays`);
  // the bot's last move is still shown, as arrows
  if (!(await still.$('[data-testid=board] [data-testid=last-move] line'))) fail('with reduced motion the bot\'s move is not drawn');
  notable[`reduced motion: ${n} plays, 0 frames`] = 1;
  checkErrors(still, 'reduced motion');
  await still.context().close();
});

// ---- scenario 15: preferences -------------------------------------------------------------

/** The /preferences form's values. */
const prefValues = page => page.evaluate(() => {
  const q = id => document.querySelector(`[data-testid=${id}]`);
  return { auto_roll: q('pref-auto-roll').checked, auto_confirm: q('pref-auto-confirm').checked, auto_pass: q('pref-auto-pass').checked,
    animation: q('pref-animation').value, orientation: q('pref-orientation').value, colours: q('pref-colours').value };
});

async function setPrefs(page, p) {
  await page.click('[data-testid=nav-preferences]');
  await page.waitForURL(/\/preferences$/);
  await page.waitForSelector('[data-testid=pref-form]');
  for (const k of ['auto_roll', 'auto_confirm', 'auto_pass']) {
    if (k in p) await page.setChecked(`[data-testid=pref-${k.replace('_', '-')}]`, p[k]);
  }
  for (const k of ['animation', 'orientation', 'colours']) if (k in p) await page.selectOption(`[data-testid=pref-${k}]`, p[k]);
  await page.click('[data-testid=pref-save]');
  clicks++;
  return (await page.waitForSelector('[data-testid=pref-message][data-where]')).getAttribute('data-where');
}

async function expectPrefs(page, want, what) {
  await page.waitForSelector('[data-testid=pref-form]');
  const got = await prefValues(page);
  for (const [k, v] of Object.entries(want)) if (got[k] !== v) fail(`${what}: ${k} is ${got[k]}, not ${v}`);
}

await scenario('15: preferences (auto-roll, auto-confirm, orientation, colours) are kept, for a guest in the browser and for a user on the server, and change the game', async () => {
  const page = await newPage();
  await page.addInitScript(sideScript);
  await guest(page, 'prefs15');
  await page.goto(`${BASE}/preferences`);
  await expectPrefs(page, { auto_roll: false, auto_confirm: false, auto_pass: false, orientation: 'home-right', colours: 'classic' }, 'the defaults');
  const chosen = { auto_roll: true, auto_confirm: true, orientation: 'home-left', colours: 'contrast' };
  await setPrefs(page, chosen);
  await page.reload();
  await expectPrefs(page, chosen, 'a guest\'s preferences after a reload');
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('tabula.preferences')));
  if (!stored || stored.orientation !== 'home-left' || stored.colours !== 'contrast') fail(`localStorage holds ${JSON.stringify(stored)}`);
  // a game against the bot: the colours, the mirrored board, and rolls without a Roll click
  const id = await createGame(page, { game: 'backgammon', matchLength: 1, opponent: 'bot', level: 'easy', color: 'white' });
  if (await page.evaluate(() => document.documentElement.getAttribute('data-colours')) !== 'contrast') fail('the page does not use the contrast colours');
  const felt = await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid=board] .felt')).fill);
  if (felt !== 'rgb(42, 42, 42)') fail(`the contrast theme's felt is ${felt}`);
  const side = await page.evaluate(() => pointSide(1));
  if (await page.getAttribute('[data-testid=board]', 'data-orientation') !== 'home-left' || !(side < -100)) fail(`with the home board on the left, White's point 1 is ${side.toFixed(0)} px from the centre`);
  const ourTurns = async () => (await page.evaluate(async id => (await fetch(`/api/games/${id}/events`)).json(), id))
    .filter(e => e.kind === 'action' && e.actor === 'white').length;
  let rollSince = null, last = Date.now(), over = null;
  while (await ourTurns() < 3) {
    const s = await snapshot(page);
    if (s.error) fail(`the page shows an error: ${s.status}`);
    if (s.over) { over = s.over; break; }
    const has = b => s.buttons.includes(b);
    if (has('roll') && !has('double')) {
      rollSince = rollSince || Date.now();
      if (Date.now() - rollSince > 3000) fail(`a Roll button waits for a click: "${s.status}"`);
    } else rollSince = null;
    let did = null;
    if (has('confirm')) did = 'confirm';
    else if (has('roll') && has('double')) did = 'roll'; // a cube decision is the player's
    else if (s.dests.length) did = pick(s.dests);
    else if (s.sources.length) did = pick(s.sources);
    if (did) {
      await page.click(`[data-testid="${did}"]`, { timeout: 5000 }).catch(() => {}); // the page may move on meanwhile
      clicks++;
      if (did === 'roll') notable['roll clicked at a cube decision'] = 1;
      last = Date.now();
    } else {
      if (Date.now() - last > STEP_LIMIT_MS) fail(`no progress: "${s.status}" [${s.buttons}]`);
      await page.waitForTimeout(40);
    }
    checkErrors(page, 'auto-roll');
  }
  const events = await page.evaluate(async id => (await fetch(`/api/games/${id}/events`)).json(), id);
  const rolls = events.filter(e => e.kind === 'roll').length;
  const plays = events.filter(e => e.kind === 'action' && e.actor === 'white' && e.payload.includes('/')).length;
  if (!over && plays < 2) fail(`only ${plays} plays of ours`);
  if (rolls < 3) fail(`only ${rolls} rolls`);
  notable[`${plays} plays, ${rolls} rolls, no Roll click`] = 1;
  await page.context().close();

  // a registered user: the preferences live on the server (this browser's copy is wiped)
  const user = await newPage();
  await user.addInitScript(sideScript);
  const name = 'pref' + Math.floor(Math.random() * 1e6);
  await user.goto(`${BASE}/login`);
  await user.fill('[data-testid=register-form] [data-testid=register-username]', name);
  await user.fill('[data-testid=register-form] [data-testid=register-password]', 'secret-' + name);
  await user.click('[data-testid=register-form] [data-testid=register-submit]');
  await user.waitForSelector('[data-testid=nav-me]');
  const mine = { auto_roll: true, auto_confirm: true, auto_pass: true, animation: 'slow', orientation: 'home-left', colours: 'contrast' };
  const where = await setPrefs(user, mine);
  const api = await user.evaluate(async () => { const r = await fetch('/api/me/preferences'); return { status: r.status, body: r.ok ? await r.json() : null }; });
  if (where !== 'server' || api.status !== 200) fail(`the server did not store the preferences (saved in the ${where}; GET /api/me/preferences answered ${api.status})`);
  for (const [k, v] of Object.entries(mine)) if (api.body[k] !== v) fail(`the server holds ${k} = ${api.body[k]}, not ${v}`);
  await user.evaluate(() => localStorage.clear());
  await user.reload();
  await expectPrefs(user, mine, 'a user\'s preferences after a reload with the browser\'s copy wiped');
  await user.evaluate(() => localStorage.clear());
  await createGame(user, { game: 'backgammon', matchLength: 1, opponent: 'bot', level: 'easy', color: 'black' });
  if (await user.getAttribute('[data-testid=board]', 'data-orientation') !== 'home-left') fail('the user\'s game board is not mirrored');
  // Black at the bottom: Black's point 1 is White's 24, on the left
  const x24 = await user.evaluate(() => pointSide(24));
  if (!(x24 < -100)) fail(`playing Black with the home board on the left, Black's point 1 is ${x24.toFixed(0)} px from the centre`);
  checkErrors(user, 'user preferences');
  await user.context().close();
});

// ---- scenario 11: the rules pages, and the rule behind each ending -------------------------

/** Every end code a client can meet (docs/protocol.md, "The end of a game"). */
const END_CODES = ['single', 'gammon', 'backgammon', 'jacoby-single', 'cube-dropped', 'resigned-single', 'resigned-gammon',
  'resigned-backgammon', 'dead-position', 'scored-twice', 'both-passed', 'no-checkers-left', 'all-in-camp', 'not-evacuated',
  'returned-to-camp', 'repetition', 'ply-limit', 'agreement', 'match-won', 'session-complete', 'time-out', 'resigned', 'abandoned', 'aborted'];

/** A game of Grasshopper with 2 checkers each against the easy bot, played to its end; its id. */
async function quickFinishedGame(page) {
  const id = await createGame(page, { game: 'grasshopper', checkers: 2, opponent: 'bot', level: 'easy', color: 'white' });
  await playToEnd(page, { game: 'grasshopper', color: 'white' });
  return id;
}

/** Follows a result's rule link on `page` and checks that the rule is shown, marked and in view. */
async function followRuleLink(page, selector, game, code) {
  const href = await page.getAttribute(selector, 'href');
  if (href !== `/rules/${game}#${code}`) fail(`the ${game} result (${code}) links to ${href}, not /rules/${game}#${code}`);
  await page.click(selector);
  clicks++;
  await page.waitForURL(u => new URL(u).pathname === `/rules/${game}` && new URL(u).hash === `#${code}`);
  const rule = await page.waitForSelector(`[data-testid=rules-page][data-game="${game}"] [id="${code}"]`);
  if (!(await rule.evaluate(e => e.classList.contains('is-target')))) fail(`the rule #${code} is not marked as the one asked for`);
  const box = await rule.boundingBox();
  const vh = page.viewportSize().height;
  if (!box || box.y + box.height < 0 || box.y > vh) fail(`the rule #${code} is not in view (${JSON.stringify(box)})`);
  const text = (await rule.textContent()).trim();
  if (text.length < 20) fail(`the rule #${code} says only "${text}"`);
}

let rulesGame = null; // a finished game of scenario 11, for 13's replay page
await scenario('11: the rules pages open from the lobby, the header and the game page; each end sentence links to the rule that decided it', async () => {
  const page = await newPage();
  await guest(page, 'reader');
  await page.goto(`${BASE}/`);
  await page.waitForSelector('[data-testid=create-form]');
  // the lobby links the rules of the game chosen
  for (const g of ['never-finishing', 'halma-grasshopper', 'grasshopper']) {
    await page.selectOption('[data-testid=opt-game]', g);
    const href = await page.getAttribute('[data-testid=create-form] [data-testid=rules-link]', 'href');
    if (href !== `/rules/${g}`) fail(`with ${g} chosen the lobby's rules link goes to ${href}`);
  }
  await page.click('[data-testid=create-form] [data-testid=rules-link]');
  clicks++;
  await page.waitForURL(/\/rules\/grasshopper$/);
  await page.waitForSelector('[data-testid=rules-page][data-game=grasshopper] h1:has-text("Grasshopper")');
  // every ending has its rule under its own id on the pages js/rules.js names, and every page
  // has the clock
  const problems = await page.evaluate(async codes => {
    const { END_RULES, RULE_GAMES } = await import('/js/rules.js');
    const out = [];
    const mapped = Object.keys(END_RULES).sort().join(' ');
    if (mapped !== [...codes].sort().join(' ')) out.push(`js/rules.js maps [${mapped}]`);
    for (const g of RULE_GAMES) {
      const r = await fetch(`/rules/${g}.html`);
      if (!r.ok) { out.push(`/rules/${g}.html: ${r.status}`); continue; }
      const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
      for (const [code, games] of Object.entries(END_RULES)) {
        const el = doc.getElementById(code);
        if (games.includes(g) && !(el && el.classList.contains('end-rule'))) out.push(`${g} has no rule #${code}`);
      }
      for (const id of ['clocks', 'time-out', 'ending']) if (!doc.getElementById(id)) out.push(`${g} has no #${id}`);
      if (doc.querySelector('script, style, [style]')) out.push(`${g} has a script or a style`);
    }
    return out;
  }, END_CODES);
  if (problems.length) fail(problems.join('; '));
  // the header's Rules: the four games, each page with its title and clock
  await page.click('[data-testid=nav-rules]');
  clicks++;
  await page.waitForSelector('[data-testid=rules-index]');
  for (const [g, title] of [['backgammon', 'Backgammon'], ['never-finishing', 'Never-Finishing'], ['grasshopper', 'Grasshopper'], ['halma-grasshopper', 'Grasshopper (Halma)']]) {
    await page.click(`[data-testid=rules-${g}]`);
    clicks++;
    await page.waitForSelector(`[data-testid=rules-page][data-game="${g}"]`);
    const h1 = (await page.textContent('[data-testid=rules-page] h1')).trim();
    if (h1 !== title) fail(`/rules/${g} is headed "${h1}"`);
    if (!(await page.isVisible('#clocks h2'))) fail(`/rules/${g} shows no Clocks section`);
    await page.goBack();
    await page.waitForSelector('[data-testid=rules-index]');
  }
  // an anchor inside a rules page moves to its rule without reloading the page
  await page.goto(`${BASE}/rules/backgammon`);
  await page.waitForSelector('[data-testid=rules-page]');
  await page.evaluate(() => { window.__sameRules = document.querySelector('[data-testid=rules-page]'); });
  await page.click('[data-testid=rules-page] a[href="#cube-dropped"]');
  await page.waitForFunction(() => document.getElementById('cube-dropped').classList.contains('is-target'));
  if (!(await page.evaluate(() => window.__sameRules === document.querySelector('[data-testid=rules-page]')))) fail('an anchor link redrew the rules page');
  checkErrors(page, 'rules');
  // the game page: "Rules" opens that game's rules in a new tab, the game staying open
  const id = await createGame(page, { game: 'grasshopper', checkers: 2, opponent: 'bot', level: 'easy', color: 'white' });
  const [tab] = await Promise.all([page.context().waitForEvent('page'), page.click('.game-head [data-testid=rules-link]')]);
  clicks++;
  await tab.waitForSelector('[data-testid=rules-page][data-game=grasshopper]');
  await tab.close();
  if (!page.url().endsWith(`/game/${id}`)) fail('the game page was left for the rules');
  // to the end: the sentence links to the rule that decided it
  await playToEnd(page, { game: 'grasshopper', color: 'white' });
  rulesGame = id;
  const result = (await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id)).view.result;
  notable[`grasshopper ${result.code}`] = 1;
  await followRuleLink(page, '[data-testid=game-over] [data-testid=end-rule-link]', 'grasshopper', result.code);
  // the replay page links it too
  await page.goto(`${BASE}/replay/${id}`);
  await page.waitForSelector('[data-testid=replay-slider]');
  const replayLink = await page.getAttribute('[data-testid=end-rule-link]', 'href');
  if (replayLink !== `/rules/grasshopper#${result.code}`) fail(`the replay page links the result to ${replayLink}`);
  // the games of scenario 1 (when it ran): each result links to its own rule
  for (const [game, gid] of Object.entries(finished)) {
    await page.goto(`${BASE}/game/${gid}`);
    await page.waitForSelector('[data-testid=game-over]');
    const r = (await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), gid)).view.result;
    await followRuleLink(page, '[data-testid=game-over] [data-testid=end-rule-link]', game, r.code);
    notable[`${game} ${r.code}`] = 1;
  }
  checkErrors(page, 'rules');
  await page.context().close();
});

// ---- scenario 12: a phone: tap targets, labels, the keyboard, Describe board -----------------

/** Presses Tab (or Shift+Tab) until the focused element passes `test`; fails after `max`. */
async function tabTo(page, test, what, { max = 120, back = false } = {}) {
  for (let i = 0; i <= max; i++) {
    if (await page.evaluate(test)) return i;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  fail(`${max} presses of ${back ? 'Shift+' : ''}Tab never reached ${what}`);
}
const focusedIs = testid => new Function(`const e = document.activeElement; return !!e && e.getAttribute('data-testid') === ${JSON.stringify(testid)} && !e.disabled;`);
const focusedHas = attr => new Function(`const e = document.activeElement; return !!e && e.hasAttribute(${JSON.stringify(attr)});`);

/** Sizes on screen: each board target's height and width, the labels' font size in px. */
function measureBoard(page, selector) {
  return page.evaluate(sel => {
    const svg = document.querySelector('[data-testid=board]');
    const scale = svg.getScreenCTM().a;
    const targets = [...svg.querySelectorAll(sel)].map(e => {
      const r = e.getBoundingClientRect();
      return { id: e.getAttribute('data-testid'), h: r.height, w: r.width };
    });
    const fonts = [...svg.querySelectorAll('text.label')].filter(t => !t.classList.contains('side'))
      .map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
    return { scale, targets, minFont: Math.min(...fonts), labels: fonts.length, overflow: document.scrollingElement.scrollWidth - window.innerWidth };
  }, selector);
}

/** The header keeps one line: every link at the same height, the bar no taller than one line. */
async function headerOneLine(page) {
  const r = await page.evaluate(() => {
    const header = document.querySelector('header.top').getBoundingClientRect();
    // what is shown: on a phone the links are folded behind the Menu button
    const tops = [...document.querySelectorAll('header.top a, header.top button')].filter(e => e.getBoundingClientRect().width > 0).map(e => Math.round(e.getBoundingClientRect().top));
    return { height: header.height, spread: Math.max(...tops) - Math.min(...tops) };
  });
  if (r.height > 60 || r.spread > 8) fail(`the phone header takes more than one line: ${JSON.stringify(r)}`);
}

await scenario('12: on a 390x844 phone the board\'s points, squares and dice are tap targets at least 28 px wide and 40 px high (Halma squares 28 px), labels 10 px or more, the clock on one line; a move is played with the keyboard only; Describe board reads the position', async () => {
  const page = await newPage({ width: 390, height: 844 });
  await guest(page, 'thumb');
  const id = await createGame(page, { game: 'backgammon', matchLength: 3, opponent: 'bot', level: 'easy', color: 'white' });
  await headerOneLine(page);
  const view = async () => (await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id));
  // From here on, only the keyboard, until our first move is made and sent.
  let presses = 0, moved = false, shotTaken = false, measured = false, last = Date.now();
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  while (!moved) {
    if (Date.now() - last > STEP_LIMIT_MS) fail('no keyboard move within the time limit');
    const s = await snapshot(page);
    if (s.over) fail(`the game ended before a keyboard move: ${s.over}`);
    if (s.buttons.includes('confirm')) {
      presses += await tabTo(page, focusedIs('confirm'), 'Confirm');
      const before = (await view()).version;
      await page.keyboard.press('Enter');
      presses++;
      await page.waitForFunction(v => Number(document.querySelector('[data-testid=board]').getAttribute('data-version')) > v, before, { timeout: STEP_LIMIT_MS });
      const log = (await page.evaluate(async id => (await fetch(`/api/games/${id}/record`)).json(), id)).steps.map(st => st.event);
      if (!log.some(e => e.kind === 'action' && e.actor === 'white' && e.payload.includes('/'))) fail('Enter on Confirm sent no move');
      moved = true;
      break;
    }
    if (s.dests.length) {
      // the focus went to a destination when the checker was picked
      if (!(await page.evaluate(focusedHas('data-dest')))) presses += await tabTo(page, focusedHas('data-dest'), 'a destination');
      if (!shotTaken) {
        // the phone, mid-move: the checker picked, its destinations lit
        const m = await measureBoard(page, '[data-testid^=point-], [data-testid=dice]');
        const small = m.targets.filter(t => t.h < 40);
        if (small.length) fail(`tap targets under 40 px high: ${small.map(t => `${t.id} ${t.h.toFixed(1)}`).join(', ')}`);
        const narrow = m.targets.filter(t => t.id.startsWith('point-') && t.w < 28);
        if (narrow.length) fail(`points under 28 px wide: ${narrow.map(t => `${t.id} ${t.w.toFixed(1)}`).join(', ')}`);
        if (await page.getAttribute('[data-testid=board]', 'data-layout') !== 'compact') fail('the phone board is not in its compact layout');
        if (m.targets.filter(t => t.id.startsWith('point-')).length !== 24) fail('not 24 points on the board');
        if (!m.targets.some(t => t.id === 'dice')) fail('no dice drawn at our move');
        if (m.minFont < 10) fail(`a board label is drawn at ${m.minFont.toFixed(1)} px`);
        if (m.overflow > 0) fail(`the page is ${m.overflow} px wider than the phone`);
        const pts = m.targets.filter(t => t.id.startsWith('point-'));
        notable[`dice ${m.targets.find(t => t.id === 'dice').h.toFixed(0)} px high, points ${Math.min(...pts.map(t => t.w)).toFixed(1)} x ${Math.min(...pts.map(t => t.h)).toFixed(0)} px, labels ${m.minFont.toFixed(1)} px`] = 1;
        measured = true;
        await page.evaluate(() => { window.scrollTo(0, 0); document.querySelector('header.top nav').scrollLeft = 0; });
        await shot(page, 'phone');
        shotTaken = true;
      }
      await page.keyboard.press('Enter');
      presses++;
      last = Date.now();
      await page.waitForTimeout(50);
      continue;
    }
    if (s.sources.length) {
      presses += await tabTo(page, focusedHas('data-source'), 'a checker that can move');
      await page.keyboard.press('Enter');
      presses++;
      last = Date.now();
      await page.waitForFunction(() => document.querySelector('[data-testid=board] [data-selected]') || document.querySelector('[data-testid=controls] [data-testid=confirm]:not(:disabled)'));
      continue;
    }
    if (s.buttons.includes('roll')) {
      presses += await tabTo(page, focusedIs('roll'), 'Roll');
      await page.keyboard.press('Enter');
      presses++;
      last = Date.now();
      await page.waitForTimeout(100);
      continue;
    }
    await page.waitForTimeout(50);
  }
  if (!measured) fail('the board was never measured at a move');
  notable[`keyboard move in ${presses} key presses`] = 1;
  // Describe board, by keyboard, once the bot has answered and our next decision waits: the
  // position in words in a live region
  await page.waitForSelector('[data-testid=controls] button:not(:disabled)', { timeout: STEP_LIMIT_MS });
  await tabTo(page, focusedIs('describe-board'), 'Describe board');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=board-description] p');
  const live = await page.getAttribute('[data-testid=board-description]', 'aria-live');
  if (live !== 'polite') fail(`the description is not a live region (aria-live ${live})`);
  const g = await view();
  const shown = await page.getAttribute('[data-testid=board]', 'data-version');
  if (Number(shown) !== g.version) fail(`the page shows version ${shown}, the server is at ${g.version}`);
  const lines = await page.$$eval('[data-testid=board-description] p', l => l.map(p => p.textContent));
  const text = lines.join(' ');
  const b = g.view.board;
  for (const c of ['white', 'black']) {
    const line = lines.find(l => l.startsWith(`${c === 'white' ? 'White' : 'Black'} (`)) || '';
    for (let w = 1; w <= 24; w++) {
      const v = b.points[w - 1];
      const want = (c === 'white' && v > 0) || (c === 'black' && v < 0);
      if (want !== new RegExp(`(^|: |, )${Math.abs(v)} on ${w}(,|;)`).test(line)) fail(`${c}'s line ${want ? 'misses' : 'wrongly has'} "${Math.abs(v)} on ${w}": "${line}"`);
    }
    if (!line.includes(`on the bar ${b.bar[c]}; borne off ${b.off[c]}`)) fail(`the description misses ${c}'s bar or tray: "${line}"`);
  }
  const status = (await page.textContent('[data-testid=status]')).trim();
  if (!text.includes(status)) fail(`the description does not say whose turn: "${status}" not in "${text}"`);
  // the dice as a tap target: a move built by tapping, then confirmed by tapping the dice
  let tapped = false;
  last = Date.now();
  while (!tapped) {
    if (Date.now() - last > STEP_LIMIT_MS) fail('never got to confirm a move by tapping the dice');
    const s = await snapshot(page);
    if (s.over) break;
    if (s.buttons.includes('confirm')) {
      const action = await page.getAttribute('[data-testid=dice]', 'data-action');
      if (action !== 'confirm') fail(`the dice do not confirm a finished move (data-action ${action})`);
      const before = s.version;
      await page.click('[data-testid=dice]');
      clicks++;
      await page.waitForFunction(v => document.querySelector('[data-testid=board]').getAttribute('data-version') !== v, before, { timeout: STEP_LIMIT_MS });
      tapped = true;
      notable['move confirmed by tapping the dice'] = 1;
      break;
    }
    const r = await step(page, { game: 'backgammon', color: 'white', avoid: new Set(['confirm']) });
    if (r && r.did) last = Date.now();
    else await page.waitForTimeout(40);
  }
  // the other boards on the phone
  // (Never-Finishing with a clock: the clock's row keeps one line)
  for (const o of [{ game: 'never-finishing', matchLength: 1, clock: 'custom', delay: 30, reserve: 10 }, { game: 'grasshopper', checkers: 14 }, { game: 'halma-grasshopper', size: 10 }]) {
    await createGame(page, { ...o, opponent: 'bot', level: 'easy', color: 'white' });
    await headerOneLine(page);
    const m = await measureBoard(page, { 'never-finishing': '[data-testid^=point-]', grasshopper: '[data-testid^=point-], [data-testid^=hand-], [data-testid=off]', 'halma-grasshopper': '[data-testid^=sq-]' }[o.game]);
    const small = m.targets.filter(t => t.h < 40 && o.game !== 'halma-grasshopper');
    if (small.length) fail(`${o.game}: tap targets under 40 px high: ${small.slice(0, 5).map(t => `${t.id} ${t.h.toFixed(1)}`).join(', ')}`);
    const narrow = m.targets.filter(t => t.w < 28 || (o.game === 'halma-grasshopper' && t.h < 28));
    if (narrow.length) fail(`${o.game}: tap targets under 28 px: ${narrow.slice(0, 5).map(t => `${t.id} ${t.w.toFixed(1)} x ${t.h.toFixed(1)}`).join(', ')}`);
    if (o.clock) {
      await page.waitForSelector('[data-testid^=clock-]');
      // each player's row (name, clock, pips, score) keeps one line, the clock's figures readable
      const rows = await page.$$eval('[data-testid^=player-]', els => els.map(e => {
        const kids = [...e.children].filter(c => c.getBoundingClientRect().width > 0);
        const mids = kids.map(c => { const r = c.getBoundingClientRect(); return r.top + r.height / 2; });
        const fonts = [...e.querySelectorAll('.clock, .clock *')].map(c => parseFloat(getComputedStyle(c).fontSize));
        return { id: e.getAttribute('data-testid'), h: e.getBoundingClientRect().height, spread: Math.max(...mids) - Math.min(...mids), font: Math.min(...fonts), right: e.getBoundingClientRect().right };
      }));
      for (const r of rows) {
        if (r.spread > 8) fail(`${r.id}'s row wraps on the phone: ${JSON.stringify(r)}`);
        if (r.font < 13) fail(`${r.id}'s clock is drawn at ${r.font} px`);
        if (r.right > 390) fail(`${r.id}'s row runs off the phone: ${JSON.stringify(r)}`);
      }
      notable[`player rows with clocks on one line (${rows.map(r => r.h.toFixed(0)).join(', ')} px high)`] = 1;
    }
    if (o.game === 'grasshopper') await shot(page, 'phone-grasshopper');
    if (m.minFont < 10) fail(`${o.game}: a board label is drawn at ${m.minFont.toFixed(1)} px`);
    if (m.overflow > 0) fail(`${o.game}: the page is ${m.overflow} px wider than the phone`);
    await page.click('[data-testid=describe-board]');
    clicks++;
    const d = await page.textContent('[data-testid=board-description]');
    if (o.game === 'grasshopper' && !/White \(thumb \(guest\), you\): in hand 14; none; 0 walls borne off\./.test(d)) fail(`the Grasshopper description reads "${d}"`);
    if (o.game === 'halma-grasshopper' && !/White \(thumb \(guest\), you\): a1, b1, c1, d1, e1, a2, b2, c2, d2, a3, b3, c3, a4, b4, a5; 15 still in their own camp/.test(d)) fail(`the Halma description reads "${d}"`);
    notable[`${o.game} min target ${Math.min(...m.targets.map(t => t.w)).toFixed(1)} x ${Math.min(...m.targets.map(t => t.h)).toFixed(0)} px`] = 1;
  }
  checkErrors(page, 'phone');
  await page.context().close();
});

// ---- scenario 13: axe-core on every kind of page ---------------------------------------------

await scenario('13: axe-core finds no serious or critical accessibility violation on the lobby, the four game pages (and the lobby and two games on a phone), a finished game, a replay, the statistics, the analysis board, the login and the rules pages', async () => {
  // axe is injected as a script of the test's own: the server's Content-Security-Policy
  // rightly refuses it, so this context bypasses the policy (and only this one)
  const context = await browser.newContext({ viewport: { width: 1200, height: 820 }, bypassCSP: true });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', e => page.errors.push(e.message));
  page.setDefaultTimeout(10000);
  const axePath = new URL('./node_modules/axe-core/axe.min.js', import.meta.url).pathname;
  const found = [];
  let audited = 0;
  const audit = async (name, ready) => {
    await page.waitForSelector(ready);
    await page.waitForTimeout(150); // let the page settle (lists, live status)
    await page.addScriptTag({ path: axePath });
    const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
      .map(v => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')) })));
    audited++;
    for (const v of violations) {
      if (v.impact === 'serious' || v.impact === 'critical') found.push(`${name}: ${v.id} (${v.impact}: ${v.help}) at ${v.nodes.join(', ')}`);
      else notable[`${v.impact} ${v.id}`] = (notable[`${v.impact} ${v.id}`] || 0) + 1;
    }
  };
  await page.goto(`${BASE}/`);
  await audit('lobby (visitor)', '[data-testid=guest-form]');
  await page.goto(`${BASE}/login`);
  await audit('login', '[data-testid=login-form]');
  await page.fill('[data-testid=guest-form] [data-testid=guest-name]', 'auditor');
  await page.click('[data-testid=guest-form] [data-testid=guest-submit]');
  await page.waitForSelector('[data-testid=nav-me]');
  await page.goto(`${BASE}/`);
  await audit('lobby', '[data-testid=create-form]');
  for (const o of [{ game: 'backgammon', matchLength: 3 }, { game: 'never-finishing', matchLength: 1 }, { game: 'grasshopper', checkers: 4 }, { game: 'halma-grasshopper', size: 8 }]) {
    await createGame(page, { ...o, opponent: 'bot', level: 'easy', color: 'white' });
    await page.click('[data-testid=describe-board]');
    await audit(`${o.game} game page`, '[data-testid=board-description] p');
  }
  const done = finished.backgammon || rulesGame || await quickFinishedGame(page);
  await page.goto(`${BASE}/game/${done}`);
  await audit('a finished game page', '[data-testid=game-over]');
  await page.goto(`${BASE}/replay/${done}`);
  await audit('replay page', '[data-testid=replay-slider]');
  await page.goto(`${BASE}/stats`);
  await audit('statistics', '[data-testid^=stats-count-]');
  await page.goto(`${BASE}/study`);
  await audit('analysis board', '[data-testid=study-position]');
  await page.goto(`${BASE}/rules`);
  await audit('rules index', '[data-testid=rules-index]');
  for (const g of ['backgammon', 'never-finishing', 'grasshopper', 'halma-grasshopper']) {
    await page.goto(`${BASE}/rules/${g}#time-out`);
    await audit(`rules of ${g}`, '[data-testid=rules-page] #time-out.is-target');
  }
  // the phone pages: the lobby (its folded menu) and two games on their compact boards
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${BASE}/`);
  await audit('lobby on a phone', '[data-testid=create-form]');
  for (const o of [{ game: 'backgammon', matchLength: 1 }, { game: 'grasshopper', checkers: 4 }]) {
    await createGame(page, { ...o, opponent: 'bot', level: 'easy', color: 'white' });
    await audit(`${o.game} game page on a phone`, '[data-testid=board][data-layout=compact]');
  }
  if (found.length) fail(`${found.length} serious or critical violations:\n  ${found.join('\n  ')}`);
  notable[`${audited} pages audited`] = 1;
  checkErrors(page, 'axe');
  await context.close();
});

// ---- scenario 16: clocks, and a time-out ----------------------------------------------------

/** The clocks as the page shows them: text, running, low, remaining ms, label, role. */
const clocksShown = page => page.evaluate(() => Object.fromEntries(['white', 'black'].map(c => {
  const e = document.querySelector(`[data-testid=clock-${c}]`);
  return [c, e && { text: e.querySelector('.clock-time').textContent, delay: e.querySelector('.clock-delay').textContent,
    running: e.classList.contains('running'), low: e.classList.contains('low'), ms: Number(e.dataset.ms),
    label: e.getAttribute('aria-label'), role: e.getAttribute('role'), live: e.getAttribute('aria-live') }];
})));

await scenario('16: a clock chosen in the lobby (custom: 1 s a move + 0.05 min) shows both clocks, the running one counting down; a player who does not move loses on time', async () => {
  const page = await newPage();
  const name = 'ann' + Math.floor(Math.random() * 1000);
  await guest(page, name);
  // the lobby's clock presets follow the game (and, for the tables games, the match length)
  await page.goto(`${BASE}/`);
  await page.waitForSelector('[data-testid=create-form]');
  const presets = () => page.$$eval('[data-testid=opt-clock] option', l => l.map(o => `${o.value}=${o.textContent}`));
  await page.selectOption('[data-testid=opt-game]', 'backgammon');
  await page.fill('[data-testid=opt-match-length]', '3');
  const bg = await presets();
  if (bg[0] !== 'none=Unlimited (correspondence)' || !bg.includes('standard=Standard: 12 s a move + 2 min a point (6 min for 3 points)') ||
    !bg.some(t => t.startsWith('blitz=Blitz: 8 s a move + 1 min a point')) || !bg.some(t => t.startsWith('slow=Slow: 30 s a move + 5 min a point')) ||
    !bg.includes('custom=Custom…')) fail(`backgammon clock presets: ${bg}`);
  await page.fill('[data-testid=opt-match-length]', '0');
  if (!(await presets()).includes('standard=Standard: 12 s a move + 5 min (money game)')) fail(`money-game presets: ${await presets()}`);
  await page.selectOption('[data-testid=opt-game]', 'grasshopper');
  const gh = await presets();
  for (const want of ['blitz=Blitz: 5 s a move + 1 min', 'rapid=Rapid: 10 s a move + 5 min', 'classical=Classical: 30 s a move + 20 min'])
    if (!gh.includes(want)) fail(`grasshopper clock presets lack "${want}": ${gh}`);
  if ((await page.inputValue('[data-testid=opt-clock]')) !== 'none') fail('the clock is not unlimited by default');
  if (await page.isVisible('[data-testid=opt-clock-delay]')) fail('the custom clock fields show before Custom is chosen');
  // every clock field has a label a screen reader reads
  const unlabelled = await page.$$eval('[data-testid=opt-clock], [data-testid=opt-clock-delay], [data-testid=opt-clock-reserve]',
    l => l.filter(e => !(e.closest('label') && e.closest('label').textContent.trim())).map(e => e.getAttribute('data-testid')));
  if (unlabelled.length) fail(`unlabelled clock fields: ${unlabelled}`);
  await page.selectOption('[data-testid=opt-clock]', 'custom');
  if (!(await page.isVisible('[data-testid=opt-clock-delay]')) || !(await page.isVisible('[data-testid=opt-clock-reserve]'))) fail('Custom does not show its fields');

  // a Grasshopper game against the easy bot, 1 s a move + 0.05 min (3 s) of reserve
  const id = await createGame(page, { game: 'grasshopper', checkers: 2, opponent: 'bot', level: 'easy', color: 'white', clock: 'custom', delay: 1, reserve: '0.05' });
  const created = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  const ck = created.view.clock;
  if (!ck || ck.delay !== 1 || ck.reserve !== 3) fail(`the game's clock is ${JSON.stringify(ck)}, not 1 s + 3 s`);
  await page.waitForSelector('[data-testid=clock-white]');
  await page.waitForSelector('[data-testid=clock-black]');
  let c = await clocksShown(page);
  for (const col of ['white', 'black']) {
    if (c[col].role !== 'timer') fail(`the ${col} clock's role is ${c[col].role}`);
    if (c[col].live && c[col].live !== 'off') fail(`the ${col} clock is a live region (aria-live=${c[col].live}): it would announce every tick`);
    if (!/clock: .* left/.test(c[col].label || '')) fail(`the ${col} clock's label reads "${c[col].label}"`);
  }
  if (!c.white.label.includes(name)) fail(`the white clock's label does not name the player: "${c.white.label}"`);
  // the guest's clock runs (highlighted), the bot's does not; it counts down
  await page.waitForFunction(() => document.querySelector('[data-testid=clock-white]').classList.contains('running'), null, { timeout: 3000 })
    .catch(() => fail('the guest\'s clock is not shown running'));
  c = await clocksShown(page);
  if (c.black.running) fail('the bot\'s clock runs too');
  if (!/^0:0[0-3]$/.test(c.white.text) || c.black.text !== '0:03') fail(`the clocks read ${c.white.text} / ${c.black.text}`);
  const firstMs = c.white.ms;
  await page.waitForTimeout(1200);
  c = await clocksShown(page);
  if (!(c.white.ms < firstMs) && !(await page.$('[data-testid=game-over]'))) fail(`the running clock did not count down (${firstMs} then ${c.white.ms} ms)`);
  notable[`clock ${firstMs}→${c.white.ms} ms`] = 1;
  if (c.white.ms > 0 && c.white.ms < 10000 && !c.white.low && !c.white.delay) fail('under 10 s and no delay left, the clock is not marked low');
  // nobody moves: the server ends the game on time
  await page.waitForSelector('[data-testid=game-over]', { timeout: 15000 }).catch(() => fail('the game did not end on time within 15 s'));
  const over = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  const r = over.view.result;
  if (over.state !== 'finished' || !r || r.code !== 'time-out') fail(`the server ended the game with ${JSON.stringify(r)}`);
  if (!r.sentence.includes(name) || !/time/.test(r.sentence)) fail(`the time-out sentence does not name the player: "${r.sentence}"`);
  const text = await page.textContent('[data-testid=game-over]');
  if (!text.includes(r.sentence)) fail(`the page says "${text}", not "${r.sentence}"`);
  if ((await page.getAttribute('[data-testid=game-over]', 'data-code')) !== 'time-out') fail('the game-over notice does not carry the time-out code');
  const rule = await page.getAttribute('[data-testid=game-over] [data-testid=end-rule-link]', 'href');
  if (rule !== '/rules/grasshopper#time-out') fail(`the rule link goes to ${rule}`);
  await page.waitForFunction(() => document.querySelector('[data-testid=clock-white] .clock-time').textContent === '0:00', null, { timeout: 3000 })
    .catch(async () => fail(`after the time-out the guest's clock reads ${(await clocksShown(page)).white.text}`));
  c = await clocksShown(page);
  if (c.white.running || c.black.running) fail('a clock still runs after the end');
  await page.waitForSelector('[data-testid=move-list] [data-testid=move-entry]:has-text("Out of time")', { timeout: 3000 })
    .catch(() => fail('the move list does not say who ran out of time'));
  await shot(page, 'clock-time-out');
  checkErrors(page, 'clock');
  await page.context().close();
});

// ---- scenario 17: the server rolls for an absent player ---------------------------------------

await scenario('17: under a clock, a guest who does not press Roll has the server roll for them (nonce server:0), shown in the move list; then they play on', async () => {
  const page = await newPage();
  await guest(page, 'absent' + Math.floor(Math.random() * 1000));
  const id = await createGame(page, { game: 'backgammon', matchLength: 1, opponent: 'bot', level: 'easy', color: 'white', clock: 'custom', delay: 1, reserve: 30 });
  const t0 = Date.now();
  await page.waitForSelector('[data-testid=clock-white]');
  // the opening roll is the guest's to send: they do not press Roll
  await page.waitForSelector('[data-testid=controls] [data-testid=roll]');
  await page.waitForSelector('[data-testid=move-opening]:has-text("rolled by the server (absent)")', { timeout: 10000 })
    .catch(async () => fail(`no roll by the server within 10 s; the move list reads "${(await page.textContent('[data-testid=move-list]')).slice(0, 200)}"`));
  const waited = (Date.now() - t0) / 1000;
  if (waited > 9) fail(`the server rolled after ${waited.toFixed(1)} s`);
  notable[`server rolled after ${waited.toFixed(1)} s`] = 1;
  const g = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  const nonces = ((g.dice && g.dice.rolls) || []).map(r => r.nonce);
  if (!nonces.includes('server:0')) fail(`the dice record's nonces are ${JSON.stringify(nonces)}`);
  const events = await page.evaluate(async id => (await fetch(`/api/games/${id}/events`)).json(), id);
  const first = events.find(e => e.kind === 'roll');
  if (!first || first.nonce !== 'server:0' || first.actor !== null) fail(`the first roll event is ${JSON.stringify(first)}`);
  // then the guest plays on as usual
  let mine = 0, last = Date.now();
  while (mine < 3) {
    const r = await step(page, { game: 'backgammon', color: 'white', race: true, avoid: new Set(['double']) });
    if (r && r.over) break;
    if (r) { last = Date.now(); if (r.did === 'confirm') mine++; continue; }
    if (Date.now() - last > STEP_LIMIT_MS) fail('no progress after the server\'s roll');
    await page.waitForTimeout(40);
  }
  const after = await page.evaluate(async id => (await fetch(`/api/games/${id}/events`)).json(), id);
  const played = after.filter(e => e.kind === 'action' && e.actor === 'white' && e.payload.includes('/')).length;
  if (played < 1) fail('the guest could not play after the server\'s roll');
  notable[`${played} plays of ours`] = 1;
  await shot(page, 'server-roll');
  checkErrors(page, 'absent');
  await page.context().close();
});

// ---- scenario 18: a rematch between two people ----------------------------------------------

await scenario('18: two guests finish a Grasshopper game by invitation; a rematch offer is declined, then offered again and accepted: both go to the new game, colours swapped', async () => {
  const a = await newPage();
  const b = await newPage();
  await guest(a, 'carol');
  const id = await createGame(a, { game: 'grasshopper', checkers: 2, opponent: 'invite', color: 'white' });
  await a.waitForSelector('[data-testid=invite-link]');
  await b.goto(await a.inputValue('[data-testid=invite-link]'));
  await b.fill('[data-testid=guest-name]', 'dave');
  await b.click('[data-testid=guest-submit]');
  await b.waitForSelector('[data-testid=player-black] .badge:has-text("you")');
  await a.waitForSelector('[data-testid=player-black] a:has-text("dave")', { timeout: 8000 });
  // play to the end, each in turn
  const players = [{ page: a, color: 'white' }, { page: b, color: 'black' }];
  let last = Date.now(), over = null;
  while (!over) {
    let acted = false;
    for (const p of players) {
      const r = await step(p.page, { game: 'grasshopper', color: p.color });
      if (r && r.over) { over = r.over; break; }
      if (r) { acted = true; last = Date.now(); break; }
    }
    if (over) break;
    if (!acted) {
      if (Date.now() - last > STEP_LIMIT_MS) fail('no progress in the game by invitation');
      await a.waitForTimeout(40);
    }
  }
  for (const p of [a, b]) await p.waitForSelector('[data-testid=game-over]');
  if ((await a.$('[data-testid=play-again]')) || (await b.$('[data-testid=play-again]'))) fail('Play again is offered in a game between two people');
  if (!(await a.$('[data-testid=new-game]'))) fail('no New game at the end');
  // carol offers; dave sees the offer and declines; carol sees it declined
  await a.click('[data-testid=rematch]');
  clicks++;
  await a.waitForSelector('[data-testid=rematch-status]:has-text("Waiting for dave (guest) to accept")');
  if (!(await a.$('[data-testid=rematch-withdraw]'))) fail('no Withdraw beside the waiting offer');
  await b.waitForSelector('[data-testid=rematch-status]:has-text("carol (guest) offers a rematch")', { timeout: 8000 })
    .catch(() => fail('dave does not see the offer'));
  await b.click('[data-testid=rematch-decline]');
  clicks++;
  await a.waitForSelector('[data-testid=message]:has-text("declined")', { timeout: 8000 }).catch(() => fail('carol is not told of the decline'));
  await a.waitForSelector('[data-testid=rematch]', { timeout: 8000 }).catch(() => fail('carol cannot offer again after the decline'));
  await b.waitForSelector('[data-testid=rematch]');
  let g = await a.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  if (g.rematch.offered_by !== null || g.rematch.game !== null) fail(`after the decline the server says ${JSON.stringify(g.rematch)}`);
  // carol offers again; dave accepts; both land on the new game
  await a.click('[data-testid=rematch]');
  clicks++;
  await b.waitForSelector('[data-testid=rematch-accept]', { timeout: 8000 });
  await b.click('[data-testid=rematch-accept]');
  clicks++;
  const onNew = p => p.waitForFunction(id => location.pathname.startsWith('/game/') && !location.pathname.endsWith(id), id, { timeout: 10000 });
  await onNew(b).catch(() => fail('dave did not go to the new game'));
  await onNew(a).catch(() => fail('carol did not go to the new game'));
  const newA = a.url().split('/game/')[1], newB = b.url().split('/game/')[1];
  if (newA !== newB) fail(`the two players went to different games: ${newA} and ${newB}`);
  g = await a.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  if (g.rematch.game !== newA) fail(`the old game's rematch is ${JSON.stringify(g.rematch)}`);
  const n = await a.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), newA);
  if (n.white.id !== g.black.id || n.black.id !== g.white.id) fail('the rematch did not swap the colours');
  if (JSON.stringify(n.options) !== JSON.stringify(g.options)) fail(`the rematch changed the options: ${JSON.stringify(n.options)}`);
  if (n.state !== 'playing') fail(`the rematch is ${n.state}`);
  await a.waitForSelector('[data-testid=player-black] .badge:has-text("you")');
  await b.waitForSelector('[data-testid=player-white] .badge:has-text("you")');
  checkErrors(a, 'carol');
  checkErrors(b, 'dave');
  await a.context().close();
  await b.context().close();
});

// ---- scenario 20: drag and drop ----------------------------------------------------------

/** The centre of a board element, in page pixels. */
async function centre(page, testid) {
  // A busy machine may not have drawn the board yet: wait until it is shown (a missing one
  // still fails below, after the wait's timeout).
  const el = page.locator(`[data-testid="${testid}"]`);
  await el.waitFor({ state: 'visible', timeout: 10000 }).catch(() => {});
  const b = await el.boundingBox();
  if (!b) fail(`no ${testid} on the board`);
  const under = await page.evaluate(({ x, y }) => { const e = document.elementFromPoint(x, y); return e && (e.getAttribute('data-testid') || e.tagName); }, { x: b.x + b.width / 2, y: b.y + b.height / 2 });
  if (under !== testid) fail(`${testid}'s centre (${JSON.stringify(b)}, the window ${JSON.stringify(await page.evaluate(() => [innerWidth, innerHeight, scrollX, scrollY]))}) is covered by ${under}`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/**
 * Drags the piece on `from` with the mouse (or, with `touch` a CDP session, a finger): press,
 * move past the threshold (the page picks the piece and lights its destinations), then to the
 * element `to(snap)` names, checking the ghost follows and the destination under it is lit,
 * and release. Returns the destination's test id.
 */
async function drag(page, from, to, touch = null, shotName = null) {
  const a = await centre(page, from);
  const send = (type, p) => touch.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y }] : [] });
  if (touch) await send('touchStart', a); else { await page.mouse.move(a.x, a.y); await page.mouse.down(); }
  for (let i = 1; i <= 3; i++) {
    const p = { x: a.x + 4 * i, y: a.y + 5 * i };
    if (touch) await send('touchMove', p); else await page.mouse.move(p.x, p.y);
  }
  const mid = await snapshot(page);
  if (!(await page.$('[data-testid=drag-ghost]'))) fail(`no piece follows the pointer from ${from}: ${JSON.stringify(await page.evaluate(() => ({ press: window.__tabulaGame.drag.press, selected: window.__tabulaGame.selected })))}`);
  const dest = to(mid);
  const b = await centre(page, dest);
  for (let i = 1; i <= 4; i++) {
    const p = { x: a.x + ((b.x - a.x) * i) / 4, y: a.y + ((b.y - a.y) * i) / 4 };
    if (touch) await send('touchMove', p); else await page.mouse.move(p.x, p.y);
  }
  await page.waitForTimeout(50); // touch moves are delivered with the next frame
  const ghost = await page.evaluate(() => {
    const g = document.querySelector('[data-testid=drag-ghost]');
    const over = document.querySelector('[data-testid=board] .hit.drag-over');
    return g && { over: over ? over.getAttribute('data-testid') : null, box: g.getBoundingClientRect().toJSON() };
  });
  if (!ghost) fail(`the dragged piece from ${from} disappeared before the drop`);
  const gx = ghost.box.x + ghost.box.width / 2, gy = ghost.box.y + ghost.box.height / 2;
  if (Math.hypot(gx - b.x, gy - b.y) > 3) fail(`the piece is drawn at (${gx}, ${gy}), the pointer at (${b.x}, ${b.y})`);
  if (mid.dests.includes(dest) && ghost.over !== dest) fail(`the destination ${dest} under the piece is not lit (${ghost.over})`);
  if (shotName) await shot(page, shotName);
  if (touch) await send('touchEnd', null); else await page.mouse.up();
  clicks++;
  return { dest, mid };
}

/** Rolls until a move of ours is due; returns the snapshot. */
async function ourMove(page) {
  const t = Date.now();
  for (;;) {
    const s = await snapshot(page);
    if (s.sources.length && !s.buttons.includes('roll')) {
      // clicking Roll scrolled the page down on a phone: the whole board back in view
      await page.evaluate(() => document.querySelector('[data-testid=board]').scrollIntoView({ block: 'start' }));
      return s;
    }
    if (s.over) fail('the game ended before a move of ours');
    if (s.buttons.includes('roll')) await page.click('[data-testid=roll]');
    if (Date.now() - t > STEP_LIMIT_MS) fail(`no move decision reached: ${s.status}`);
    await page.waitForTimeout(40);
  }
}

await scenario('20: every board plays by drag and drop, mouse and touch: the piece follows the pointer, destinations light up, a drop on an illegal point puts it back and sends nothing', async () => {
  for (const g of GAMES) {
    // each game by mouse on a desktop and by touch on a phone (its compact board)
    for (const touch of [false, true]) {
      const context = await browser.newContext(touch ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } : { viewport: { width: 1200, height: 820 } });
      await context.addInitScript(() => { try { localStorage.setItem('tabula.preferences', '{"animation":"off"}'); } catch (e) { /* about:blank */ } });
      const page = await context.newPage();
      page.errors = [];
      page.on('pageerror', e => page.errors.push(e.message));
      page.setDefaultTimeout(10000);
      const cdp = touch ? await context.newCDPSession(page) : null;
      await guest(page, `dragger${touch ? 't' : 'm'}${g.game.length}`);
      const id = await createGame(page, { ...g, opponent: 'bot', level: 'easy', color: 'white' });
      const what = `${g.game}${touch ? ' (touch)' : ''}`;
      let s = await ourMove(page);
      // 1. a drop where the piece cannot go: it goes back, nothing is sent, nothing changes
      const posts = [];
      const onRequest = r => { if (r.method() !== 'GET') posts.push(`${r.method()} ${r.url()}`); };
      page.on('request', onRequest);
      const from = s.sources[0];
      const all = await page.evaluate(() => [...document.querySelectorAll('[data-testid=board] .hit[data-key]')].map(e => e.getAttribute('data-testid')));
      await drag(page, from, mid => {
        const bad = all.find(t => t !== from && !mid.dests.includes(t) && !mid.sources.includes(t));
        if (!bad) fail(`${what}: every point is a destination of ${from}`);
        return bad;
      }, cdp);
      await page.waitForTimeout(300);
      const back = await snapshot(page);
      if (posts.length) fail(`${what}: an illegal drop sent ${posts.join(', ')}`);
      if (back.version !== s.version) fail(`${what}: an illegal drop moved the version from ${s.version} to ${back.version}`);
      if (back.dests.length || JSON.stringify(back.sources) !== JSON.stringify(s.sources)) fail(`${what}: after an illegal drop the board offers ${JSON.stringify(back)}`);
      if (await page.$('[data-testid=drag-ghost]')) fail(`${what}: the dragged piece stayed drawn after the drop`);
      page.off('request', onRequest);
      // 2. legal drops until a whole move is made (backgammon: every die, then Confirm)
      for (let n = 0; ; n++) {
        if (n > 8) fail(`${what}: no move made in 8 drops`);
        if (s.buttons.includes('confirm') || s.buttons.includes('choose-hit') || s.buttons.includes('choose-trap')) break;
        const source = s.sources[n % s.sources.length];
        const { dest } = await drag(page, source, mid => {
          if (!mid.dests.length) fail(`${what}: picking ${source} by dragging lit no destination`);
          return g.game === 'halma-grasshopper' ? halmaBest(mid.dests, 'white') : mid.dests[0];
        }, cdp, n === 0 ? `drag-${g.game}-${touch ? 390 : 1200}` : null);
        await page.waitForTimeout(100);
        s = await snapshot(page);
        if (await page.$('[data-testid=drag-ghost]')) fail(`${what}: the piece stayed drawn after its drop on ${dest}`);
        if (!['backgammon', 'never-finishing'].includes(g.game)) break; // the dice-free games send the move at once
        if (!s.sources.length) break;
      }
      for (const b of ['choose-hit', 'choose-trap']) if (s.buttons.includes(b)) { await page.click(`[data-testid=${b}]`); s = await snapshot(page); }
      if (s.buttons.includes('confirm')) await page.click('[data-testid=confirm]');
      await page.waitForFunction(async id => {
        const log = (await (await fetch(`/api/games/${id}/record`)).json()).steps.map(st => st.event);
        return log.some(e => e.kind === 'action' && e.actor === 'white' && !/^(roll|double|take|drop)/.test(e.payload));
      }, id, { timeout: STEP_LIMIT_MS }).catch(() => fail(`${what}: the dragged move never reached the server`));
      checkErrors(page, what);
      await context.close();
    }
  }
});

// ---- scenario 21: the lobby's quick start and remembered settings -------------------------

await scenario('21: the lobby offers one-click backgammon against each bot and a person, and the New game form comes back with the last settings', async () => {
  const page = await newPage();
  await guest(page, 'mochy_fan');
  await page.goto(`${BASE}/`);
  await page.waitForSelector('[data-testid=quick-start]');
  for (const id of ['1pt-easy', '1pt-medium', '1pt-strong', '1pt-open', '5pt-easy', '5pt-strong', 'money-medium', 'money-open']) {
    if (!(await page.$(`[data-testid=quick-${id}]`))) fail(`no quick start ${id}`);
  }
  // one click: a 5-point match against the medium bot, the guest White
  await page.click('[data-testid=quick-5pt-medium]');
  clicks++;
  await page.waitForURL(/\/game\/[^/?]+$/);
  await page.waitForSelector('[data-testid=board]');
  let id = page.url().split('/game/')[1];
  let g = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  if (g.options.game !== 'backgammon' || g.options.match_length !== 5) fail(`the quick start made ${JSON.stringify(g.options)}`);
  if (!g.black || g.black.id !== 'bot-medium' || !g.white || g.white.name !== 'mochy_fan') fail(`the quick start seated ${JSON.stringify([g.white, g.black])}`);
  // a person: an open seat in the lobby
  await page.goto(`${BASE}/`);
  await page.click('[data-testid=quick-money-open]');
  clicks++;
  await page.waitForURL(/\/game\/[^/?]+$/);
  id = page.url().split('/game/')[1];
  g = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
  if (g.state !== 'waiting' || g.options.match_length != null) fail(`the money seat is ${g.state}, ${JSON.stringify(g.options)}`);
  // the form: Never-Finishing, a 1-point match against the random bot as Black, a custom clock
  await createGame(page, { game: 'never-finishing', matchLength: 1, opponent: 'bot', level: 'random', color: 'black', clock: 'custom', delay: 7, reserve: 2.5 });
  await page.goto(`${BASE}/`);
  await page.waitForSelector('[data-testid=create-form]');
  const form = await page.evaluate(() => Object.fromEntries(['opt-game', 'opt-match-length', 'opt-opponent', 'opt-level', 'opt-color', 'opt-clock', 'opt-clock-delay', 'opt-clock-reserve']
    .map(k => [k, document.querySelector(`[data-testid=${k}]`).value])));
  const want = { 'opt-game': 'never-finishing', 'opt-match-length': '1', 'opt-opponent': 'bot', 'opt-level': 'random', 'opt-color': 'black', 'opt-clock': 'custom', 'opt-clock-delay': '7', 'opt-clock-reserve': '2.5' };
  if (JSON.stringify(form) !== JSON.stringify(want)) fail(`the form came back as ${JSON.stringify(form)}`);
  if (await page.isHidden('[data-testid=opt-clock-custom]')) fail('the remembered custom clock hides its fields');
  // another player on the same browser starts from the defaults
  await guest(page, 'someone_else');
  await page.goto(`${BASE}/`);
  await page.waitForSelector('[data-testid=create-form]');
  if (await page.inputValue('[data-testid=opt-game]') !== 'backgammon') fail('the settings of one player came back for another');
  await shot(page, 'lobby');
  checkErrors(page, 'lobby');
  await page.context().close();
});

// ---- scenario 22: resign in every game, abort before the first move -----------------------

await scenario('22: Never-Finishing, Grasshopper and Halma can be resigned, confirmed once, with the cost said; an unrated game is aborted before the first move and leaves "Your games"', async () => {
  const page = await newPage();
  await guest(page, 'leaver');
  for (const [o, cost] of [
    [{ game: 'never-finishing', matchLength: 0 }, /you lose a gammon \(2 points\)/],
    [{ game: 'never-finishing', matchLength: 3 }, /you lose the 3-point match/],
    [{ game: 'grasshopper', checkers: 4 }, /you lose the game/],
    [{ game: 'halma-grasshopper', size: 8 }, /you lose the game/],
  ]) {
    const id = await createGame(page, { ...o, opponent: 'bot', level: 'easy', color: 'white' });
    await page.click('[data-testid=resign]');
    clicks++;
    const said = await page.textContent('[data-testid=resign-cost]');
    if (!cost.test(said)) fail(`${o.game}: the resignation says "${said}"`);
    // Cancel keeps the game going
    await page.click('[data-testid=resign-cancel]');
    if (await page.$('[data-testid=resign-confirm]')) fail(`${o.game}: Cancel left the confirmation`);
    await page.click('[data-testid=resign]');
    await page.click('[data-testid=resign-confirm]');
    clicks += 2;
    const over = await page.waitForSelector('[data-testid=game-over]', { timeout: STEP_LIMIT_MS });
    const code = await over.getAttribute('data-code');
    const text = await over.textContent();
    const want = o.matchLength > 0 ? 'match-won' : 'resigned';
    if (code !== want || !/leaver \(guest\) resigned/.test(text)) fail(`${o.game}: the end reads "${text}" (${code})`);
    const g = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
    if (g.state !== 'finished' || g.winner !== 'black') fail(`${o.game}: the server says ${g.state}, winner ${g.winner}`);
  }
  // backgammon keeps its own Resign… (levels, answered by the opponent)
  // abort: a guest's game is unrated; Abort before moving
  const id = await createGame(page, { game: 'backgammon', matchLength: 3, opponent: 'bot', level: 'easy', color: 'white' });
  await page.waitForSelector('[data-testid=abort]');
  await shot(page, 'abort-offered');
  await page.click('[data-testid=abort]');
  clicks++;
  const over = await page.waitForSelector('[data-testid=game-over][data-code=aborted]', { timeout: STEP_LIMIT_MS });
  if (!/^Aborted:/.test(await over.textContent())) fail(`the abort reads "${await over.textContent()}"`);
  await page.goto(`${BASE}/`);
  await page.waitForSelector('[data-testid=create-form]');
  await page.waitForTimeout(300);
  if (await page.$(`[data-testid=my-games] [data-game-id="${id}"]`)) fail('the aborted game is still in "Your games"');
  checkErrors(page, 'leaving');
  await page.context().close();
});

// ---- scenario 23: your turn in the tab's title, and the tone ------------------------------

await scenario('23: the tab reads "Your move - Tabula" on your turn (a preference, on by default) and a tone sounds when your turn begins if asked for', async () => {
  const page = await newPage();
  await guest(page, 'signalled');
  const id = await createGame(page, { game: 'halma-grasshopper', size: 8, opponent: 'bot', level: 'easy', color: 'white' });
  await page.waitForFunction(() => document.title === 'Your move - Tabula', null, { timeout: STEP_LIMIT_MS })
    .catch(async () => fail(`on our turn the title is "${await page.title()}"`));
  // the tone: switched on in Preferences, heard when our turn comes back after the bot's move
  await page.goto(`${BASE}/preferences`);
  await page.check('[data-testid=pref-turn-sound]');
  await page.uncheck('[data-testid=pref-turn-title]');
  await page.click('[data-testid=pref-save]');
  await page.waitForSelector('[data-testid=pref-message][data-where]');
  await page.goto(`${BASE}/game/${id}`);
  await page.waitForSelector('[data-testid=board] [data-source]');
  if (await page.title() === 'Your move - Tabula') fail('the title says "Your move" with the preference off');
  await page.evaluate(() => { delete document.documentElement.dataset.lastTone; });
  const s = await snapshot(page);
  await page.click(`[data-testid="${halmaBest(s.sources, 'white')}"]`);
  const d = await snapshot(page);
  await page.click(`[data-testid="${halmaBest(d.dests, 'white')}"]`);
  clicks += 2;
  await page.waitForFunction(() => document.documentElement.dataset.lastTone === 'turn', null, { timeout: STEP_LIMIT_MS })
    .catch(() => fail('no tone when our turn came back'));
  checkErrors(page, 'signals');
  await page.context().close();
});

// ---- scenario 24: chat between the two players ----------------------------------------------

await scenario('24: two players chat in their game (plain text, 300 characters, 5 messages in 10 s), one mutes the other, and a spectator reads only once both allow it', async () => {
  // Ann's context bypasses the page's Content-Security-Policy only so that axe can be injected
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 820 }, bypassCSP: true });
  const a = await ctx.newPage();
  a.errors = [];
  a.on('pageerror', e => a.errors.push(e.message));
  a.setDefaultTimeout(10000);
  const b = await newPage({ width: 390, height: 844 });
  const watcher = await newPage();
  await guest(a, 'chat_ann');
  const id = await createGame(a, { game: 'grasshopper', checkers: 4, opponent: 'invite', color: 'white' });
  await a.waitForSelector('[data-testid=invite-link]');
  const link = await a.inputValue('[data-testid=invite-link]');
  await b.goto(link);
  await b.fill('[data-testid=guest-name]', 'chat_bob');
  await b.click('[data-testid=guest-submit]');
  await b.waitForSelector('[data-testid=player-black] .badge:has-text("you")');
  await watcher.goto(`${BASE}/game/${id}`);
  await watcher.waitForSelector('[data-testid=live][data-state=live]');
  // the chat opens for Ann once Bob sits down
  await a.waitForSelector('[data-testid=chat-input]', { timeout: 8000 }).catch(() => fail('the chat did not open for the creator when the opponent joined'));
  await b.waitForSelector('[data-testid=chat-input]');
  const say = async (page, text) => {
    await page.fill('[data-testid=chat-input]', text);
    await page.click('[data-testid=chat-send]');
    clicks++;
  };
  const lines = page => page.$$eval('[data-testid=chat-log] [data-testid=chat-text]', l => l.map(e => e.textContent));
  const markup = '<img src=x onerror="document.title=\'owned\'"> & <b>good luck</b>';
  await b.evaluate(() => window.scrollTo(0, 0)); // on Bob's phone the chat is below the board
  await say(a, markup);
  await b.waitForFunction(t => [...document.querySelectorAll('[data-testid=chat-text]')].some(e => e.textContent === t), markup, { timeout: 8000 })
    .catch(() => fail('Bob did not see Ann\'s message'));
  // out of sight, a button says a message came and takes him there
  const alert = await b.waitForSelector('[data-testid=chat-alert]:visible', { timeout: 8000 }).catch(() => fail('Bob\'s phone did not say that a message came'));
  if ((await alert.textContent()) !== 'New message from chat_ann (guest)') fail(`the new-message button reads "${await alert.textContent()}"`);
  await shot(b, 'chat-new-message-390');
  await alert.click();
  clicks++;
  await b.waitForSelector('[data-testid=chat-alert]', { state: 'hidden' });
  const inView = await b.$eval('[data-testid=chat-log]', e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; });
  if (!inView) fail('the new-message button did not bring the chat into view');
  if (await b.$('[data-testid=chat-log] img, [data-testid=chat-log] b')) fail('a message was shown as markup');
  if (await b.title() === 'owned') fail('a message ran a script');
  await say(b, 'thanks, you too');
  await a.waitForFunction(() => [...document.querySelectorAll('[data-testid=chat-text]')].some(e => e.textContent === 'thanks, you too'), null, { timeout: 8000 })
    .catch(() => fail('Ann did not see Bob\'s answer'));
  // a spectator reads nothing until both players allow it
  if (await watcher.isVisible('[data-testid=chat]')) fail('the spectator sees the chat before the players allow it');
  await a.check('[data-testid=chat-spectators]');
  await a.waitForSelector('[data-testid=chat-readers]:has-text("only if both")');
  await watcher.waitForTimeout(500);
  if (await watcher.isVisible('[data-testid=chat]')) fail('the spectator reads the chat with one player\'s leave');
  await b.check('[data-testid=chat-spectators]');
  await watcher.waitForFunction(() => document.querySelectorAll('[data-testid=chat-text]').length === 2, null, { timeout: 8000 })
    .catch(() => fail('the spectator does not read the chat once both allow it'));
  if (await watcher.$('[data-testid=chat-input]:visible')) fail('the spectator is offered to write');
  await a.waitForSelector('[data-testid=chat-readers]:has-text("Spectators read this chat")');
  // Bob mutes Ann: her next message reaches the spectator, not him
  await b.check('[data-testid=chat-mute]');
  await b.waitForFunction(() => document.querySelectorAll('[data-testid=chat-text]').length === 1, null, { timeout: 8000 })
    .catch(() => fail('muting did not hide Ann\'s messages from Bob'));
  await say(a, 'are you there?');
  await watcher.waitForFunction(() => document.querySelectorAll('[data-testid=chat-text]').length === 3, null, { timeout: 8000 })
    .catch(() => fail('the spectator missed a message'));
  await b.waitForTimeout(400);
  if ((await lines(b)).includes('are you there?')) fail('Bob sees a message of the player he muted');
  await b.uncheck('[data-testid=chat-mute]');
  await b.waitForFunction(() => document.querySelectorAll('[data-testid=chat-text]').length === 3, null, { timeout: 8000 })
    .catch(() => fail('unmuting did not bring Ann\'s messages back'));
  // the limits: 300 characters (the field stops there, a counter near the end), 5 in 10 s
  if (await a.getAttribute('[data-testid=chat-input]', 'maxlength') !== '300') fail('the message field takes more than 300 characters');
  await a.fill('[data-testid=chat-input]', 'x'.repeat(290));
  const left = (await a.textContent('#chat-count')).trim();
  if (left !== '10 left') fail(`near the limit the counter reads "${left}"`);
  await a.fill('[data-testid=chat-input]', '');
  await shot(a, 'chat');
  // Ann has written 2 messages in the last seconds: 3 more pass, the 6th waits
  for (let i = 3; i <= 5; i++) {
    await say(a, `message ${i}`);
    await a.waitForFunction(t => [...document.querySelectorAll('[data-testid=chat-text]')].some(e => e.textContent === t), `message ${i}`, { timeout: 8000 })
      .catch(async () => fail(`Ann's quick messages: ${JSON.stringify(await lines(a))}`));
  }
  await a.waitForFunction(() => document.querySelectorAll('[data-testid=chat-text]').length === 6, null, { timeout: 8000 })
    .catch(async () => fail(`Ann's quick messages: ${JSON.stringify(await lines(a))}`));
  await say(a, 'one too many');
  const refused = await a.waitForSelector('[data-testid=chat-error]:visible', { timeout: 8000 }).catch(() => null);
  if (!refused || !/at most 5 messages in 10 seconds/.test(await refused.textContent())) fail('a sixth message within 10 s was not refused with the reason');
  if (await a.inputValue('[data-testid=chat-input]') !== 'one too many') fail('the refused message was not kept in the field');
  // axe on a page with the chat
  await a.addScriptTag({ path: new URL('./node_modules/axe-core/axe.min.js', import.meta.url).pathname });
  const violations = await a.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.nodes.slice(0, 2).map(n => n.target.join(' ')).join(', ')}`));
  if (violations.length) fail(`axe on the chat: ${violations.join('; ')}`);
  checkErrors(a, 'ann');
  checkErrors(b, 'bob');
  checkErrors(watcher, 'spectator');
  await ctx.close();
  await b.context().close();
  await watcher.context().close();
});

// ---- scenario 25: a game against a bot left untouched ends as a resignation -----------------

await scenario('25: a game against a bot left untouched ends as its player\'s resignation by the server\'s sweep and leaves "Your games" (a second server, idle limit 3 s)', async () => {
  const ABANDON = (process.env.ABANDON_BASE_URL || '').replace(/\/+$/, '');
  if (!ABANDON) fail('set ABANDON_BASE_URL to a server with a short TABULA_ABANDON_AFTER_SECS');
  const page = await newPage();
  await page.goto(`${ABANDON}/login`);
  await page.fill('[data-testid=guest-form] [data-testid=guest-name]', 'walker');
  await page.click('[data-testid=guest-form] [data-testid=guest-submit]');
  await page.waitForSelector('[data-testid=nav-me]', { state: 'attached' });
  const body = { options: { game: 'halma-grasshopper', size: 8 }, opponent: { kind: 'bot', level: 'easy' }, color: 'white' };
  const g = await page.evaluate(async b => (await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) })).json(), body);
  if (!g.id) fail(`the game was not created: ${JSON.stringify(g)}`);
  await page.goto(`${ABANDON}/`);
  await page.waitForSelector(`[data-testid=my-games] a[href="/game/${g.id}"]`).catch(() => fail('the new game is not in "Your games"'));
  // the player walks away; the page of the game, left open, learns of the ending
  await page.goto(`${ABANDON}/game/${g.id}`);
  const over = await page.waitForSelector('[data-testid=game-over]', { timeout: 15000 }).catch(() => fail('the untouched game did not end'));
  const text = await over.textContent();
  if (await over.getAttribute('data-code') !== 'abandoned' || !/walker \(guest\)/.test(text)) fail(`the ending reads "${text}"`);
  const list = await page.$$eval('[data-testid=move-entry]', l => l.map(e => e.textContent));
  if (!list.some(t => /Left the game/.test(t))) fail(`the move list does not say who left: ${list.slice(-3)}`);
  await page.goto(`${ABANDON}/`);
  await page.waitForSelector('[data-testid=create-form]');
  await page.waitForTimeout(300);
  if (await page.$(`[data-testid=my-games] a[href="/game/${g.id}"]`)) fail('the abandoned game is still in "Your games"');
  notable[`ended: "${text.trim().slice(0, 80)}"`] = 1;
  checkErrors(page, 'walker');
  await page.context().close();
});

await browser.close();
const total = ((Date.now() - T0) / 1000).toFixed(1);
if (failures) {
  console.error(`e2e: ${failures} scenario(s) failed (${total} s)`);
  process.exit(1);
}
console.log(`e2e: all scenarios passed (${total} s)`);
