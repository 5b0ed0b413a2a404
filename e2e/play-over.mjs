// Two people finish a game over the room's own protocol, in a page of
// the site (two sockets: hello, sit, start, the moves chosen, a
// resignation): the quickest way for a browser test to have finished
// games to replay or analyse.

/**
 * In `page` (on the site at `base`), two people play `games` games of `game` over the
 * room protocol (PROTOCOL.md) in a new room, or in `room` (from an earlier
 * call): each ply the mover plays `choose(legal, ply)` (until a move
 * ends the game), then side 1 resigns a game still running. Returns `{ids, id, room}`: the games' ids (`id` the last one)
 * and the room with both people's tokens, to play on in it.
 */
export async function playOverOn(base, page, game, plies, choose, { games = 1, room = null } = {}) {
  await page.goto(`${base}/games`);
  return page.evaluate(async ({ game, plies, choose, games, room }) => {
    const pick = new Function('legal', 'ply', `return (${choose})(legal, ply);`);
    let where = room;
    if (!where) {
      const res = await fetch('/api/rooms', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game }),
      });
      const { code, token } = await res.json();
      where = { code, tokens: [token, `guest-${crypto.randomUUID()}`] };
    }
    const connect = (tok, name) => new Promise((resolve, reject) => {
      const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/${where.code}`);
      const answers = new Map();
      const matches = [];
      // The match as this socket holds it: a `move` event carries only
      // what changed (PROTOCOL.md), applied as the room page does.
      let held = null;
      let wake = () => {};
      let id = 0;
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === 'ack' || msg.type === 'error') answers.get(msg.id)?.(msg);
        if (msg.type === 'match') {
          held = msg.kind === 'move'
            ? { ...held, ...msg.match, moves: [...held.moves, msg.move], legal: msg.match.legal ?? [] }
            : msg.match;
          matches.push(held);
          wake();
        }
      };
      ws.onerror = () => reject(new Error('socket failed'));
      const send = (cmd) => new Promise((ok, fail) => {
        id += 1;
        answers.set(id, (m) => (m.type === 'ack' ? ok(m) : fail(new Error(`${cmd.type}: ${m.message}`))));
        ws.send(JSON.stringify({ id, ...cmd }));
      });
      const nextMatch = async () => {
        while (!matches.length) await new Promise((r) => { wake = r; });
        return matches.shift();
      };
      ws.onopen = async () => {
        await send({ type: 'hello', token: tok, name });
        resolve({ send, nextMatch, close: () => ws.close() });
      };
    });
    const host = await connect(where.tokens[0], 'Minh');
    const guest = await connect(where.tokens[1], 'Lan');
    if (!room) {
      await host.send({ type: 'autostart', enabled: false });
      await host.send({ type: 'sit', seat: 0 });
      await guest.send({ type: 'sit', seat: 1 });
    }
    const ids = [];
    for (let g = 0; g < games; g++) {
      await host.send({ type: 'start', order: 'seats' });
      const fresh = async (p) => {
        let x = await p.nextMatch();
        while (x.outcome || x.moves.length) x = await p.nextMatch(); // the last game's end, if it is still queued
        return x;
      };
      let m = await fresh(host);
      await fresh(guest);
      for (let ply = 0; ply < plies && !m.outcome; ply++) {
        await (ply % 2 ? guest : host).send({ type: 'move', move: pick(m.legal, ply) });
        const copies = [await host.nextMatch(), await guest.nextMatch()];
        // The next mover's copy: a long legal list (Quoridor's) is only in theirs.
        m = copies.find((c) => c.outcome) ?? copies[(ply + 1) % 2];
        // A move that ended the game: its end, if it comes after the move.
        if (!m.outcome && !m.legal?.length) do m = await host.nextMatch(); while (!m.outcome);
      }
      // Side 1 resigns a game the moves did not end.
      if (!m.outcome) await guest.send({ type: 'resign' });
      while (!m.outcome) m = await host.nextMatch();
      ids.push(m.id);
    }
    host.close();
    guest.close();
    return { ids, id: ids[ids.length - 1], room: where };
  }, { game, plies, choose: choose.toString(), games, room });
}
