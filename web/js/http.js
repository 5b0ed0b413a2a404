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
