// Voice chat on the room page: a WebRTC audio mesh among the people in
// voice (docs/PROTOCOL.md, "Voice chat"). The server keeps the list of who
// is in voice (speakers, listeners, who is muted) and relays the
// signalling (`signal`: offer, answer, ICE candidate) to the member it
// names; the audio goes browser to browser. Between two members of the
// list one peer connection carries audio whenever at least one of them
// speaks; the member with the lower number makes the offer, so two offers
// never cross.
//
// Who is speaking is measured here, per stream, with an AnalyserNode.
// Everything testable is on the list's items: data-peer (the peer
// connection's connectionState), data-track (the remote track's
// readyState), data-muted, data-speaking.

import { t } from './i18n.js';
import { $, el } from './dom.js';

let ctx = null;
let joined = false; // this page asked to be in voice
let joining = false;
let localStream = null;
let audio = null; // the AudioContext of the speaking meters
let iceServers = [];
let meter = null;
// A peer connection could not be made (the browser refused the ICE
// servers, say): said once, shown in the hint, until voice is left.
let peerFailed = false;
const peers = new Map(); // member id -> { pc, initiator, audio, stream, track, pending, sending, level }
let localLevel = 0;

const SPEAKING_LEVEL = 0.02; // RMS of the signal above which someone speaks
// A speaker stays marked this long after their level drops: speech has
// gaps between syllables, and a meter read every 150 ms would otherwise
// flicker (and could miss a short sound altogether).
const SPEAKING_HOLD_MS = 600;
const loudAt = new Map(); // member id -> when their level was last above SPEAKING_LEVEL

function number(id) {
  return Number(String(id).slice(1));
}

function you() {
  return ctx.model.you?.member ?? null;
}

function list() {
  return ctx.model.room?.voice ?? [];
}

function mine() {
  return list().find((v) => v.member === you()) ?? null;
}

export function initVoice(context) {
  ctx = context;
  $('voice-join').addEventListener('click', join);
  $('voice-leave').addEventListener('click', leave);
  $('voice-mute').addEventListener('click', () => {
    const me = mine();
    if (!me) return;
    ctx.command('mute', { muted: !me.muted }).catch(() => {});
  });
  // The STUN/TURN servers the operator configured (none: the local network).
  fetch('/api/site').then((r) => (r.ok ? r.json() : null)).then((site) => {
    if (Array.isArray(site?.ice_servers)) iceServers = site.ice_servers;
  }).catch(() => {});
}

async function join() {
  if (joining) return;
  if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia || !window.RTCPeerConnection) {
    ctx.toast?.(t('voice.unsupported'));
    renderVoice();
    return;
  }
  joining = true;
  try {
    // Listening needs no microphone; speaking does. Ask for it while the
    // click still counts as the person's gesture.
    const speakers = list().filter((v) => v.speaker).length;
    if (speakers < 8 && !localStream) {
      localStream = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
    }
    audio ??= new AudioContext();
    audio.resume?.().catch(() => {});
    joined = true;
    await ctx.command('voice', { join: true });
  } catch (err) {
    if (err?.name === 'NotAllowedError' || err?.name === 'NotFoundError') ctx.toast?.(t('voice.no_mic'));
    joined = false;
    stopLocal();
  } finally {
    joining = false;
    sync();
    renderVoice();
  }
}

async function leave() {
  joined = false;
  peerFailed = false;
  closeAll();
  stopLocal();
  renderVoice();
  await ctx.command('voice', { join: false }).catch(() => {});
}

function stopLocal() {
  for (const track of localStream?.getTracks() ?? []) track.stop();
  localStream = null;
}

function closePeer(id) {
  const p = peers.get(id);
  if (!p) return;
  peers.delete(id);
  try { p.pc.close(); } catch { /* closed */ }
  p.audio.srcObject = null;
  p.audio.remove();
}

function closeAll() {
  for (const id of [...peers.keys()]) closePeer(id);
}

/** A fresh snapshot (a reconnect): the room forgot this page's voice; join again. */
export function voiceSnapshot() {
  if (!joined) return;
  closeAll();
  if (!mine()) ctx.command('voice', { join: true }).catch(() => { joined = false; stopLocal(); renderVoice(); });
}

function send(to, body) {
  ctx.command('signal', { to, ...body }).catch(() => {});
}

/** The level of `stream` (RMS), read with an AnalyserNode. */
function analyse(stream) {
  if (!audio || !stream) return null;
  try {
    const source = audio.createMediaStreamSource(stream);
    const analyser = audio.createAnalyser();
    analyser.fftSize = 2048; // about 43 ms of sound at 48 kHz
    source.connect(analyser);
    const data = new Uint8Array(analyser.fftSize);
    return () => {
      analyser.getByteTimeDomainData(data);
      let sum = 0;
      for (const v of data) sum += ((v - 128) / 128) ** 2;
      return Math.sqrt(sum / data.length);
    };
  } catch {
    return null;
  }
}

let localMeter = null;

function startMeter() {
  if (meter) return;
  meter = setInterval(() => {
    if (!joined) return;
    if (localStream && !localMeter) localMeter = analyse(localStream);
    localLevel = localMeter ? localMeter() : 0;
    for (const p of peers.values()) {
      if (p.stream && !p.meter) p.meter = analyse(p.stream);
      p.level = p.meter ? p.meter() : 0;
    }
    markSpeaking();
  }, 150);
}

/** A peer connection to `id`, or `null` if the browser refuses to make one. */
function createPeer(id, initiator) {
  let pc;
  try {
    pc = new RTCPeerConnection({ iceServers });
  } catch (err) {
    console.warn('voice: no peer connection', err);
    if (!peerFailed) ctx.toast?.(t('voice.peer_failed'));
    peerFailed = true;
    return null;
  }
  const player = el('audio', { autoplay: true, 'data-member': id, hidden: true });
  document.body.append(player);
  const p = { pc, initiator, audio: player, stream: null, track: null, pending: [], sending: false, level: 0, meter: null };
  peers.set(id, p);
  pc.addEventListener('icecandidate', (e) => {
    if (e.candidate && e.candidate.candidate) {
      send(id, { kind: 'candidate', candidate: e.candidate.candidate, mid: e.candidate.sdpMid, line: e.candidate.sdpMLineIndex });
    }
  });
  pc.addEventListener('track', (e) => {
    p.track = e.track;
    p.stream = e.streams[0] ?? new MediaStream([e.track]);
    p.meter = null;
    player.srcObject = p.stream;
    player.play?.().catch(() => {});
    e.track.addEventListener('ended', renderVoice);
    renderVoice();
  });
  pc.addEventListener('connectionstatechange', renderVoice);
  if (initiator) {
    if (!addLocal(p)) pc.addTransceiver('audio', { direction: 'recvonly' });
    pc.createOffer()
      .then((offer) => pc.setLocalDescription(offer))
      .then(() => send(id, { kind: 'offer', sdp: pc.localDescription.sdp }))
      .catch(() => closePeer(id));
  }
  return p;
}

/** Sends this page's microphone on `p`, if it speaks; whether it does. */
function addLocal(p) {
  const me = mine();
  if (p.sending || !localStream || !me?.speaker) return p.sending;
  for (const track of localStream.getTracks()) p.pc.addTrack(track, localStream);
  p.sending = true;
  return true;
}

async function flush(p) {
  const queued = p.pending;
  p.pending = [];
  for (const c of queued) await p.pc.addIceCandidate(c).catch(() => {});
}

/** A `signal` relayed from another member (unversioned, for this page alone). */
export async function onVoiceSignal(msg) {
  if (!joined || !mine()) return;
  const from = msg.from;
  try {
    if (msg.kind === 'offer') {
      // A new offer replaces whatever was there (the other side started again).
      if (peers.has(from) && peers.get(from).pc.remoteDescription) closePeer(from);
      const p = peers.get(from) ?? createPeer(from, false);
      if (!p) throw new Error('no peer connection');
      await p.pc.setRemoteDescription({ type: 'offer', sdp: msg.sdp });
      addLocal(p);
      const answer = await p.pc.createAnswer();
      await p.pc.setLocalDescription(answer);
      send(from, { kind: 'answer', sdp: p.pc.localDescription.sdp });
      await flush(p);
    } else if (msg.kind === 'answer') {
      const p = peers.get(from);
      if (!p || p.pc.signalingState !== 'have-local-offer') return;
      await p.pc.setRemoteDescription({ type: 'answer', sdp: msg.sdp });
      await flush(p);
    } else if (msg.kind === 'candidate') {
      const p = peers.get(from);
      if (!p) return;
      const c = { candidate: msg.candidate, sdpMid: msg.mid ?? null, sdpMLineIndex: msg.line ?? null };
      if (p.pc.remoteDescription) await p.pc.addIceCandidate(c).catch(() => {});
      else p.pending.push(c);
    }
  } catch {
    closePeer(from);
  }
  renderVoice();
}

/** Brings the peer connections in line with the room's voice list. */
function sync() {
  const me = mine();
  if (!joined || !me) {
    if (!joined) closeAll();
    return;
  }
  startMeter();
  const wanted = new Set();
  for (const v of list()) {
    if (v.member === me.member || !(me.speaker || v.speaker)) continue;
    wanted.add(v.member);
    if (!peers.has(v.member) && number(me.member) < number(v.member)) createPeer(v.member, true);
  }
  for (const id of [...peers.keys()]) if (!wanted.has(id)) closePeer(id);
  // Muted by oneself or by the host: the microphone sends silence.
  const silent = me.muted || me.host_muted;
  for (const track of localStream?.getAudioTracks() ?? []) track.enabled = !silent;
  for (const v of list()) {
    const p = peers.get(v.member);
    if (p) p.audio.muted = !!v.host_muted;
  }
}

function markSpeaking() {
  for (const item of $('voice-list').children) {
    const id = item.dataset.member;
    const v = list().find((x) => x.member === id);
    const level = id === you() ? localLevel : (peers.get(id)?.level ?? 0);
    const now = performance.now();
    if (level > SPEAKING_LEVEL) loudAt.set(id, now);
    const loud = now - (loudAt.get(id) ?? -Infinity) < SPEAKING_HOLD_MS;
    const speaking = !!v && !v.muted && !v.host_muted && loud;
    if (item.dataset.speaking !== String(speaking)) {
      item.dataset.speaking = String(speaking);
      item.classList.toggle('speaking', speaking);
    }
  }
}

export function renderVoice() {
  if (!ctx?.model.room) return;
  sync();
  const me = mine();
  const inVoice = joined && !!me;
  const supported = window.isSecureContext && !!navigator.mediaDevices?.getUserMedia && !!window.RTCPeerConnection;
  $('voice-join').hidden = inVoice;
  $('voice-join').disabled = joining || !supported;
  $('voice-leave').hidden = !inVoice;
  const mute = $('voice-mute');
  mute.hidden = !inVoice || !me.speaker;
  if (inVoice) {
    mute.textContent = t(me.muted ? 'voice.unmute' : 'voice.mute');
    mute.setAttribute('aria-pressed', String(!!me.muted));
    mute.disabled = !!me.host_muted;
  }
  let hint;
  if (!supported) hint = t('voice.unsupported');
  else if (inVoice && peerFailed) hint = t('voice.peer_failed');
  else if (!inVoice) hint = list().length ? t('voice.hint_others', { n: list().length }) : t('voice.hint');
  else if (me.host_muted) hint = t('voice.host_muted_you');
  else if (!me.speaker) hint = t('voice.listener_hint');
  else hint = '';
  $('voice-hint').textContent = hint;
  const host = ctx.isHost();
  $('voice-list').replaceChildren(...list().map((v) => {
    const p = peers.get(v.member);
    const isMe = v.member === you();
    const bits = [
      el('span', { class: 'voice-dot', 'aria-hidden': 'true' }),
      el('span', { class: 'member-name', text: ctx.name(v.member) }),
    ];
    if (isMe) bits.push(el('span', { class: 'badge you', text: t('members.you') }));
    if (!v.speaker) bits.push(el('span', { class: 'badge', text: t('voice.listener') }));
    if (v.host_muted) bits.push(el('span', { class: 'badge muted', 'data-testid': `voice-host-muted-${v.member}`, text: t('voice.host_muted') }));
    else if (v.muted) bits.push(el('span', { class: 'badge muted', 'data-testid': `voice-muted-${v.member}`, text: t('voice.muted') }));
    if (!isMe && inVoice && p) {
      const state = p.pc.connectionState;
      bits.push(el('span', { class: `badge peer-${state}`, text: t(state === 'connected' ? 'voice.connected' : 'voice.connecting') }));
    }
    if (host && !isMe) {
      bits.push(el('button', {
        type: 'button', class: 'small', 'data-testid': `voice-host-mute-${v.member}`,
        text: t(v.host_muted ? 'voice.host_unmute' : 'voice.host_mute'),
        onclick: () => ctx.command('voice_mute', { member: v.member, muted: !v.host_muted }).catch(() => {}),
      }));
    }
    return el('li', {
      'data-testid': `voice-${v.member}`,
      class: 'voice-member',
      dataset: {
        member: v.member,
        you: String(isMe),
        speaker: String(!!v.speaker),
        muted: String(!!(v.muted || v.host_muted)),
        hostMuted: String(!!v.host_muted),
        speaking: 'false',
        peer: p ? p.pc.connectionState : '',
        track: p?.track ? p.track.readyState : '',
      },
    }, ...bits);
  }));
  markSpeaking();
}
