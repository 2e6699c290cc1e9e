// Clocks (docs/protocol.md, "Clocks"): the lobby's time-control presets, and the game page's
// clocks counted down locally from the last view.
//
// A time control is a delay per turn (free seconds) and a reserve for the whole game or match
// that never grows. The presets of backgammon and Never-Finishing give so many minutes of
// reserve a point of the match; a money game (one game, match length 0) gets a fixed
// MONEY_RESERVE_MIN minutes whatever the preset, which then differ by their delay only.

/** Backgammon and Never-Finishing: [value, name, delay in seconds, reserve minutes a point]. */
export const TABLES_PRESETS = [
  ['blitz', 'Blitz', 8, 1],
  ['standard', 'Standard', 12, 2],
  ['slow', 'Slow', 30, 5],
];

/** A money game's reserve under every preset, in minutes. */
export const MONEY_RESERVE_MIN = 5;

/** Grasshopper and Halma: [value, name, delay in seconds, reserve in minutes]. */
export const BOARD_PRESETS = [
  ['blitz', 'Blitz', 5, 1],
  ['rapid', 'Rapid', 10, 5],
  ['classical', 'Classical', 30, 20],
];

const TABLES = new Set(['backgammon', 'never-finishing']);

/** "3 min", "1 h 30 min", "45 s": a reserve in seconds in words. */
export function reserveWords(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  const parts = [];
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  if (s || !parts.length) parts.push(`${s} s`);
  return parts.join(' ');
}

/**
 * The clock choices of the lobby's form for `game` (and, for the tables games, the match
 * length; 0 is a money game): `[{value, label, clock}]`, `clock` being the request's
 * `{"delay", "reserve"}` in seconds, null for "Unlimited" and for "Custom" (read from its
 * fields).
 */
export function clockChoices(game, matchLength) {
  const out = [{ value: 'none', label: 'Unlimited (correspondence)', clock: null }];
  if (TABLES.has(game)) {
    const n = Math.max(0, Math.floor(Number(matchLength) || 0));
    for (const [value, name, delay, perPoint] of TABLES_PRESETS) {
      const reserve = n > 0 ? perPoint * 60 * n : MONEY_RESERVE_MIN * 60;
      const label = n > 0
        ? `${name}: ${delay} s a move + ${perPoint} min a point (${reserveWords(reserve)} for ${n} point${n === 1 ? '' : 's'})`
        : `${name}: ${delay} s a move + ${MONEY_RESERVE_MIN} min (money game)`;
      out.push({ value, label, clock: { delay, reserve } });
    }
  } else {
    for (const [value, name, delay, minutes] of BOARD_PRESETS) {
      out.push({ value, label: `${name}: ${delay} s a move + ${minutes} min`, clock: { delay, reserve: minutes * 60 } });
    }
  }
  out.push({ value: 'custom', label: 'Custom…', clock: null });
  return out;
}

/** A custom control from the form's fields (delay in seconds, reserve in minutes, decimals allowed). */
export function customClock(delaySeconds, reserveMinutes) {
  return { delay: Math.round(Number(delaySeconds) || 0), reserve: Math.round((Number(reserveMinutes) || 0) * 60) };
}

/**
 * The clocks now, from `clock` (a view's `clock`) received `elapsed` milliseconds ago: the
 * running player's delay is spent first, then their reserve; nothing goes below 0.
 * Returns `{white, black, running, delayLeft}` in milliseconds.
 */
export function clockNow(clock, elapsed) {
  const left = { white: clock.left.white, black: clock.left.black };
  let delayLeft = 0;
  const run = clock.running;
  if (run) {
    const d = Math.max(0, clock.delay_left || 0);
    delayLeft = Math.max(0, d - elapsed);
    left[run] -= Math.max(0, elapsed - d);
  }
  left.white = Math.max(0, left.white);
  left.black = Math.max(0, left.black);
  return { white: left.white, black: left.black, running: run || null, delayLeft };
}

/** A reserve as a clock shows it: `m:ss`, or `h:mm:ss` from an hour on (whole seconds, rounded up). */
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The same in words for screen readers: "2 minutes 5 seconds". */
export function clockWords(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const unit = (n, w) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const parts = [];
  if (h) parts.push(unit(h, 'hour'));
  if (m) parts.push(unit(m, 'minute'));
  if (s || !parts.length) parts.push(unit(s, 'second'));
  return parts.join(' ');
}

/** Low time: under 10 s of reserve with no delay left (the warning style). */
export const LOW_MS = 10000;
