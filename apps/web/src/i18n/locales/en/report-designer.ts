import type { reportDesigner as zh } from '../zh/report-designer';

export const reportDesigner: typeof zh = {
  title: 'Design report template - {name}',
  save: 'Save',
  preview: 'Preview (real data)',
  close: 'Close',
  saved: 'Saved',
  fields: 'Bound fields',
  columns: 'Columns of the rows table',
  hint: 'A text named title / subtitle and a table named rows are filled from the report; other text and tables print as designed once "Editable" is unticked; lines print as drawn.',
  /** What pdfme's palette calls each element type: its plugins' keys are the names it shows. */
  typeNames: { text: 'Text', table: 'Table', line: 'Line', image: 'Image' },
  /** What a new text element holds until it is typed over (pdfme's own is English). */
  placeholder: 'Type here',
  /**
   * pdfme's name for an element's `readOnly` (ticked: takes a value; unticked: printed as
   * designed), the name the server's refusal uses (report-layout.ts).
   */
  editable: 'Editable',
};
