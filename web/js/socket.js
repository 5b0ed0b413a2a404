// The room WebSocket: connect, say hello, number commands, match answers to
// commands, track the room version, reconnect with exponential backoff.
//
// See docs/PROTOCOL.md. Every command carries an integer id; the server
// answers each with exactly one `ack` or `error` carrying that id, so
// send() returns a promise that settles on that answer. Room events carry
// `v`, increasing by one; a gap means we missed something, and since only
// a fresh `hello` brings a `snapshot`, the cure is to reconnect.
//
// The server closes a socket with a code and a reason rather than drop a
// message: 1008 (the send queue overflowed, or the room refused the
// hello), 1009 (frame too big), 1007 (not UTF-8), 1011 (the room restarted
// after an internal error), 1012 (the server is restarting), 1013 (the
// room is reloading). Whatever the code, the client reconnects with
// backoff; its `hello` says where it stood (`since`: the snapshot's epoch
// and the last version applied), and the room sends the events it missed
// (ack `resumed`) or, when it no longer has them all or reloaded, a
// snapshot. A gap in versions resyncs from a snapshot. Only a hello
// refused with `room_full` or `removed` (the host removed this browser)
// stops it: reconnecting would be refused again,
// so the page is told (onRefused) and may reopen() when the person asks.
// A socket refused before it opened may be a room that does not exist
// (the upgrade is answered `404 no_room`, which a page cannot read): the
// socket asks `GET /api/rooms/CODE`, and a 404 there stops it and tells
// the page (onNoRoom) instead of "Connecting…" forever.

export const TOKEN_KEY = 'bg.token';
export const NAME_KEY = 'bg.name';

export function storedToken() {
  try { return localStorage.getItem(TOKEN_KEY) || null; } catch { return null; }
}
export function storeToken(token) {
  if (!token) return;
  try { localStorage.setItem(TOKEN_KEY, token); } catch { /* ignore */ }
}
/** The browser token as an `Authorization: Bearer` header, when it has one (for the requests that read it: history, turns, a game's room). */
export function tokenHeaders() {
  const token = storedToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}
export function storedName() {
  try { return localStorage.getItem(NAME_KEY) || null; } catch { return null; }
}
export function storeName(name) {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* ignore */ }
}
/** Forgets the stored name (the server refused it). */
export function forgetName() {
  try { localStorage.removeItem(NAME_KEY); } catch { /* ignore */ }
}

/**
 * Forgets who used this browser (logging out): its token (seats, host
 * rights) and the name it played under, so the next person at a shared
 * computer starts as a new guest with an empty name box. The language,
 * sound and board settings stay: they are the browser's, not a person's.
 * (The account's cosmetics go with `applyCosmetics(null)`, the sign-in
 * hint with http.js's `announceAccount(null)`.)
 */
export function forgetPerson() {
  for (const key of [TOKEN_KEY, NAME_KEY]) {
    try { localStorage.removeItem(key); } catch { /* ignore */ }
  }
}

/** An error answered by the server (or by the socket layer itself). */
export class CommandError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const COMMAND_TIMEOUT_MS = 15000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 15000;

export class RoomSocket {
  /**
   * @param {string} code room code
   * @param {object} handlers
   *   onSnapshot(msg)  a full snapshot: replace everything
   *   onEvent(msg)     a room event in version order
   *   onStatus(status, info)  'connecting' | 'online' | 'offline' ({retryInMs, at, code, reason})
   *   onError(err)     an error not tied to a pending command (id null)
   *   onHello(ack)     the hello ack: {token, member}
   *   onRefused(err)   the hello was refused for good (`room_full`, `removed`); the socket stopped
   *   onNoRoom()       the room does not exist (any more); the socket stopped
   *   onDirect(msg)    a message for this page alone, without a version (`signal`, `hint`)
   *   messages         { disconnected, timeout } texts for local errors
   */
  constructor(code, handlers) {
    this.code = code;
    this.h = handlers;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.version = null; // last room version seen, null before a snapshot
    this.epoch = null; // the run of the room that numbered `version` (from the snapshot)
    this.attempt = 0;
    this.retryTimer = null;
    this.closed = false;
    this.ready = false; // hello answered and snapshot received
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.ready = false;
    // Where this page stood: the room sends what it missed since, if it
    // still has it, instead of a whole snapshot.
    const since = this.epoch && this.version != null ? { epoch: this.epoch, v: this.version } : null;
    this.h.onStatus?.('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      opened = true;
      const hello = { token: storedToken() };
      const name = storedName();
      if (name) hello.name = name;
      if (since) hello.since = since;
      this.send('hello', hello).then(
        (ack) => {
          storeToken(ack.token);
          if (ack.resumed) {
            // The missed events follow, numbered from `version` on.
            this.ready = true;
            this.attempt = 0;
            this.h.onStatus?.('online');
          } else {
            this.version = null; // a snapshot follows
          }
          this.h.onHello?.(ack);
        },
        (err) => {
          if (err.code === 'bad_name') {
            // The stored name was refused: forget it and say hello without it.
            forgetName();
            if (this.ws === ws) this.resync();
            return;
          }
          if (err.code === 'room_full' || err.code === 'removed') {
            // Refused at the door: trying again at once would only be refused again.
            if (this.ws !== ws) return;
            this.close();
            this.h.onRefused?.(err);
            return;
          }
          // A socket closed before the answer: the status says so, and it reconnects.
          if (err.code === 'disconnected') return;
          this.h.onError?.(err);
        },
      );
    });
    ws.addEventListener('message', (e) => {
      if (this.ws !== ws) return;
      this.onMessage(e.data);
    });
    ws.addEventListener('close', (e) => {
      // Any code, the server's (1008, 1011, 1012, 1013, …) or the network's:
      // reconnect and resync from a fresh snapshot.
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPending();
      this.scheduleReconnect({ code: e.code, reason: e.reason });
      if (!opened) this.checkRoom();
    });
    ws.addEventListener('error', () => {
      // A 'close' event always follows; reconnection is handled there.
    });
  }

  onMessage(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === 'error' && msg.id == null && msg.code === 'removed') {
      // The host removed this browser from the room: it stays out until let back in.
      this.close();
      this.h.onRefused?.(new CommandError(msg.code, msg.message));
      return;
    }
    if (msg.type === 'ack' || msg.type === 'error') {
      const p = msg.id == null ? null : this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        clearTimeout(p.timer);
        if (msg.type === 'ack') p.resolve(msg);
        else p.reject(new CommandError(msg.code, msg.message));
      } else if (msg.type === 'error') {
        this.h.onError?.(new CommandError(msg.code, msg.message));
      }
      return;
    }
    if (msg.type === 'snapshot') {
      this.version = msg.v;
      this.epoch = msg.epoch ?? null;
      this.ready = true;
      this.attempt = 0;
      this.h.onStatus?.('online');
      this.h.onSnapshot?.(msg);
      return;
    }
    // A message for this page alone (voice signalling, a hint): no version.
    if (msg.type === 'signal' || msg.type === 'hint') {
      this.h.onDirect?.(msg);
      return;
    }
    if (typeof msg.v !== 'number') return;
    if (this.version == null) return; // events before the snapshot are in it
    if (msg.v <= this.version) return; // already seen
    if (msg.v !== this.version + 1) {
      // Missed an event: start again from a fresh snapshot.
      this.resync();
      return;
    }
    this.version = msg.v;
    this.h.onEvent?.(msg);
  }

  /** Send a command; resolves with the ack, rejects with a CommandError. */
  send(type, fields = {}) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new CommandError('disconnected', this.h.messages?.disconnected ?? 'disconnected'));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) {
          reject(new CommandError('timeout', this.h.messages?.timeout ?? 'timeout'));
        }
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ id, type, ...fields }));
    });
  }

  failPending() {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new CommandError('disconnected', this.h.messages?.disconnected ?? 'disconnected'));
    }
    this.pending.clear();
  }

  resync() {
    const ws = this.ws;
    this.ws = null;
    // A fresh snapshot, not the events since.
    this.epoch = null;
    this.version = null;
    this.failPending();
    try { ws?.close(); } catch { /* ignore */ }
    this.attempt = 0;
    this.connect();
  }

  scheduleReconnect(why = {}) {
    if (this.closed || this.retryTimer) return;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.ready = false;
    this.h.onStatus?.('offline', { retryInMs: delay, at: Date.now() + delay, ...why });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  /** After a refused upgrade: stop and say so if the room does not exist. */
  async checkRoom() {
    if (!this.h.onNoRoom) return;
    let res;
    try {
      res = await fetch(`/api/rooms/${encodeURIComponent(this.code)}`);
    } catch {
      return; // offline: the backoff goes on
    }
    if (res.status !== 404 || this.closed) return;
    const body = await res.json().catch(() => ({}));
    if (body.error !== 'no_room') return;
    this.close();
    this.h.onNoRoom();
  }

  /** Try now instead of waiting for the backoff (e.g. the tab came back). */
  reconnectNow() {
    if (this.closed || this.ws) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  /** Start again after close() or a refusal (the person asked to retry). */
  reopen() {
    this.closed = false;
    this.attempt = 0;
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = null;
    this.failPending();
    try { ws?.close(); } catch { /* ignore */ }
  }
}
