// The analysis board's rollouts (`POST /api/study/rollout`, docs/protocol.md): of the
// position, of chosen candidate plays together, or of the cube. The server streams lines of
// progress and, after every block of 36 trials, the running results of each item with the
// sums it can go on from. Stop keeps the last running results (the trials done are shown)
// and Resume sends the sums back: the rollout goes on where it stopped, and ends with the
// result a rollout run at once gives. The server runs one rollout at a time: a start that
// finds it busy (a rollout just stopped still ending its block) tries again for a few
// seconds before it says so.

import { h, clear, cap } from './dom.js';
import { ApiError } from './api.js';
import { formatEquity, formatDiff, formatChance, hintBody } from './hint.js';


/** Reads an NDJSON stream, calling `onLine` with each parsed line. */
export async function readLines(response, onLine) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) onLine(JSON.parse(line));
    }
  }
}

/** The chances of a side as a small table (win, gammons and backgammons both ways). */
export function chancesTable(c, caption) {
  const row = (label, win, gammon, bg) => h('tr', {},
    h('th', { scope: 'row' }, label), h('td', { class: 'num' }, formatChance(win)),
    h('td', { class: 'num' }, formatChance(gammon)), h('td', { class: 'num' }, formatChance(bg)));
  return h('table', { class: 'chances', 'data-testid': 'study-chances' },
    h('caption', { class: 'small muted' }, caption),
    h('thead', {}, h('tr', {}, h('th', {}), h('th', { scope: 'col', class: 'num' }, 'Games'),
      h('th', { scope: 'col', class: 'num' }, 'Gammons'), h('th', { scope: 'col', class: 'num' }, 'Backgammons'))),
    h('tbody', {},
      row('Win', c.win, c.win_gammon, c.win_backgammon),
      row('Lose', 1 - c.win, c.lose_gammon, c.lose_backgammon)));
}

const unitOf = report => (report.unit === 'mwc' ? 'mwc' : 'money');

function settingsText(r, done) {
  return `${done} of ${r.trials} games${r.items.length > 1 ? ' each' : ''}` +
    `${r.truncate ? `, truncated after ${r.truncate} plays` : ''}, seed ${r.seed}, ` +
    `${r.cubeful ? (r.unit === 'mwc' ? 'cubeful, match-winning chances' : 'cubeful money equity') : 'cubeless'}, luck-adjusted`;
}

/** The table of a report's items: plays sorted best first, each with its trials, equity, standard error and 95 % interval. */
function itemsTable(r, final) {
  const unit = unitOf(r);
  const items = r.items.slice();
  if (r.kind === 'plays') items.sort((a, b) => b.equity - a.equity);
  const best = items.length ? items[0].equity : 0;
  const cubeless = !r.cubeful;
  return h('table', { class: 'rollout-items', 'data-testid': 'rollout-table', 'data-final': final ? 'true' : 'false' },
    h('caption', { class: 'small muted' }, r.kind === 'plays' ? 'Candidate plays, rolled out (for the player on roll)' : 'Rolled out'),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, r.kind === 'plays' ? 'Play' : 'Action'),
      h('th', { scope: 'col', class: 'num' }, 'Games'),
      h('th', { scope: 'col', class: 'num' }, 'Equity'),
      r.kind === 'plays' ? h('th', { scope: 'col', class: 'num' }, 'Diff') : null,
      h('th', { scope: 'col', class: 'num' }, '± s.e.'),
      h('th', { scope: 'col', class: 'num' }, '95 % interval'),
      cubeless ? ['Win', 'W g', 'W bg', 'L g', 'L bg'].map(t => h('th', { scope: 'col', class: 'num' }, t)) : null)),
    h('tbody', {}, items.map(it => h('tr', {
      'data-testid': 'rollout-row', 'data-move': it.move || it.label, 'data-trials': it.trials, 'data-equity': it.equity,
      'data-se': it.equity_std_err,
    },
    h('td', { class: 'play' }, it.move || cap(it.label)),
    h('td', { class: 'num' }, h('progress', { max: r.trials, value: it.trials, 'aria-label': `${it.trials} of ${r.trials} games` }), ` ${it.trials}`),
    h('td', { class: 'num' }, formatEquity(it.equity, unit)),
    r.kind === 'plays' ? h('td', { class: 'num' }, formatDiff(it.equity - best, unit)) : null,
    h('td', { class: 'num' }, unit === 'mwc' ? `${(it.equity_std_err * 100).toFixed(2)} %` : it.equity_std_err.toFixed(3)),
    h('td', { class: 'num' }, `${formatEquity(it.equity_ci95[0], unit)} to ${formatEquity(it.equity_ci95[1], unit)}`),
    cubeless ? [it.chances.win, it.chances.win_gammon, it.chances.win_backgammon, it.chances.lose_gammon, it.chances.lose_backgammon]
      .map(x => h('td', { class: 'num' }, formatChance(x))) : null))));
}

/** What a report shows: the position's chances (cubeless), or the items' table, and the cube. */
function reportBody(r, final) {
  const done = Math.min(...r.items.map(i => i.trials));
  const head = h('p', { class: 'small', 'data-testid': 'rollout-settings' }, `Rollout: ${settingsText(r, done)}, ${r.seconds.toFixed(1)} s.`);
  if (r.kind === 'position') {
    const it = r.items[0];
    const ci = it.equity_ci95;
    return [head, chancesTable(it.chances, `The chances of the player on roll over ${it.trials} games`),
      h('p', { 'data-testid': 'study-rollout-equity' }, 'Cubeless equity ',
        h('strong', {}, formatEquity(it.equity, 'money')), ` ± ${it.equity_std_err.toFixed(3)} (standard error); `,
        `with 95 % confidence between ${formatEquity(ci[0], 'money')} and ${formatEquity(ci[1], 'money')}.`),
      r.cube ? hintBody({ kind: 'cube', depth: 'from the rolled-out chances', ...r.cube }) : []];
  }
  const cube = r.cube ? [
    h('p', { 'data-testid': 'rollout-drop' }, 'Double, pass: ', h('strong', {}, formatEquity(r.cube.double_drop, unitOf(r))), ' (exact).'),
    h('p', { 'data-testid': 'hint-proper' }, 'Proper cube action: ', h('strong', {}, r.cube.proper), '.'),
  ] : [];
  return [head, itemsTable(r, final), cube];
}

/**
 * A rollout's settings as controls (trials, length, seed: `controls`) and the request fields
 * they give (`fields()`), for every analysis board that rolls out.
 */
export function rolloutSettings() {
  const trials = h('select', { id: 'study-trials', 'data-testid': 'study-trials', 'aria-label': 'Rollout trials' },
    [36, 324, 1296].map(n => h('option', { value: n, selected: n === 324 ? true : null }, `${n} trials`)));
  const truncate = h('select', { id: 'study-truncate', 'data-testid': 'study-truncate', 'aria-label': 'Rollout length' },
    h('option', { value: '' }, 'to the end'), h('option', { value: '10' }, 'truncated after 10 plays'));
  const seed = h('input', { id: 'study-seed', type: 'number', min: 0, value: 1, class: 'num-input', 'data-testid': 'study-seed' });
  return {
    controls: [trials, ' ', truncate, ' ', h('label', { for: 'study-seed' }, 'Seed '), seed],
    fields() {
      const f = { trials: Number(trials.value), seed: Number(seed.value) || 0 };
      if (truncate.value) f.truncate = Number(truncate.value);
      return f;
    },
  };
}

/**
 * A rollout panel: `start(body)` runs a rollout of the request `body` in `el`; Stop keeps
 * what is done and offers Resume.
 */
export function rolloutRunner(el) {
  let controller = null;
  let body = null;
  let last = null;

  const show = (...nodes) => { clear(el).append(...nodes.flat(Infinity)); };
  const fail = e => show(h('p', { class: 'message error', role: 'alert', 'data-testid': 'study-error' },
    e instanceof ApiError ? e.message : `Something went wrong: ${e.message}`));

  async function run(resume) {
    controller = new AbortController();
    const items = last ? last.items.length : 1;
    const total = body.trials * (resume ? resume.length : items);
    const bar = h('progress', { max: total, value: 0, 'data-testid': 'study-progress' });
    const label = h('span', { class: 'small' }, 'starting…');
    const stop = h('button', { type: 'button', 'data-testid': 'study-stop', onclick: () => controller.abort() }, 'Stop');
    // Stop first: the label's changing width does not move it
    const status = h('p', { role: 'status' }, stop, ' Rolling out… ', bar, ' ', label);
    const table = h('div', {});
    el.dataset.state = 'running';
    show(status, table);
    try {
      // A rollout just stopped frees the server's place (and this client's) within a block:
      // "busy" and "too many" are waited out for a few seconds before they are shown.
      let response;
      for (let attempt = 0; ; attempt++) {
        response = await fetch('/api/study/rollout', {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify(resume ? { ...body, resume } : body),
          credentials: 'same-origin', signal: controller.signal,
        });
        if ((response.status !== 503 && response.status !== 429) || attempt >= 15) break;
        label.textContent = 'waiting for the server…';
        await new Promise(r => setTimeout(r, 300));
      }
      if (!response.ok) {
        const data = await response.json().catch(() => null);
        throw new ApiError(response.status, data?.error?.code, data?.error?.message || `the server answered ${response.status}`);
      }
      let result = null;
      await readLines(response, line => {
        if (line.progress != null) {
          bar.max = line.trials; bar.value = line.progress;
          label.textContent = `${line.progress} of ${line.trials} games`;
        }
        if (line.partial) { last = line.partial; clear(table).append(...reportBody(line.partial, false).flat(Infinity)); }
        if (line.result) result = line.result;
        if (line.error) throw new Error(line.error);
      });
      if (!result) throw new Error('the rollout ended without a result');
      last = result;
      el.dataset.state = 'done';
      show(reportBody(result, true));
    } catch (e) {
      if (e.name === 'AbortError') stopped();
      else { el.dataset.state = 'error'; fail(e); }
    } finally { controller = null; }
  }

  function stopped() {
    el.dataset.state = 'stopped';
    if (!last) { show(h('p', { class: 'small', 'data-testid': 'study-stopped' }, 'Rollout stopped before its first 36 games: nothing to keep.')); return; }
    const done = Math.min(...last.items.map(i => i.trials));
    const resume = h('button', { type: 'button', 'data-testid': 'study-resume', onclick: () => run(last.items.map(i => i.sums)) }, 'Resume');
    show(h('p', { class: 'small', 'data-testid': 'study-stopped' },
      `Rollout stopped after ${done} of ${last.trials} games${last.items.length > 1 ? ' each' : ''}: the results below are over the games played. `, resume),
    reportBody(last, false));
  }

  return {
    start(request) { if (controller) return; body = request; last = null; run(null); },
    busy: () => !!controller,
    destroy() { if (controller) controller.abort(); },
  };
}
