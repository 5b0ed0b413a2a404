// The pages' requests to the JSON API (docs/PROTOCOL.md, "HTTP"): the
// answer's body is read as JSON whatever the status, so a refusal's
// `{"error": code}` reaches the page's own words for that code.

/**
 * GET `url` as JSON (with extra request `headers`): `{ok, status, data}`; a network failure is
 * `{ok: false, status: 0}`.
 */
export async function getJson(url, headers = {}) {
  try {
    const res = await fetch(url, { headers: { Accept: 'application/json', ...headers } });
    const data = await res.json().catch(() => null);
    return { ok: res.ok, status: res.status, data };
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

/**
 * POST `body` as JSON to `url`: `{res, data}`, `data` the answer's JSON
 * (`{}` when it has none). A network failure throws, as fetch does.
 */
export async function postJson(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  return { res, data };
}

// Whether this browser may be signed in (docs/PROTOCOL.md, "Sessions"):
// the server sets `signed_in=1` beside the HttpOnly session cookie and
// clears both together. Without it a page asks `GET /api/me` once; after
// a `401` it remembers this browser as a guest's and stops asking, so a
// guest's pages make no requests whose answer is a `401`.
const GUEST_KEY = 'bg.guest';

const hasHint = () => /(?:^|;\s*)signed_in=1(?:;|$)/.test(document.cookie);

/** False when this browser is known to be a guest's: no `signed_in` cookie, and a `401` seen. */
export function maybeSignedIn() {
  if (hasHint()) return true;
  try { return localStorage.getItem(GUEST_KEY) !== '1'; } catch { return true; }
}

/** Whether asking what only a signed-in person may ask is worth it: when unknown, after `GET /api/me` says. */
export async function signedInLikely() {
  if (!maybeSignedIn()) return false;
  if (hasHint()) return true;
  await fetchMe().catch(() => null);
  return maybeSignedIn();
}

function noteGuest(guest) {
  try {
    if (guest) localStorage.setItem(GUEST_KEY, '1');
    else localStorage.removeItem(GUEST_KEY);
  } catch { /* ignore */ }
  // A session that ended elsewhere leaves the hint: forget it too.
  if (guest) document.cookie = 'signed_in=; Max-Age=0; Path=/; SameSite=Lax';
}

const ACCOUNT_EVENT = 'account-change';

/**
 * This page signed in (`username`) or out (null) just now, by its own
 * forms: the page's parts that differ for a signed-in person (the quick
 * pairing, the challenges) hear it through `onAccountChange`. Signing out
 * also marks the browser a guest's (it asks `GET /api/me` no more).
 */
export function announceAccount(username) {
  noteGuest(!username);
  window.dispatchEvent(new CustomEvent(ACCOUNT_EVENT, { detail: { username: username ?? null } }));
}

/** Calls `fn(username or null)` whenever this page signs in or out (announceAccount). */
export function onAccountChange(fn) {
  const listener = (e) => fn(e.detail.username);
  window.addEventListener(ACCOUNT_EVENT, listener);
  return () => window.removeEventListener(ACCOUNT_EVENT, listener);
}

/** The one `GET /api/me` under way; every caller gets a copy of its answer. */
let asking = null;

/** `GET /api/me`'s answer (a fetch Response); a known guest's `401` without asking. */
export async function fetchMe() {
  if (!maybeSignedIn()) {
    return new Response(JSON.stringify({ error: 'not_signed_in', message: 'You are not signed in.' }), {
      status: 401, headers: { 'Content-Type': 'application/json' },
    });
  }
  asking ??= fetch('/api/me').then((res) => {
    if (res.status === 401) noteGuest(true);
    else if (res.ok) noteGuest(false);
    return res;
  }).finally(() => { asking = null; });
  return (await asking).clone();
}
