import { generate } from '@pdfme/generator';
import { barcodes, text } from '@pdfme/schemas';
import type { Template } from '@pdfme/common';
import { PACK_LABEL_SIZE_MM, type PackLabel } from '@mes/contracts';
import { fontOf, REPORT_FONT_NAME } from './report-pdf';

/**
 * Pack labels (docs/packs.md "Labels"): one page per pack at the size of a thermal label
 * (60 × 40 mm), made by pdfme as the reports are, with the reports' embedded Chinese font
 * (subset: only the glyphs used) and pdfme's own QR code schema (bwip-js, a dependency of
 * @pdfme/schemas), so no other renderer or font is involved.
 */

const { width: W, height: H } = PACK_LABEL_SIZE_MM;
const PAD = 1.5;
const QR = 17;
const RIGHT_X = PAD + QR + 1.5;
const RIGHT_W = W - RIGHT_X - PAD;
const LINE = 3.4;

const font = { fontName: REPORT_FONT_NAME };
const small = (name: string, y: number, height = LINE) => ({
  name,
  type: 'text',
  position: { x: RIGHT_X, y },
  width: RIGHT_W,
  height,
  fontSize: 6.5,
  lineHeight: 1,
  ...font,
});

/** The label's layout: the article's name across the top, the QR code and the code on the left, the facts on the right. */
export function labelTemplate(): Template {
  const top = PAD + 5;
  return {
    basePdf: { width: W, height: H, padding: [0, 0, 0, 0] },
    schemas: [
      [
        {
          name: 'title',
          type: 'text',
          position: { x: PAD, y: PAD },
          width: W - 2 * PAD,
          height: 4.5,
          fontSize: 9,
          lineHeight: 1,
          ...font,
        },
        { name: 'qr', type: 'qrcode', position: { x: PAD, y: top }, width: QR, height: QR },
        {
          name: 'code',
          type: 'text',
          position: { x: PAD - 0.5, y: top + QR + 0.5 },
          width: QR + 1,
          height: 7,
          fontSize: 5.5,
          lineHeight: 1,
          alignment: 'center',
          ...font,
        },
        small('contents', top, 2 * LINE),
        small('material', top + 2 * LINE),
        small('sterile', top + 3 * LINE),
        small('expiry', top + 4 * LINE),
        small('load', top + 5 * LINE),
        small('device', top + 6 * LINE),
      ],
    ],
  } as unknown as Template;
}

/** One label's inputs, labelled in Chinese as the clinics read them. */
export function labelInputs(label: PackLabel): Record<string, string> {
  return {
    title: label.articleName || label.code,
    qr: label.code,
    code: label.code,
    contents: `内容: ${label.contents || '-'}`,
    material: `包装: ${label.packMaterial || '-'}`,
    sterile: `灭菌日期: ${label.sterileDate || '-'}`,
    expiry: `失效日期: ${label.expiryDate || '-'}`,
    load: `批次: ${label.loadNo || '-'}`,
    device: `灭菌器: ${label.deviceName || '-'}`,
  };
}

/** The labels as one PDF, a page each, in the order given. */
export async function renderLabelsPdf(labels: readonly PackLabel[]): Promise<Uint8Array> {
  return generate({
    template: labelTemplate(),
    inputs: labels.map(labelInputs),
    options: { font: fontOf() },
    plugins: { text, qrcode: barcodes.qrcode },
  });
}
