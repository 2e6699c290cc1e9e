// The analysis board's position editor: a model of a backgammon set-up (checkers on the
// points and the bars, the player on roll, the dice, the cube, money or match), the XGID it
// writes, and the controls that change it. Checkers that are not on the board or a bar are
// borne off. The editor refuses at once what no position can hold (a 16th checker, both
// colours on one point) with the reason; the server reads every change back
// (`POST /api/study/position`) and refuses the rest (docs/client.md, "Analysis board").

import { h, cap, other } from './dom.js';

export const CHECKERS = 15;

/** An empty money set-up, White on roll. */
export function emptyModel() {
  return {
    points: Array(24).fill(0), bar: { white: 0, black: 0 }, onRoll: 'white', dice: '',
    cubeValue: 1, cubeOwner: null, matchLength: 0, score: { white: 0, black: 0 }, crawford: false,
  };
}

/** The starting position of backgammon (White's points: 24 two, 13 five, 8 three, 6 five). */
export function startModel() {
  const m = emptyModel();
  for (const [p, n] of [[24, 2], [13, 5], [8, 3], [6, 5]]) { m.points[p - 1] = n; m.points[24 - p] = -n; }
  return m;
}

/** The model of a position the server read (`PositionView`). */
export function modelFromView(v) {
  const crawford = !v.cube && v.match_length != null;
  return {
    points: v.board.points.slice(), bar: { ...v.board.bar }, onRoll: v.on_roll,
    dice: v.dice || '', cubeValue: v.cube ? v.cube.value : 1, cubeOwner: v.cube ? v.cube.owner : null,
    matchLength: v.match_length || 0, score: { ...v.score }, crawford,
  };
}

/** Checkers of `color` on the board and the bar. */
export function onBoard(m, color) {
  const sign = color === 'white' ? 1 : -1;
  return m.points.reduce((n, x) => n + (Math.sign(x) === sign ? Math.abs(x) : 0), 0) + m.bar[color];
}

const letter = n => (n > 0 ? String.fromCharCode(64 + n) : n < 0 ? String.fromCharCode(96 - n) : '-');

/** The XGID of a model: White is XG's bottom player. */
export function toXgid(m) {
  const board = letter(-m.bar.black) + m.points.map(letter).join('') + letter(m.bar.white);
  const inMatch = m.matchLength > 0;
  const cubeOn = !(inMatch && m.crawford);
  const log2 = cubeOn ? Math.round(Math.log2(m.cubeValue)) : 0;
  const owner = !cubeOn || !m.cubeOwner ? 0 : m.cubeOwner === 'white' ? 1 : -1;
  const dice = m.dice ? m.dice.replace('-', '') : '00';
  const flags = inMatch ? (m.crawford ? 1 : 0) : 3;
  const score = inMatch ? [m.score.white, m.score.black] : [0, 0];
  return `XGID=${board}:${log2}:${owner}:${m.onRoll === 'white' ? 1 : -1}:${dice}:${score[0]}:${score[1]}:${flags}:${inMatch ? m.matchLength : 0}:10`;
}

/**
 * Applies a click on the board (`key`: a White point number, 'bar-white', 'off-black'...)
 * with the chosen tool (`white`, `black` or `remove`): returns the reason when refused.
 */
export function applyClick(m, key, tool) {
  if (key.startsWith('off-')) {
    return 'Checkers not on the board are borne off: remove a checker from a point to bear it off.';
  }
  if (key.startsWith('bar-')) {
    const color = key.slice(4);
    if (tool === 'remove') {
      if (!m.bar[color]) return `${cap(color)}'s bar is empty.`;
      m.bar[color] -= 1;
      return null;
    }
    if (tool !== color) return `That is ${cap(color)}'s bar: choose ${cap(color)} checkers to put one there.`;
    if (onBoard(m, color) >= CHECKERS) return `${cap(color)} has all ${CHECKERS} checkers on the board.`;
    m.bar[color] += 1;
    return null;
  }
  const i = Number(key) - 1;
  if (!(i >= 0 && i < 24)) return null;
  const x = m.points[i];
  if (tool === 'remove') {
    if (!x) return `Point ${key} is empty.`;
    m.points[i] -= Math.sign(x);
    return null;
  }
  const sign = tool === 'white' ? 1 : -1;
  if (Math.sign(x) === -sign) {
    return `Point ${key} holds ${cap(other(tool))}'s checkers: both sides cannot share a point. Remove them first.`;
  }
  if (onBoard(m, tool) >= CHECKERS) return `${cap(tool)} has all ${CHECKERS} checkers on the board.`;
  m.points[i] += sign;
  return null;
}

/**
 * The editor's controls: the tool, the player on roll, the cube and the match (the dice have
 * their own field beside Hint).
 * `onChange()` is called after every change of the model (the caller reads it back).
 */
export function editorControls(m, tool, onChange, onTool) {
  const radio = (name, value, label, checked, on) => h('label', { class: 'pick' },
    h('input', { type: 'radio', name, value, checked: checked ? true : null, 'data-testid': `${name}-${value}`, onchange: on }), ' ', label);
  const num = (id, label, value, min, max, on) => h('label', { for: id }, label, ' ',
    h('input', { id, type: 'number', min, max, value, 'data-testid': id, class: 'num-input', onchange: e => on(Number(e.target.value)) }));
  const set = f => e => { f(e); onChange(); };
  const cube = h('select', { id: 'edit-cube', 'data-testid': 'edit-cube', onchange: set(e => { m.cubeValue = Number(e.target.value); }) },
    [1, 2, 4, 8, 16, 32, 64].map(v => h('option', { value: v, selected: v === m.cubeValue ? true : null }, String(v))));
  const owner = h('select', { id: 'edit-owner', 'data-testid': 'edit-owner', onchange: set(e => { m.cubeOwner = e.target.value || null; }) },
    [['', 'centred'], ['white', 'White'], ['black', 'Black']].map(([v, t]) => h('option', { value: v, selected: (m.cubeOwner || '') === v ? true : null }, t)));
  return h('fieldset', { class: 'editor', 'data-testid': 'editor' },
    h('legend', {}, 'Set up the position'),
    h('p', { class: 'small muted' }, 'Choose a tool, then click points or bars. Checkers not on the board are borne off.'),
    h('div', { class: 'editor-row', role: 'radiogroup', 'aria-label': 'Tool' },
      radio('tool', 'white', 'Add White', tool === 'white', () => onTool('white')),
      radio('tool', 'black', 'Add Black', tool === 'black', () => onTool('black')),
      radio('tool', 'remove', 'Remove', tool === 'remove', () => onTool('remove'))),
    h('div', { class: 'editor-row' },
      h('span', {}, 'On roll: '),
      radio('turn', 'white', 'White', m.onRoll === 'white', set(() => { m.onRoll = 'white'; })),
      radio('turn', 'black', 'Black', m.onRoll === 'black', set(() => { m.onRoll = 'black'; }))),
    h('div', { class: 'editor-row' },
      h('label', { for: 'edit-cube' }, 'Cube '), cube, ' ', h('label', { for: 'edit-owner' }, 'owner '), owner),
    h('div', { class: 'editor-row' },
      radio('mode', 'money', 'Money', !m.matchLength, set(() => { m.matchLength = 0; m.crawford = false; })),
      radio('mode', 'match', 'Match', m.matchLength > 0, set(() => { if (!m.matchLength) m.matchLength = 5; })),
      m.matchLength > 0 ? [
        ' ', num('edit-length', 'to', m.matchLength, 1, 64, v => { m.matchLength = v; onChange(); }),
        ' ', num('edit-score-white', 'White', m.score.white, 0, 63, v => { m.score.white = v; onChange(); }),
        ' ', num('edit-score-black', 'Black', m.score.black, 0, 63, v => { m.score.black = v; onChange(); }),
        ' ', h('label', { class: 'pick' }, h('input', {
          type: 'checkbox', checked: m.crawford ? true : null, 'data-testid': 'edit-crawford',
          onchange: set(e => { m.crawford = e.target.checked; }),
        }), ' Crawford game'),
      ] : []),
    h('p', { class: 'small', 'data-testid': 'edit-counts' },
      ['white', 'black'].map(c => `${cap(c)}: ${onBoard(m, c)} on the board, ${CHECKERS - onBoard(m, c)} off`).join('; '), '.'));
}
