// What a room event does besides drawing: the sound of a move or a start
// (and the board brought into view for a player whose game starts), the
// "your turn" notification in a hidden tab, and the low-time sound once a
// turn when under ten seconds are left on one's own clock.

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { moveSound, play } from '../sounds.js';
import { notifyHidden } from '../notify.js';
import { page } from './page.js';
import { shownMatch, clockLeft } from './model.js';

/** Under this much time left on one's own clock, the low-time sound plays (once a turn). */
const LOW_TIME_MS = 10_000;

const said = { lowTime: null, notified: null }; // the turn (match id and ply) each was last given for

const turnOf = (m) => `${m.id}:${m.ply ?? m.state?.ply}`;
const myTurn = (m, you) => !m.outcome && m.to_play != null && m.to_play === you?.member;

/** A `match` event of the shown table (model.js's `cue` effect). */
export function cue(model, ev, m) {
  const me = model.you?.member;
  if (ev.kind === 'start') {
    play('start');
    if (m.players.some((p) => p.member === me)) $('board')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  } else {
    if (ev.move) play(moveSound(ev.move));
    if (m.outcome) play('end');
    else if (m.to_play != null && m.to_play === me && ev.move) play('turn');
  }
  // A notification when this person's turn comes while the tab is hidden (if they turned it on).
  if (!myTurn(m, model.you) || said.notified === turnOf(m)) return;
  said.notified = turnOf(m);
  notifyHidden(t('notify.title'), t('notify.body', { code: page.code }), `bg-turn-${page.code}`);
}

/** The low-time sound, once a turn: under 10 s left on this person's own running clock or turn timer. */
export function lowTimeCue(model, now) {
  const m = shownMatch(model);
  if (!m || !model.clock || m.outcome || model.clock.running == null || !myTurn(m, model.you)) return;
  const ms = clockLeft(model, model.clock.running, now);
  if (ms > 0 && ms < LOW_TIME_MS && said.lowTime !== turnOf(m)) {
    said.lowTime = turnOf(m);
    play('low_time');
  }
}
