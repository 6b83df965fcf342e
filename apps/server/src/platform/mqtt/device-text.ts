/**
 * Names and texts devices send, checked where a message is read, before any of it reaches a
 * statement (docs/mqtt.md "What a value must be"). PostgreSQL refuses NUL in text and jsonb,
 * and a lone surrogate escape in jsonb (in text it would be stored silently changed to U+FFFD):
 * one such character in one message used to fail its whole batch's commit, again and again.
 * Control characters have no place in a name; in a text value tab and line breaks do.
 */

/** Every control character (C0, DEL, C1). */
const NAME_CONTROL = /\p{Cc}/u;
/** The control characters a text value may not hold: all but tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** With the `u` flag a surrogate code point only matches when it is not half of a pair. */
const LONE_SURROGATE = /[\u{d800}-\u{dfff}]/u;
/** What the message log cannot store: NUL and lone surrogates. */
// eslint-disable-next-line no-control-regex -- NUL is what PostgreSQL refuses
const UNSTORABLE = /[\u0000\u{d800}-\u{dfff}]/gu;
/** What an error message shows escaped: control characters and lone surrogates. */
const UNSHOWABLE = /[\p{Cc}\u{d800}-\u{dfff}]/gu;

const codePoint = (char: string) => char.codePointAt(0) ?? 0;
const hex4 = (char: string) => codePoint(char).toString(16).toUpperCase().padStart(4, '0');
const escaped = (char: string) => `\\u${hex4(char).toLowerCase()}`;

/** Characters as PostgreSQL counts them for varchar(n): code points, a surrogate pair is one. */
export function characters(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

/**
 * Why a name (field, metric, figure, topic level) or a text value cannot be stored as sent, or
 * undefined: a control character (a text value may hold tab and line breaks), a lone surrogate
 * (broken UTF-16), or more than `max` characters.
 */
export function textFault(text: string, max: number, kind: 'name' | 'text' = 'name'): string | undefined {
  const control = (kind === 'name' ? NAME_CONTROL : TEXT_CONTROL).exec(text);
  if (control) return `contains the control character U+${hex4(control[0])}`;
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `contains a lone surrogate U+${hex4(lone[0])} (broken UTF-16)`;
  const length = characters(text);
  return length > max ? `is longer than ${max} characters (${length})` : undefined;
}

/** At most `max` UTF-16 units, never cutting a surrogate pair in two (half of one is unstorable). */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** Text the message log can store: NUL and lone surrogates written as `\u0000`-style escapes. */
export const storableText = (text: string) => text.replace(UNSTORABLE, escaped);

/**
 * A device's name as an error message shows it: control characters and lone surrogates escaped,
 * at most `max` characters, then `…`.
 */
export function shownName(name: string, max = 64): string {
  const shown = name.replace(UNSHOWABLE, escaped);
  return shown.length > max ? `${clipText(shown, max)}…` : shown;
}
