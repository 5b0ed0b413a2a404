// Table manners on the room page: draw offers, rematches, and the host's
// hand on members (out of a seat, out of the room, back in). The server
// decides everything (docs/PROTOCOL.md, "Table manners"); this draws the
// buttons from the room model that room.js keeps, and sends the commands
// through the page's `command` (errors become toasts there).

import { t } from './i18n.js';
import { $, el } from './dom.js';
import { factsOf } from './games/facts.js';
import { offeredSinceMove } from './room/model.js';
import { apartName } from './room/people.js';
import { shownName } from './names.js';

/**
 * What the page passes in: `model`, and helpers `match()`, `mySide()`,
 * `isHost()`, `anyRunning()`, `locked()`, `command(type, fields)`,
 * `atTable()`, `name(member)`.
 */
let ctx = null;
const armed = new Map(); // member id -> timer of a "click again to remove"
// The match and move count at which the server refused an offer with
// `draw_offered` (after a reconnect the page does not know of the earlier one).
let refusedOffer = null;

export function initManners(context) {
  ctx = context;
  $('draw-offer').addEventListener('click', () => ctx.command('draw', { action: 'offer', ...ctx.atTable() }).catch((err) => {
    const m = ctx.match();
    if (err?.code !== 'draw_offered' || !m) return;
    refusedOffer = { id: m.id, moves: m.moves.length };
    renderDraw();
  }));
  $('draw-accept').addEventListener('click', () => ctx.command('draw', { action: 'accept', ...ctx.atTable() }).catch(() => {}));
  $('draw-decline').addEventListener('click', () => ctx.command('draw', { action: 'decline', ...ctx.atTable() }).catch(() => {}));
  $('rematch').addEventListener('click', () => ctx.command('rematch').catch(() => {}));
}

/** Whether the shown game takes draw offers: Jungle, two people (RULES.md §3). */
function drawsAllowed(m) {
  return factsOf(ctx.model.room.game).draws && m.players.length === 2 && !m.players.some((p) => p.computer);
}

export function renderManners() {
  renderDraw();
  renderRematch();
  renderRemoved();
}

function renderDraw() {
  const m = ctx.match();
  const side = ctx.mySide();
  const running = !!m && !m.outcome;
  const offer = running ? (m.draw_offer ?? null) : null;
  const playing = running && side != null && drawsAllowed(m);
  const offerButton = $('draw-offer');
  // The opponent's offer is answered, not matched; one's own (standing, or
  // declined since the last move) leaves the button there, disabled.
  offerButton.hidden = !playing || (offer != null && offer !== side);
  const refused = refusedOffer?.id === m?.id && refusedOffer?.moves === m?.moves.length;
  const wait = playing && (offer === side || offeredSinceMove(m, side) || refused);
  offerButton.disabled = wait;
  if (wait) offerButton.title = t('draw.after_next_move');
  else offerButton.removeAttribute('title');
  const box = $('draw-box');
  box.hidden = offer == null;
  box.dataset.side = offer == null ? '' : String(offer);
  if (offer == null) return;
  const mine = offer === side;
  const who = ctx.name(m.players[offer]?.member) ?? '?';
  $('draw-text').textContent = mine ? t('draw.you_offered') : t('draw.offered', { name: who });
  const answer = playing && !mine;
  $('draw-accept').hidden = !answer;
  $('draw-decline').hidden = !answer;
}

function renderRematch() {
  const { room, you } = ctx.model;
  const last = ctx.match();
  const button = $('rematch');
  const knockout = (room.options?.mode ?? 'single') === 'knockout';
  const played = !!last?.outcome && last.players.some((p) => p.member === you.member)
    || !!last?.outcome && (last.teams ?? []).flat().some((p) => p.member === you.member);
  // Against the computer the host's "Play again" does what a rematch would: one button, not two.
  // (In a team game the computer may sit in a team: every seat counts.)
  const seatedAll = (last?.teams ?? last?.players.map((p) => [p]) ?? []).flat().filter(Boolean);
  const hostPlaysAgain = played && ctx.isHost() && seatedAll.some((p) => p.computer);
  const show = played && !knockout && !ctx.anyRunning() && !hostPlaysAgain;
  button.hidden = !show;
  if (!show) return;
  const people = (last.teams ?? last.players.map((p) => [p])).flat().filter((p) => !p.computer);
  const asked = (room.rematch ?? []).filter((id) => people.some((p) => p.member === id));
  const mine = asked.includes(you.member);
  button.disabled = mine;
  button.dataset.asked = String(asked.length);
  button.textContent = mine
    ? t('rematch.waiting', { n: asked.length, of: people.length })
    : asked.length ? t('rematch.join', { n: asked.length, of: people.length }) : t('rematch.ask');
}

/** The host's list of removed members, each with "Let back in". */
function renderRemoved() {
  const list = ctx.model.room.removed ?? [];
  const show = ctx.isHost() && list.length > 0;
  $('removed-box').hidden = !show;
  if (!show) {
    $('removed-list').replaceChildren();
    return;
  }
  $('removed-list').replaceChildren(...list.map((r) => el('li', { 'data-testid': `removed-${r.member}` },
    el('span', { class: 'member-name', text: r.name != null ? apartName(ctx.model, r.member, shownName(r.name)) : t('members.guest') }), ' ',
    el('button', {
      type: 'button', class: 'small', 'data-testid': `readmit-${r.member}`, text: t('manage.readmit'),
      onclick: () => ctx.command('readmit', { member: r.member }).catch(() => {}),
    }))));
}

/** The host's buttons on a member of the list: out of the seat, out of the room. */
export function memberActions(m) {
  const { you } = ctx.model;
  if (!ctx.isHost() || m.computer || m.id === you.member) return [];
  const out = [];
  if (m.seat != null && !ctx.locked()) {
    out.push(el('button', {
      type: 'button', class: 'small', 'data-testid': `unseat-${m.id}`, text: t('manage.unseat'),
      onclick: () => ctx.command('unseat', { member: m.id }).catch(() => {}),
    }));
  }
  // The host role, given to another person (who may give it back);
  // never in a solo room, whose role stays its host's (`solo_room`).
  if (!ctx.solo?.()) {
    out.push(el('button', {
      type: 'button', class: 'small', 'data-testid': `make-host-${m.id}`, text: t('manage.make_host'),
      onclick: () => ctx.command('host', { member: m.id }).catch(() => {}),
    }));
  }
  const remove = el('button', {
    type: 'button', class: `small danger${armed.has(m.id) ? ' armed' : ''}`, 'data-testid': `remove-${m.id}`,
    text: t(armed.has(m.id) ? 'manage.remove_confirm' : 'manage.remove'),
    onclick: (e) => {
      if (!armed.has(m.id)) {
        armed.set(m.id, setTimeout(() => { armed.delete(m.id); e.target.textContent = t('manage.remove'); e.target.classList.remove('armed'); }, 4000));
        e.target.textContent = t('manage.remove_confirm');
        e.target.classList.add('armed');
        return;
      }
      clearTimeout(armed.get(m.id));
      armed.delete(m.id);
      ctx.command('remove', { member: m.id }).catch(() => {});
    },
  });
  // A player of a running game is not removed (the server refuses it):
  // no button until the game ends.
  if (m.seat == null || !ctx.locked()) out.push(remove);
  return out;
}
