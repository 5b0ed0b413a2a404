// One click from the lobby: /r/CODE?sit=1 sits this browser in the first
// free seat once the room's snapshot arrives (if it has a name and no
// seat yet), then drops the parameter so a reload does not sit again. A
// guest without a name yet is seated as soon as they give one.

import { send } from './page.js';

/** Whether the address asked to sit and this page has not yet. */
let pending = false;

/** After a snapshot or an event: sit if the address asked to. */
export function sitIfAsked(model) {
  const params = new URLSearchParams(location.search);
  if (params.get('sit') === '1') {
    pending = true;
    params.delete('sit');
    const rest = params.toString();
    history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
  }
  if (!pending || !model.room) return;
  const you = model.you ?? {};
  if (you.seat != null) {
    pending = false;
    return;
  }
  // No name yet: the name panel asks for one; the seat comes with it.
  if (!(you.name || you.account)) return;
  pending = false;
  const taken = new Set((model.room.members ?? []).filter((m) => m.seat != null).map((m) => m.seat));
  for (let seat = 0; seat < (model.room.seats ?? 0); seat += 1) {
    if (!taken.has(seat)) {
      send('sit', { seat });
      return;
    }
  }
}
