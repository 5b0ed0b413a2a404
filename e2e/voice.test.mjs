// Browser test of voice chat: two players in a room join voice in
// chromium with a fake microphone; each page must show a connected peer
// connection with a live remote audio track for the other (the voice
// list's data-peer and data-track, read from the RTCPeerConnection and
// its track), see the other speak (the fake device's tone, measured with
// an AnalyserNode), and see the other's mute.
//
//   SERVER_BIN=../target/debug/server node --test voice.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { byId, memberOf, openAsHost, setName, siteForTests, STEP_MS } from './harness.mjs';

const site = siteForTests({
    tag: 'voice',
    browserArgs: ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'],
  });
const { pageErrors } = site;


/** Waits until `page` shows member `id` in voice with `attrs` (data-* values). */
async function voiceShows(page, id, attrs) {
  const sel = `[data-testid="voice-${id}"]` + Object.entries(attrs).map(([k, v]) => `[data-${k}="${v}"]`).join('');
  await page.waitForSelector(sel, { timeout: 20_000 });
}

test('two players join voice: a connected peer with a live audio track each way, speaking and muting show', async () => {
  const host = await site.newPage('host');
  const guest = await site.newPage('guest');
  // The host makes a room (guests may host on this site).
  const room = await openAsHost(host, site.base, 'jungle');
  await setName(host, 'Minh');
  await guest.goto(`${site.base}/r/${room.code}`);
  await setName(guest, 'Lan');
  const minh = await memberOf(host);
  const lan = await memberOf(guest);
  assert.match(minh, /^m\d+$/);
  assert.match(lan, /^m\d+$/);
  assert.notEqual(minh, lan);

  // Not in voice yet: the list is empty and Join is offered.
  assert.equal(await byId(host, 'voice-list').locator('li').count(), 0);
  await byId(host, 'voice-join').click();
  await voiceShows(guest, minh, { speaker: 'true', muted: 'false' });
  await byId(guest, 'voice-join').click();

  // Each sees the other through a connected RTCPeerConnection whose
  // remote audio track is live.
  await voiceShows(host, lan, { peer: 'connected', track: 'live' });
  await voiceShows(guest, minh, { peer: 'connected', track: 'live' });
  for (const [page, other] of [[host, lan], [guest, minh]]) {
    const facts = await page.evaluate((id) => {
      const audio = document.querySelector(`audio[data-member="${id}"]`);
      const tracks = audio?.srcObject?.getAudioTracks() ?? [];
      return { kind: tracks[0]?.kind, state: tracks[0]?.readyState, enabled: tracks[0]?.enabled };
    }, other);
    assert.deepEqual(facts, { kind: 'audio', state: 'live', enabled: true }, `${page.label} plays the other's audio`);
  }
  // The fake microphone's tone reaches the other side: it shows speaking.
  await voiceShows(host, lan, { speaking: 'true' });

  // Lan mutes: Minh sees it, and Lan's microphone sends silence.
  await byId(guest, 'voice-mute').click();
  await voiceShows(host, lan, { muted: 'true' });
  await host.waitForSelector(`[data-testid="voice-muted-${lan}"]`, { timeout: STEP_MS });
  // Each page redraws on its own animation frame: wait for the guest's.
  await guest.waitForSelector('[data-testid="voice-mute"][aria-pressed="true"]', { timeout: STEP_MS });
  await voiceShows(host, lan, { speaking: 'false' });
  await byId(guest, 'voice-mute').click();
  await voiceShows(host, lan, { muted: 'false' });

  // The host mutes Lan for everyone: both pages show it, and Lan gives
  // the speaker's place up (listens).
  await byId(host, `voice-host-mute-${lan}`).click();
  await voiceShows(guest, lan, { 'host-muted': 'true', muted: 'true', speaker: 'false' });
  await voiceShows(host, lan, { 'host-muted': 'true', speaker: 'false' });

  // Lan leaves: gone from Minh's list, and the peer connection closes.
  await byId(guest, 'voice-leave').click();
  await host.waitForSelector(`[data-testid="voice-${lan}"]`, { state: 'detached', timeout: STEP_MS });
  assert.equal(await host.evaluate((id) => !!document.querySelector(`audio[data-member="${id}"]`), lan), false);
  assert.deepEqual(pageErrors, []);
});

test('a peer connection the browser refuses (TURN without credentials) is said, and the voice panel keeps working', async () => {
  // The ICE servers as a misconfigured site would give them: a TURN URL
  // without username and credential, on which RTCPeerConnection throws
  // InvalidAccessError (the server now refuses to start with one).
  const badIce = (route) => route.fulfill({ json: { guest_hosts: true, ice_servers: [{ urls: 'turn:turn.example.org:3478' }] } });
  const host = await site.newPage('host-badice');
  const guest = await site.newPage('guest-badice');
  await host.route('**/api/site', badIce);
  await guest.route('**/api/site', badIce);
  const room = await openAsHost(host, site.base, 'jungle');
  await setName(host, 'Minh');
  await guest.goto(`${site.base}/r/${room.code}`);
  await setName(guest, 'Lan');
  const minh = await memberOf(host);
  const lan = await memberOf(guest);
  const errorsBefore = pageErrors.length;

  await byId(host, 'voice-join').click();
  await voiceShows(guest, minh, { speaker: 'true' });
  await byId(guest, 'voice-join').click();
  // Both are in the list on both pages; the one that makes the peer
  // connection says it could not.
  await voiceShows(host, lan, { speaker: 'true' });
  await voiceShows(guest, minh, { speaker: 'true' });
  const said = ['en', 'vi'].map((lang) => JSON.parse(readFileSync(new URL(`../web/js/i18n/${lang}.json`, import.meta.url)))['voice.peer_failed']);
  const hints = await Promise.all([host, guest].map((p) => byId(p, 'voice-hint').textContent()));
  assert.ok(hints.some((h) => said.includes(h)), `a hint says so: ${JSON.stringify(hints)}`);
  // The panel still answers: mute and leave work.
  await byId(host, 'voice-mute').click();
  await voiceShows(guest, minh, { muted: 'true' });
  await byId(host, 'voice-leave').click();
  await guest.waitForSelector(`[data-testid="voice-${minh}"]`, { state: 'detached', timeout: STEP_MS });
  assert.deepEqual(pageErrors.slice(errorsBefore), []);
});
