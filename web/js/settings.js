// The viewer's board settings, kept in localStorage (per browser).

export const ASK_OWN_GOAL_KEY = 'bg.askOwnGoal';

/** Whether to ask before a CrossyRay move into one's own goal (on unless turned off). */
export function askOwnGoal() {
  try { return localStorage.getItem(ASK_OWN_GOAL_KEY) !== 'off'; } catch { return true; }
}

export function setAskOwnGoal(on) {
  try { localStorage.setItem(ASK_OWN_GOAL_KEY, on ? 'on' : 'off'); } catch { /* ignore */ }
}
