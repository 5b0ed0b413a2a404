// The room page (/r/CODE), split as chessground splits a board: the model
// and its pure transitions (room/model.js), one render module per panel
// (room/*.js), drawn by a scheduler that batches redraws on animation
// frames and draws only the panels whose part of the model changed
// (room/scheduler.js), and the forms apart (room/forms.js). This file
// wires them: socket → model → effects and panels.
//
// A room owns one or more tables, each with its own match; the page shows
// one of them (tables.js: where the viewer plays, else the first) and
// keeps the others up to date in the model only. A knockout room
// (bracket.js) plays a round's matches at once, one table each: the page
// shows either the bracket or one table, a player's own running match by
// default; anyone can open a table from the bracket and come back.

import { sitIfAsked } from './room/sit-param.js';
import { t, initI18n, onLangChange } from './i18n.js';
import { setAskOwnGoal, askOwnGoal } from './settings.js';
import { muted, setMuted } from './sounds.js';
import { notifyOn, toggleNotify } from './notify.js';
import { RoomSocket } from './socket.js';
import { fillOptionSelects } from './options.js';
import { loadMe } from './coins.js';
import { $, copyText } from './dom.js';
import { initManners, renderManners } from './manners.js';
import { initVoice, renderVoice, onVoiceSignal, voiceSnapshot } from './voice.js';
import { page, update, toast, errorText, command } from './room/page.js';
import * as model from './room/model.js';
import { createScheduler } from './room/scheduler.js';
import { headerPanel, drawHeader, drawConn, drawMute, drawNotify } from './room/header.js';
import { tournamentPanel, initTournament } from './room/tournament.js';
import { seatsPanel } from './room/seats.js';
import { membersPanel } from './room/members.js';
import { invitePanel } from './room/invite.js';
import { optionsPanel, optionSelects } from './room/options-panel.js';
import { scoresPanel } from './room/scores.js';
import { chatPanel, chatDrawerClosed, openChat } from './room/chat.js';
import { playersPanel, tickClocks } from './room/players.js';
import { turnPanel } from './room/turn.js';
import { boardPanel, ownGoalPanel } from './room/board.js';
import { resultPanel } from './room/result.js';
import { actionsPanel, tickCountdown, wireActions, fillStartOrder } from './room/actions.js';
import { movesPanel } from './room/moves.js';
import { awayPanel, tickAway, wireAway } from './room/away.js';
import { takebackPanel, wireTakeback } from './room/takeback.js';
import { hintPanel, wireHint, onHint } from './room/hint.js';
import { lookbackPanel, wireLookback } from './room/lookback.js';
import { rulesPanel, wireRules } from './room/rules-dialog.js';
import { pastGamesPanel, drawPastGames, wirePastGames } from './room/past-games.js';
import { namePanel, wireForms } from './room/forms.js';
import { cue, lowTimeCue } from './room/cues.js';
import { personName, noticeLine } from './room/people.js';

// The model as the older modules (manners.js, voice.js) read it: always the current one.
const live = {
  get room() { return page.model.room; },
  get you() { return page.model.you; },
};
const current = (fn) => () => fn(page.model);

const mannersPanel = {
  name: 'manners',
  slice: (m) => [model.shownMatch(m), m.room.rematch, m.room.removed, m.room.options, m.room.game, m.room.tables, m.room.members, m.you, model.isHost(m), model.isSolo(m), model.sameNames(m.room).key],
  draw: () => renderManners(),
};
const voicePanel = { name: 'voice', slice: (m) => [m.room.voice, m.room.members, m.you, model.isHost(m)], draw: () => renderVoice() };

const shown = new Set(); // the errors of panels already told (once each)
const scheduler = createScheduler([
  rulesPanel, headerPanel, tournamentPanel, namePanel, seatsPanel, membersPanel, invitePanel, optionsPanel,
  scoresPanel, chatPanel, playersPanel, turnPanel, lookbackPanel, boardPanel, ownGoalPanel, resultPanel, actionsPanel, movesPanel,
  mannersPanel, voicePanel, pastGamesPanel, awayPanel, takebackPanel, hintPanel,
], () => page.model, (err) => {
  console.error(err);
  // A game this page does not know is said once, in the page's language (the board says it too).
  if (err.name !== 'UnknownGame' || shown.has(err.game)) return;
  shown.add(err.game);
  toast(t('room.unknown_game', { game: String(err.game) }), 'error', 'unknown_game', 60_000);
});
page.changed = () => scheduler.schedule();

let conn = { state: 'connecting', at: 0 };
let refusal = null; // the room refused the hello (room_full): the socket stopped

/** The page's part of what a transition left to do (model.js: effects). */
function perform(effects) {
  for (const fx of effects) {
    if (fx.kind === 'resync') page.socket.resync();
    else if (fx.kind === 'cue') cue(page.model, fx.ev, fx.match);
    else if (fx.kind === 'toast') toast(noticeLine(fx, page.model), 'info', fx.code, fx.ms ?? null);
    else if (fx.kind === 'snapshot') voiceSnapshot();
  }
}

function onMessage(msg) {
  update((m) => model.apply(m, msg, { at: performance.now(), drawerClosed: msg.type === 'chat' && chatDrawerClosed() }));
  perform(page.model.effects);
  // A lobby Join waiting for the guest's name sits once it is given.
  if (msg.type === 'members') sitIfAsked(page.model);
}

function onSnapshot(msg) {
  $('loading').hidden = true;
  $('room-main').hidden = false;
  onMessage(msg);
  sitIfAsked(page.model);
}

/** Open table `id` from the bracket. */
function watchTable(id) {
  update((m) => model.watchTable(m, id, performance.now()));
  scheduler.flush();
  $('bracket-back').focus();
}

/** Back from a table to the bracket. */
function showBracket() {
  const from = page.model.tableId;
  update(model.showBracket);
  scheduler.flush();
  const button = document.querySelector(`[data-testid="watch"][data-table="${from}"]`);
  (button ?? $('bracket-title')).focus();
}

function wireButtons() {
  initManners({
    model: live, match: current(model.shownMatch), mySide: current(model.mySide), isHost: current(model.isHost),
    anyRunning: current(model.anyRunning), locked: current(model.locked), solo: current(model.isSolo), command, atTable: current(model.atTable),
    name: (id) => personName(page.model, id),
  });
  initVoice({ model: live, command, isHost: current(model.isHost), toast, name: (id) => personName(page.model, id) });
  initTournament(watchTable);
  wireActions();
  wireAway();
  wireTakeback();
  wireHint();
  wireRules();
  wirePastGames();
  wireLookback();
  wireForms(() => scheduler.flush());
  $('ask-own-goal').checked = askOwnGoal();
  $('ask-own-goal').addEventListener('change', (e) => setAskOwnGoal(e.target.checked));
  $('mute').addEventListener('click', () => {
    setMuted(!muted());
    drawMute();
  });
  $('chat-fab').addEventListener('click', () => openChat(true));
  $('chat-close').addEventListener('click', () => openChat(false));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && document.body.classList.contains('chat-open')) openChat(false);
  });
  $('notify').addEventListener('click', async () => {
    const was = notifyOn();
    const now = await toggleNotify();
    drawNotify();
    if (now === 'denied') toast(t('notify.denied'), 'error');
    else if (now === 'on' && !was) toast(t('notify.enabled'), 'info');
  });
  $('bracket-back').addEventListener('click', showBracket);
  $('copy-position').addEventListener('click', async () => {
    if (await copyText($('position-string').textContent)) toast(t('position.copied'), 'info');
    else {
      toast(t('position.copy_failed'));
      getSelection().selectAllChildren($('position-string'));
    }
  });
  $('copy-link').addEventListener('click', async () => {
    if (await copyText($('invite-link').href)) toast(t('invite.copied'), 'info');
    else {
      toast(t('invite.copy_failed'));
      getSelection().selectAllChildren($('invite-link'));
    }
  });
}

async function init() {
  initI18n($('lang'));
  loadMe();
  drawHeader(page.model);
  drawMute();
  drawNotify();
  drawConn(conn);
  if (!/^[A-Z0-9]{6}$/.test(page.code)) {
    showNotFound();
    return;
  }
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(page.code)}`);
    if (res.status === 404) {
      showNotFound();
      return;
    }
  } catch { /* the socket will retry */ }

  wireButtons();
  page.socket = new RoomSocket(page.code, {
    messages: { disconnected: t('error.disconnected'), timeout: t('error.timeout') },
    onStatus(state, info) {
      conn = { state, at: info?.at ?? 0 };
      drawConn(conn);
      // Signed out elsewhere (4001): the header's coins and the account's
      // boards go with the session (a signed-out page uses the defaults).
      if (info?.code === 4001) loadMe();
    },
    onSnapshot,
    onEvent: onMessage,
    onDirect(msg) {
      if (msg.type === 'signal') onVoiceSignal(msg);
      else if (msg.type === 'hint') onHint(msg);
    },
    onError(err) {
      toast(errorText(err), 'error', err.code ?? null);
    },
    onNoRoom: showNotFound,
    onRefused(err) {
      refusal = err;
      conn = { state: 'refused', at: 0 };
      drawConn(conn);
      drawRefused();
    },
  });
  page.socket.connect();

  setInterval(() => {
    const now = performance.now();
    if (page.model.room) {
      tickClocks(page.model, now);
      lowTimeCue(page.model, now);
      tickCountdown(page.model, now);
      tickAway(page.model, now);
    }
    if (conn.state === 'offline') drawConn(conn);
  }, 100);
  $('refused-retry').addEventListener('click', () => {
    refusal = null;
    drawRefused();
    $('loading').hidden = false;
    page.socket.reopen();
  });
  window.addEventListener('online', () => page.socket.reconnectNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') page.socket.reconnectNow();
  });
  onLangChange(() => {
    fillOptionSelects(optionSelects());
    fillStartOrder();
    drawConn(conn);
    drawMute();
    drawNotify();
    drawRefused();
    drawHeader(page.model);
    scheduler.redrawAll();
    drawPastGames();
  });
}

/** The room refused this browser (it is full): say so instead of retrying forever. */
function drawRefused() {
  $('refused').hidden = !refusal;
  $('refused-text').textContent = refusal ? errorText(refusal) : '';
  if (refusal) {
    $('loading').hidden = true;
    $('room-main').hidden = true;
  }
}

/** The room does not exist (or no longer does): say so, with the way home, in the page's language. */
function showNotFound() {
  $('loading').hidden = true;
  $('room-main').hidden = true;
  $('chat-fab').hidden = true;
  $('not-found').hidden = false;
  conn = { state: 'gone', at: 0 };
  const draw = () => {
    drawConn(conn);
    $('not-found-text').textContent = t('room.not_found', { code: page.code });
  };
  draw();
  onLangChange(draw);
}

init();
