// One click from the lobby: /r/CODE?sit=1 sits this browser in the first
// free seat once the room's snapshot arrives (if it has a name and no
// seat yet), then drops the parameter so a reload does not sit again.

import { send } from './page.js';

/** After a snapshot: sit if the address asks to. */
export function sitIfAsked(model) {
  const params = new URLSearchParams(location.search);
  if (params.get('sit') !== '1') return;
  params.delete('sit');
  const rest = params.toString();
  history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
  const you = model.you ?? {};
  if (you.seat != null || !(you.name || you.account)) return;
  const taken = new Set((model.room.members ?? []).filter((m) => m.seat != null).map((m) => m.seat));
  for (let seat = 0; seat < (model.room.seats ?? 0); seat += 1) {
    if (!taken.has(seat)) {
      send('sit', { seat });
      return;
    }
  }
}
