import sanitizeHtml from 'sanitize-html';

/** Inline images the editor may paste; SVG is left out since it is a document of its own. */
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|bmp);base64,[A-Za-z0-9+/=\s]+$/i;
/** Colours as the editor writes them: no url(), expression() or anything else a style could run. */
const COLOUR = [
  /^#[0-9a-f]{3,8}$/i,
  /^rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(?:,\s*(?:0|1|0?\.\d+)\s*)?\)$/i,
];
/** Absolute addresses only: a relative one would point into the console itself. */
const LINK_URL = /^(?:https?:\/\/|mailto:)/i;
const IMAGE_URL = /^https?:\/\//i;
const ALIGN = [/^(?:left|right|center|justify)$/];
const BLOCK_STYLE = { 'text-align': ALIGN };

/**
 * The allow-list of notice content (docs/desk.md): what the editor produces — formatting, lists,
 * quotes, code, tables, links and images — and nothing that runs. Whatever is not listed is
 * dropped: scripts and styles with their text, iframes, objects, forms, `on*` handlers, and any
 * URL whose scheme is not listed (`javascript:`, `vbscript:`, protocol-relative `//host`).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'del',
    'sub',
    'sup',
    'mark',
    'span',
    'blockquote',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'hr',
    'a',
    'img',
    'table',
    'caption',
    'colgroup',
    'col',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    td: ['colspan', 'rowspan', 'style'],
    th: ['colspan', 'rowspan', 'style'],
    col: ['span', 'width'],
    p: ['style'],
    h1: ['style'],
    h2: ['style'],
    h3: ['style'],
    h4: ['style'],
    h5: ['style'],
    h6: ['style'],
    span: ['style'],
    mark: ['style'],
  },
  allowedStyles: {
    '*': BLOCK_STYLE,
    span: { color: COLOUR, 'background-color': COLOUR },
    mark: { 'background-color': COLOUR },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // A link opens apart from the console and cannot reach back into it (window.opener).
    // A link whose address is not allowed stays as its text.
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      if (href === undefined || !LINK_URL.test(href.trim())) return { tagName: 'span', attribs: {} };
      return { tagName, attribs: { href, ...rest, target: '_blank', rel: 'noopener noreferrer' } };
    },
  },
  // An image goes unless its address is absolute http(s) or a raster data URL (the scheme check
  // above lets any data: URL and relative addresses through).
  exclusiveFilter: (frame) => {
    if (frame.tag !== 'img') return false;
    const src = (frame.attribs.src ?? '').trim();
    return !(IMAGE_URL.test(src) || DATA_IMAGE.test(src));
  },
};

/** Notice content as it is stored: the allow-list above applied to what the editor sent. */
export function sanitizeNoticeHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
