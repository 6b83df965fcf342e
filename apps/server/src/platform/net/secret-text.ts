/**
 * Whether a text from a remote service (an error message we would show) gives away a secret we
 * sent it: the secret itself in any letter case, any of the encodings it travels in (URL, form,
 * base64, hex), or a long enough piece of it (a "masked" echo such as `ab12****`). Masking such a
 * text is unreliable, so callers drop the text whole instead.
 */

/** Pieces of a secret this long are enough to narrow it down; shorter ones occur by chance. */
const PIECE = 6;

function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    [...secret].reverse().join(''),
  ];
}

export function revealsSecret(text: string, secrets: readonly string[]): boolean {
  const haystack = text.toLowerCase();
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of encodings(secret)) {
      const needle = form.toLowerCase();
      if (needle.length < PIECE) {
        if (haystack.includes(needle)) return true;
        continue;
      }
      for (let i = 0; i + PIECE <= needle.length; i += 1) {
        if (haystack.includes(needle.slice(i, i + PIECE))) return true;
      }
    }
  }
  return false;
}
