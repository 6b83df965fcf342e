import { z } from 'zod';
import { REPORT_LAYOUT_TYPES } from '@mes/contracts';
import { badRequest } from '../../platform/http/errors';
import { LAYOUT_FIELDS, REPORT_FONT_NAME } from './report-pdf';

/**
 * What a saved layout must be for the generator to print it (docs/reports.md "Layouts"): checked
 * when the designer saves and before a report is rendered, so that a layout pdfme cannot print is
 * a 400 naming the problem, not a failure somewhere in the generator.
 *
 * The shape is a pdfme template restricted to what the server renders: a blank page of a given
 * size (or a PDF as background) and pages of elements of the types the generator registers
 * (`REPORT_LAYOUT_TYPES`), each placed on the page. An element that is not read-only takes its
 * value from the report by its name; the report fills only `title`, `subtitle` (text) and `rows`
 * (a table), so any other name would print empty (or, for a table, not at all).
 */

// Lengths are millimetres; bounded, so that no value sends the generator into a page of
// astronomical size (a trial print of every saved layout runs it).
const PAGE_MAX = 2000;
const finite = z.number().finite();
const length = finite.min(0).max(PAGE_MAX);
const positive = finite.positive().max(PAGE_MAX);
const box = z.object({ top: length, right: length, bottom: length, left: length });
const color = z.string().max(32);

/** Every style a table cell is drawn with: the generator fills none it is not given. */
const cellStyle = z.object({
  fontName: z.string().max(64).optional(),
  fontSize: positive,
  characterSpacing: finite.min(-PAGE_MAX).max(PAGE_MAX),
  alignment: z.enum(['left', 'center', 'right', 'justify']),
  verticalAlignment: z.enum(['top', 'middle', 'bottom']),
  lineHeight: positive,
  fontColor: color,
  borderColor: color,
  backgroundColor: color,
  borderWidth: box,
  padding: box,
});

const element = z.looseObject({
  name: z.string().min(1).max(64),
  type: z.string().min(1).max(32),
  position: z.object({ x: length, y: length }),
  width: positive,
  height: positive,
  readOnly: z.boolean().optional(),
  required: z.boolean().optional(),
  content: z.string().max(1_000_000).optional(),
  fontName: z.string().max(64).optional(),
  fontSize: positive.optional(),
  lineHeight: positive.optional(),
  characterSpacing: finite.min(-PAGE_MAX).max(PAGE_MAX).optional(),
});

const table = z.looseObject({
  head: z.array(z.string().max(200)).max(100),
  headWidthPercentages: z.array(finite.min(0).max(100)).max(100),
  showHead: z.boolean().optional(),
  tableStyles: z.object({ borderWidth: length, borderColor: color }),
  headStyles: cellStyle,
  bodyStyles: cellStyle.extend({ alternateBackgroundColor: color }),
  columnStyles: z.looseObject({}).optional(),
});

const pdfDataUri = /^data:application\/pdf;base64,/;
const basePdf = z.union([
  z.object({
    width: positive,
    height: positive,
    padding: z.tuple([length, length, length, length]),
    staticSchema: z.array(element).max(200).optional(),
  }),
  z.string().regex(pdfDataUri).max(1_900_000),
]);

const template = z.looseObject({
  basePdf,
  schemas: z.array(z.array(element).max(200)).min(1).max(100),
});

type Element = z.infer<typeof element>;
type Where = { zh: string; en: string };

/** A refused layout: a 400 saying what is wrong and where, in both languages. */
const problem = (where: Where, zh: string, en: string) =>
  badRequest({ zh: `版式${where.zh}:${zh}`, en: `Layout ${where.en}: ${en}` });

const ZOD_REASON: Record<string, Where> = {
  invalid_type: { zh: '类型不正确或缺失', en: 'is missing or of the wrong type' },
  invalid_value: { zh: '取值不在允许的范围内', en: 'is not one of the allowed values' },
  too_small: { zh: '太小或太少', en: 'is too small or has too few items' },
  too_big: { zh: '太大或太多', en: 'is too large or has too many items' },
  invalid_format: { zh: '格式不正确', en: 'has the wrong format' },
  invalid_union: { zh: '格式不正确', en: 'has the wrong shape' },
};

/** Where an element is, by its page and name (`第 1 页的元素「rows」`). */
function elementAt(page: number | 'static', name: unknown): Where {
  const label = typeof name === 'string' && name ? name : '?';
  return page === 'static'
    ? { zh: `页眉页脚的元素「${label}」`, en: `header/footer element "${label}"` }
    : { zh: `第 ${page + 1} 页的元素「${label}」`, en: `element "${label}" on page ${page + 1}` };
}

/** The value at `path` inside `value` (undefined where there is none). */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

/** Where a zod issue is, in words: the element it is in and the property below it. */
function whereOf(issuePath: readonly PropertyKey[], value: unknown): Where {
  const path = issuePath.map(String);
  const inPage = path[0] === 'schemas' && path.length > 2;
  const inStatic = path[0] === 'basePdf' && path[1] === 'staticSchema' && path.length > 2;
  if (!inPage && !inStatic) {
    const name = path.join('.') || 'template';
    return { zh: `的 ${name}`, en: name };
  }
  const where = elementAt(inPage ? Number(path[1]) : 'static', valueAt(value, [...path.slice(0, 3), 'name']));
  const rest = path.slice(3).join('.');
  return rest ? { zh: `${where.zh}的 ${rest}`, en: `${where.en}, ${rest}` } : where;
}

const knownTypes = (): Where => ({
  zh: REPORT_LAYOUT_TYPES.join('、'),
  en: REPORT_LAYOUT_TYPES.join(', '),
});

/** What the report fills (`title`, `subtitle` as text; `rows` as a table). */
const BOUND: Record<string, string> = {
  [LAYOUT_FIELDS.title]: 'text',
  [LAYOUT_FIELDS.subtitle]: 'text',
  [LAYOUT_FIELDS.rows]: 'table',
};

function checkFont(where: Where, font: unknown, what: Where) {
  if (font !== undefined && font !== REPORT_FONT_NAME)
    throw problem(
      where,
      `${what.zh}字体 ${String(font)} 不可用,只能用 ${REPORT_FONT_NAME}`,
      `${what.en}font ${String(font)} is not available; use ${REPORT_FONT_NAME}`,
    );
}

/** The signatures that start a PNG and a JPEG file: pdfme embeds these two. */
const PICTURES: [string, number[]][] = [
  ['png', [0x89, 0x50, 0x4e, 0x47]],
  ['jpeg', [0xff, 0xd8, 0xff]],
];

/** An image prints what it holds: a PNG or JPEG as a data URL (the designer stores it so). */
function checkPicture(where: Where, content: unknown) {
  const m = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/=]+)$/.exec(typeof content === 'string' ? content : '');
  const bytes = m?.[2] ? Buffer.from(m[2].slice(0, 16), 'base64') : undefined;
  const kind = m?.[1] === 'jpg' ? 'jpeg' : m?.[1];
  const signature = PICTURES.find(([name]) => name === kind)?.[1];
  if (!bytes || !signature || !signature.every((b, i) => bytes[i] === b))
    throw problem(where, '图片应为 PNG 或 JPEG', 'the picture must be a PNG or JPEG');
}

/** One element; `fixed`: of the header/footer, printed as designed whatever its name. */
function checkElement(el: Element, where: Where, fixed = false) {
  if (!(REPORT_LAYOUT_TYPES as readonly string[]).includes(el.type))
    throw problem(
      where,
      `类型 ${el.type} 无法打印,可用的类型:${knownTypes().zh}`,
      `type ${el.type} cannot be printed; the types are ${knownTypes().en}`,
    );
  const bound = BOUND[el.name];
  // A line draws no value; any other element not read-only takes the report's value of its name.
  if (el.type !== 'line' && !el.readOnly && !fixed) {
    if (!bound)
      throw problem(
        where,
        `绑定的字段 ${el.name} 不存在。可绑定的字段:title、subtitle(文本)、rows(表格);固定内容的元素请取消勾选「可编辑」`,
        `it is bound to ${el.name}, which the report does not fill. The fields are title, subtitle (text) and rows (a table); untick "Editable" on an element with fixed content`,
      );
    if (bound !== el.type)
      throw problem(
        where,
        `字段 ${el.name} 应为${bound === 'table' ? '表格(table)' : '文本(text)'},不能是 ${el.type}`,
        `field ${el.name} must be a ${bound}, not a ${el.type}`,
      );
  }
  checkFont(where, el.fontName, { zh: '', en: '' });
  if (el.type === 'image') return checkPicture(where, el.content);
  if (el.type !== 'table') return;
  const parsed = table.safeParse(el);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.map(String).join('.') ?? '';
    const reason = ZOD_REASON[issue?.code ?? ''] ?? ZOD_REASON.invalid_type!;
    throw problem(where, `表格的 ${path} ${reason.zh}`, `the table's ${path} ${reason.en}`);
  }
  const t = parsed.data;
  checkFont(where, t.headStyles.fontName, { zh: '表头', en: 'the head ' });
  checkFont(where, t.bodyStyles.fontName, { zh: '表体', en: 'the body ' });
  if (t.headWidthPercentages.length !== t.head.length)
    throw problem(
      where,
      `表头有 ${t.head.length} 列,列宽有 ${t.headWidthPercentages.length} 个`,
      `the head has ${t.head.length} columns but ${t.headWidthPercentages.length} widths`,
    );
  // A read-only table prints what it holds: rows of text as wide as its head.
  if (el.readOnly || fixed) {
    let rows: unknown;
    try {
      rows = JSON.parse(el.content ?? '[]');
    } catch {
      rows = undefined;
    }
    const fits =
      Array.isArray(rows) &&
      rows.every((r) => Array.isArray(r) && r.length === t.head.length && r.every((c) => typeof c === 'string'));
    if (!fits)
      throw problem(
        where,
        `未勾选「可编辑」的表格,内容应为每行 ${t.head.length} 个文本的行列表`,
        `a table with "Editable" unticked must hold rows of ${t.head.length} texts`,
      );
  }
}

/**
 * Checks that `value` is a layout the generator can print (docs/reports.md "Layouts"); throws a
 * 400 naming the first problem.
 */
export function checkLayout(value: unknown): void {
  const parsed = template.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = whereOf(issue?.path ?? [], value);
    const reason = ZOD_REASON[issue?.code ?? ''] ?? ZOD_REASON.invalid_type!;
    if (issue?.path[0] === 'basePdf' && issue.path.length === 1)
      throw problem(
        { zh: '的底版 basePdf', en: 'basePdf' },
        '应为页面尺寸 {width, height, padding} 或 PDF 的 data URI',
        'must be a page size {width, height, padding} or a PDF data URI',
      );
    throw problem(where, reason.zh, reason.en);
  }
  const { basePdf, schemas } = parsed.data;
  if (typeof basePdf === 'string') {
    const head = Buffer.from(basePdf.replace(pdfDataUri, '').slice(0, 12), 'base64').toString('latin1');
    if (!head.startsWith('%PDF-'))
      throw problem({ zh: '的底版 basePdf', en: 'basePdf' }, '不是 PDF 文件', 'is not a PDF file');
  } else {
    for (const el of basePdf.staticSchema ?? []) checkElement(el, elementAt('static', el.name), true);
  }
  schemas.forEach((page, p) => {
    for (const el of page) checkElement(el, elementAt(p, el.name));
  });
}
