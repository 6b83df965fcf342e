/** fontkit 2 ships no types; pdf-lib only needs its `create` (PDFDocument.registerFontkit). */
declare module 'fontkit' {
  export function create(data: Uint8Array, postscriptName?: string): unknown;
}
