// The DOM helpers the pages' modules share.

/** `s` made safe inside HTML or SVG markup and its attributes. */
export const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** The element with id `id`. */
export const $ = (id) => document.getElementById(id);

/**
 * A new element: `attrs` sets attributes (`class`, `text`, `dataset`,
 * `on<event>` listeners; null and false skip one, true is an empty
 * attribute), then `children` (nodes or strings; null skipped).
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

/**
 * Copies `text` to the clipboard (the Clipboard API, or a selected
 * textarea where that is unavailable, e.g. over plain http); resolves to
 * whether it worked.
 */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* fall back below */ }
  const ta = el('textarea', { class: 'offscreen', readonly: true });
  ta.value = text;
  document.body.append(ta);
  ta.select();
  let ok;
  try { ok = document.execCommand('copy'); } catch { ok = false; }
  ta.remove();
  return ok;
}

/** Show `text` in `node` (a form's error or notice line), or hide it when there is none. */
export function showMessage(node, text) {
  node.textContent = text ?? '';
  node.hidden = !text;
}
