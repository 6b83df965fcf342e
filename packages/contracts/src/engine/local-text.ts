/**
 * Text in both interface languages; the type makes a missing translation a compile error. A leaf
 * of its own (no imports), so that the files `define.ts` builds on can name it without importing
 * `define.ts` back (ARCHITECTURE.md "No cycles").
 */
export interface LocalText {
  zh: string;
  en: string;
}
