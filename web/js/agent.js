// A browser's User-Agent string (the sessions list, GET /api/sessions) in
// a few words: "Chrome on Android", "Safari on iPhone". Pure, no DOM: the
// caller passes its t() for the words around the names.

// Most specific first: Edge, Opera, Samsung Internet, … all say "Chrome"
// and "Safari" too, Chrome says "Safari", Firefox on iOS says "Safari".
const BROWSERS = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOPiOS\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bcoc_coc_browser\//, 'Cốc Cốc'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bUCBrowser\//, 'UC Browser'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bFxiOS\/|\bFirefox\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\bCriOS\/|Chrome\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\biPod\b/, 'iPod'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const first = (list, ua) => list.find(([re]) => re.test(ua))?.[1] ?? null;

/** The browser and the system a User-Agent names: `{browser, os}`, each null when not known. */
export function parseAgent(ua) {
  const s = String(ua ?? '');
  return { browser: first(BROWSERS, s), os: first(SYSTEMS, s) };
}

/**
 * The User-Agent in the page's words (`t`: i18n.js): "Chrome on Android",
 * "Chrome", "A browser on Linux", or "Unknown browser".
 */
export function agentLabel(ua, t) {
  const { browser, os } = parseAgent(ua);
  if (browser && os) return t('sessions.agent', { browser, os });
  if (browser) return browser;
  if (os) return t('sessions.agent_os', { os });
  return t('sessions.unknown_browser');
}
