// The analysis API as the replay page uses it (docs/PROTOCOL.md,
// "Analysis"): ask for a game's analysis (a stored game by its id, an
// imported one by its text), read one, and follow one as the server
// grades its moves (Server-Sent Events, each event the whole analysis).

/**
 * The server's answer as `{ok, status, data, error}`: `error` the refusal's
 * code (`too_many_analyses`, `analysis_busy`, `no_game`, …), its HTTP status
 * when the body names none, or `failed` when the server was not reached.
 */
async function answer(request) {
  try {
    const res = await request;
    const data = await res.json().catch(() => null);
    if (res.ok && data) return { ok: true, status: res.status, data, error: null };
    return { ok: false, status: res.status, data, error: data?.error ?? String(res.status) };
  } catch {
    return { ok: false, status: 0, data: null, error: 'failed' };
  }
}

/** Asks for the analysis of `target`: `{id}` (a stored game) or `{text}` (an imported one, as the import took it). */
export function askAnalysis(target) {
  if (target.text != null) {
    return answer(fetch('/api/analysis', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: target.text }));
  }
  return answer(fetch(`/api/games/${encodeURIComponent(target.id)}/analysis`, { method: 'POST' }));
}

/** The analysis `id` as it stands (404 `no_analysis` when nobody asked for it). */
export function readAnalysis(id) {
  return answer(fetch(`/api/analysis/${encodeURIComponent(id)}`));
}

/** How often a lost event stream is opened again before the page gives up on it. */
const RETRIES = 5;
const RETRY_MS = 1500;

/**
 * Follows analysis `id` until it is done: `onUpdate(analysis)` for each
 * event; when the stream is lost before the end it is read once
 * (`readAnalysis`) and followed again, up to RETRIES times, then
 * `onLost(error)`. Returns stop(), which closes the stream.
 */
export function followAnalysis(id, onUpdate, onLost) {
  let source = null;
  let timer = null;
  let stopped = false;
  let tries = 0;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    source = null;
  };
  const open = () => {
    if (stopped) return;
    source = new EventSource(`/api/analysis/${encodeURIComponent(id)}/events`);
    const heard = (e) => {
      let a;
      try { a = JSON.parse(e.data); } catch { return; }
      tries = 0;
      onUpdate(a);
      if (a.status === 'done') stop();
    };
    // Each event is `event: analysis` (an unnamed one is read the same).
    source.addEventListener('analysis', heard);
    source.addEventListener('message', heard);
    source.onerror = () => {
      if (stopped) return;
      // Closed for good (a refusal) or between two tries of the browser's
      // own: read the analysis, then follow it again.
      source.close();
      source = null;
      tries += 1;
      if (tries > RETRIES) {
        stop();
        onLost('failed');
        return;
      }
      timer = setTimeout(async () => {
        const r = await readAnalysis(id);
        if (stopped) return;
        if (r.ok) {
          onUpdate(r.data);
          if (r.data.status === 'done') { stop(); return; }
        } else if (r.status === 404) {
          stop();
          onLost(r.error);
          return;
        }
        open();
      }, RETRY_MS);
    };
  };
  open();
  return stop;
}
