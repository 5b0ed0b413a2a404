// Mounts the challenges section on the home page, the account page and a
// profile (each page's `[data-challenges]` section; see challenges.js).
// A profile of another player, seen signed in, also gets the Challenge
// button and its form.

import { applyI18n } from '../i18n.js';
import { fetchMe } from '../http.js';
import { $ } from '../dom.js';
import { mountChallenges, challengeForm } from './challenges.js';

const section = document.querySelector('[data-challenges]');
if (section) {
  applyI18n(section);
  const box = section.querySelector('[data-challenge-list]');
  const { poll } = mountChallenges(box, { section, byName: section.dataset.challenges === 'by-name' });
  const profile = decodeURIComponent((window.location.pathname.match(/^\/u\/([^/]+)/) || [])[1] || '');
  const button = $('challenge-button');
  if (profile && button) {
    fetchMe().then((res) => (res.ok ? res.json() : null)).catch(() => null).then((data) => {
      if (!data?.username || data.username.toLowerCase() === profile.toLowerCase()) return;
      button.hidden = false;
      button.addEventListener('click', () => {
        const form = $('challenge-form-box');
        form.hidden = false;
        challengeForm(form, { to: profile, onSent: () => poll(true) });
      });
    });
  }
}
