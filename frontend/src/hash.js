// The URL hash: `#code=<base64url of UTF-8 code>` opens the playground with that code (browser contract).

/** @param {string} text @returns {string} base64url without padding */
export function encodeCode(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** @param {string} b64 base64url (or plain base64), padding optional @returns {string} */
export function decodeCode(b64) {
  let s = b64.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  while (s.length % 4) s += '=';
  const bin = atob(s);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/**
 * The code in a location hash, or null if there is none (or it isn't valid base64url UTF-8).
 * @param {string} hash e.g. location.hash
 */
export function codeFromHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const raw = params.get('code');
  if (raw === null) return null;
  try {
    return decodeCode(raw);
  } catch {
    return null;
  }
}

/** A hash carrying `code`, keeping any other parameters of `hash`. */
export function hashWithCode(hash, code) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  params.set('code', encodeCode(code));
  return `#${params.toString()}`;
}
