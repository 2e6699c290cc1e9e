// "Your turn" signals of the game page (Preferences, docs/client.md): the tab's title reads
// "Your move - Tabula" while it is your turn (on by default), and an optional short tone
// (off by default) when your turn begins and when 10 s are left on your running clock. The
// tone is made with the Web Audio API; a browser that refuses sound (no gesture yet on the
// page, no audio device) simply stays silent.

let ctx = null;

/** A short tone: `high` for the clock's warning, else a soft two-note chime. */
export function tone(high = false) {
  try {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return false;
    ctx = ctx || new AC();
    if (ctx.state === 'suspended') ctx.resume();
    const t = ctx.currentTime;
    const notes = high ? [[880, 0], [880, 0.18]] : [[660, 0], [880, 0.12]];
    for (const [f, at] of notes) {
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, t + at);
      gain.gain.exponentialRampToValueAtTime(0.15, t + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + at + 0.15);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t + at);
      osc.stop(t + at + 0.16);
    }
    document.documentElement.dataset.lastTone = high ? 'clock' : 'turn'; // for the tests
    return true;
  } catch (e) {
    return false;
  }
}

/** The tab's title: "Your move - Tabula" on your turn (when `wanted`), else `normal`. */
export function turnTitle(yourTurn, wanted, normal) {
  return yourTurn && wanted ? 'Your move - Tabula' : normal;
}
