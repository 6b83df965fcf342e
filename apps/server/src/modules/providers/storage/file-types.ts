/**
 * What an upload may be and how a stored file is served. The type of an image comes from its
 * bytes, never from the client's name or Content-Type, which it chooses freely.
 */

/** Images the server shows inline; everything else is only ever downloaded. */
export const IMAGE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
} as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

/** Extensions that name an image: the bytes must then be that kind of image. */
const IMAGE_NAMES: Record<string, ImageExtension> = { png: 'png', jpg: 'jpg', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

/**
 * Refused outright: pages and scripts a browser would run from our origin or a user might
 * launch (SVG carries script too). Served as downloads they would be harmless to the console,
 * but a stored `.exe` or `.html` has no business purpose here.
 */
export const DANGEROUS_EXTENSIONS: ReadonlySet<string> = new Set([
  'html',
  'htm',
  'xhtml',
  'shtml',
  'mht',
  'mhtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'js',
  'mjs',
  'cjs',
  'jsp',
  'jspx',
  'php',
  'phtml',
  'asp',
  'aspx',
  'cgi',
  'pl',
  'py',
  'sh',
  'bash',
  'ps1',
  'bat',
  'cmd',
  'com',
  'exe',
  'dll',
  'msi',
  'scr',
  'vbs',
  'vbe',
  'wsf',
  'hta',
  'jar',
  'swf',
  'lnk',
  'reg',
]);

/** The image an upload's bytes are, by their signature. */
export function sniffImage(bytes: Buffer): ImageExtension | undefined {
  const starts = (sig: number[], at = 0) => bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpg';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return undefined;
}

/** A client's file name is kept for display and downloads, but one carrying a path is refused. */
export const isSafeFileName = (name: string) =>
  name.trim() !== '' &&
  name.length <= 255 &&
  name !== '.' &&
  name !== '..' &&
  ![...name].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** The lower-case extension of a name (`报告.PDF` → `pdf`), '' when it has none we can keep. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return '';
  const ext = name.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]{1,16}$/.test(ext) ? ext : '';
}

export const imageForName = (ext: string): ImageExtension | undefined => IMAGE_NAMES[ext];

/** How a stored file is sent: images inline with their type, anything else as a download. */
export function servedAs(firstBytes: Buffer): { contentType: string; inline: boolean } {
  const image = sniffImage(firstBytes);
  return image
    ? { contentType: IMAGE_TYPES[image], inline: true }
    : { contentType: 'application/octet-stream', inline: false };
}

/**
 * `attachment; filename="..."; filename*=UTF-8''...` (RFC 6266 / RFC 5987): the quoted name is an
 * ASCII fallback for old clients, the encoded one carries Chinese names exactly.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'download';
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
