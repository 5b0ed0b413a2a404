// Sounds of a room: short tones made with the Web Audio API (no files),
// one per kind of moment, and a mute switch kept in the browser.
//
// Every sound that plays is also noted on <html data-sound="KIND"
// data-sounds="N">, so that tests (and curious people) can see what the
// page played without hearing it.

const MUTE_KEY = 'bg.mute';

/** Frequencies (Hz) and durations (ms) of each sound's notes. */
const TONES = {
  move: [[520, 60]],
  capture: [[420, 70], [300, 90]],
  wall: [[260, 90]],
  turn: [[660, 80], [880, 110]],
  low_time: [[990, 60], [990, 60]],
  start: [[440, 90], [660, 90], [880, 140]],
  end: [[880, 120], [660, 120], [440, 200]],
};

export const SOUNDS = Object.keys(TONES);

let context = null;

export function muted() {
  try { return localStorage.getItem(MUTE_KEY) === 'on'; } catch { return false; }
}

export function setMuted(on) {
  try { localStorage.setItem(MUTE_KEY, on ? 'on' : 'off'); } catch { /* ignore */ }
}

/** Plays sound `kind` unless muted. Browsers allow audio once the page was used. */
export function play(kind) {
  const notes = TONES[kind];
  if (!notes || muted()) return;
  const root = document.documentElement;
  root.dataset.sound = kind;
  root.dataset.sounds = String(Number(root.dataset.sounds ?? 0) + 1);
  try {
    context ??= new AudioContext();
    let at = context.currentTime;
    for (const [hz, ms] of notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + ms / 1000);
      osc.connect(gain).connect(context.destination);
      osc.start(at);
      osc.stop(at + ms / 1000);
      at += ms / 1000;
    }
  } catch {
    // No audio here (a browser without Web Audio): the page goes on silently.
  }
}

/**
 * The sound of a move, from its notation: a Quoridor wall ends in h or v
 * (`e3h`), a Jungle capture has × or x between its squares (`8 a3xa4`).
 */
export function moveSound(move) {
  if (/^[a-z]\d+[hv]$/.test(move)) return 'wall';
  if (/^\d [a-i]\d[x×][a-i]\d$/.test(move)) return 'capture';
  return 'move';
}
