// What the boards' input modules share: their listeners, and the keys
// (arrows, Enter or Space, Escape). No imports, so a game's input module
// stays importable without a browser (its pure decisions are tested in
// node).

/** Adds `listeners` (`{type: listener}`) to `el`; returns what removes them. */
export function listen(el, listeners) {
  const pairs = Object.entries(listeners);
  for (const [type, fn] of pairs) el.addEventListener(type, fn);
  return () => {
    for (const [type, fn] of pairs) el.removeEventListener(type, fn);
  };
}

const ARROWS = {
  ArrowUp: [0, 1],
  ArrowDown: [0, -1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
};

/**
 * The keydown listener of a board whose keys are the arrows, Enter (or
 * Space) and Escape: `step(state, ui, [dx, dy])` for an arrow (dy 1 is up
 * the screen), `play(state, ui)` and `escape(state, ui)` for the others.
 * No key does anything before the board has a state; an arrow is always
 * the board's, and Enter or Escape is when its handler returns true (the
 * browser's default for the key is then prevented).
 */
export function boardKeys(api, { step, play, escape }) {
  return (e) => {
    const state = api.getState();
    if (!state) return;
    const ui = api.getUi();
    let used = false;
    if (e.key in ARROWS) {
      step(state, ui, ARROWS[e.key]);
      used = true;
    } else if (e.key === 'Enter' || e.key === ' ' || e.key === 'Spacebar') {
      used = play(state, ui);
    } else if (e.key === 'Escape' || e.key === 'Esc') {
      used = escape(state, ui);
    }
    if (used) e.preventDefault();
  };
}
