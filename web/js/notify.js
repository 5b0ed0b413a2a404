// "Your turn" as a browser notification while the tab is hidden: an
// opt-in switch, kept in the browser (`bg.notify`). Permission is asked
// only when the person turns the switch on, never by itself.

const NOTIFY_KEY = 'bg.notify';

/** Whether this browser can show notifications at all. */
export function notifySupported() {
  return typeof window.Notification === 'function';
}

/** On only when the person turned it on and the browser allows it. */
export function notifyOn() {
  if (!notifySupported() || Notification.permission !== 'granted') return false;
  try { return localStorage.getItem(NOTIFY_KEY) === 'on'; } catch { return false; }
}

/**
 * Turns the switch on (asking the browser's permission if it was never
 * given) or off. Resolves to 'on', 'off' or 'denied' (the browser, or
 * the person at its prompt, refused).
 */
export async function toggleNotify() {
  const store = (v) => { try { localStorage.setItem(NOTIFY_KEY, v); } catch { /* ignore */ } };
  if (notifyOn()) {
    store('off');
    return 'off';
  }
  let permission = Notification.permission;
  if (permission === 'default') permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    store('off');
    return 'denied';
  }
  store('on');
  return 'on';
}

/** Shows `title`/`body` if the switch is on and the page is not seen; a click brings the tab back. */
export function notifyHidden(title, body, tag) {
  if (!notifyOn() || document.visibilityState !== 'hidden') return;
  try {
    const n = new Notification(title, { body, tag, renotify: true });
    n.addEventListener('click', () => {
      window.focus();
      n.close();
    });
  } catch {
    // Some browsers allow notifications only from a service worker: stay quiet.
  }
}
