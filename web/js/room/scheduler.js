// Redraws batched as chessground batches its own: events change the
// model at once, the page is drawn once per animation frame, and only the
// panels whose slice of the model changed are drawn again. A panel is
// {name, slice(model) → [values], draw(model)}; its slice is compared
// value by value (===) with the one it was last drawn from, which works
// because the model's transitions make new objects for what they change
// and keep the rest. A hidden tab gets no animation frames, yet its title
// says "your turn": a timer draws it there.

const HIDDEN_DELAY_MS = 100;

function sameSlice(a, b) {
  return !!a && a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * @param {object[]} panels      drawn in this order
 * @param {() => object} model   the current model
 * @param {(err: Error) => void} onError   a panel that threw (the others are still drawn)
 */
export function createScheduler(panels, model, onError) {
  const drawn = new Map(); // panel -> the slice it was last drawn from
  let pending = false;

  function flush() {
    pending = false;
    const m = model();
    if (!m.room) return;
    for (const panel of panels) {
      const slice = panel.slice(m);
      if (sameSlice(drawn.get(panel), slice)) continue;
      drawn.set(panel, slice);
      try {
        panel.draw(m);
      } catch (err) {
        onError(err, panel);
      }
    }
  }

  return {
    /** Draw what changed, at the next frame (or soon, in a hidden tab). */
    schedule() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { if (pending) flush(); });
      setTimeout(() => { if (pending) flush(); }, HIDDEN_DELAY_MS);
    },
    /** Draw what changed now (before moving the focus into a panel). */
    flush,
    /** Draw every panel again, now: the language changed under all of them (a click, answered at once). */
    redrawAll() {
      drawn.clear();
      flush();
    },
  };
}
