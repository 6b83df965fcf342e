import type { LocalText } from '../../engine/define';

/**
 * What a report computes from its source (docs/reports.md): the rows of one registry resource
 * (a table or an aggregate, read through the engine with the caller's tenant and data scope),
 * either as they are (`columns`) or grouped by a time bucket of `dateField` and by fields, with
 * measures and totals; or both (a register): the rows as they are, in sections by the time
 * bucket and the group fields, each closed by the measures over its rows (a subtotal).
 */
export type ReportPeriod = 'day' | 'week' | 'month';
export const REPORT_PERIODS: readonly ReportPeriod[] = ['day', 'week', 'month'];

export type ReportMeasureFn = 'count' | 'sum' | 'avg' | 'min' | 'max' | 'countTrue';
export const REPORT_MEASURE_FNS: readonly ReportMeasureFn[] = ['count', 'sum', 'avg', 'min', 'max', 'countTrue'];

export interface ReportMeasure {
  fn: ReportMeasureFn;
  /** The field measured; not for `count`. `countTrue` counts rows whose boolean field is true. */
  field?: string;
  /** Column heading; default: the function and the field's label. */
  label?: LocalText;
}

export type ReportFormat = 'xlsx' | 'pdf';
export const REPORT_FORMATS: readonly ReportFormat[] = ['xlsx', 'pdf'];

/** A report file's `state`. */
export const ReportFileStatus = { queued: 0, running: 1, done: 2, failed: 3 } as const;

/** What one run reads: the day range of `dateField` (inclusive), list filters, and overrides. */
export interface ReportRunParams {
  /** `yyyy-MM-dd`, inclusive. */
  from?: string;
  /** `yyyy-MM-dd`, inclusive. */
  to?: string;
  /** The source's list filters, as its list route takes them (`deviceCode`, `level`, `deptId`). */
  filters?: Record<string, string>;
  period?: ReportPeriod | '';
  groupBy?: string[];
}

/** `POST /api/blade-report/report/rest/generate` body. */
export interface ReportGenerateBody {
  templateId: string;
  format: ReportFormat;
  params?: ReportRunParams;
}

/** One column of a report's result. */
export interface ReportColumn {
  key: string;
  label: LocalText;
  /** How the xlsx formats it and the PDF aligns it. */
  type: 'text' | 'int' | 'number' | 'date';
}

/** A measure of a register's section (or of all its rows), as printed: `记录数 12`. */
export interface ReportFigure {
  label: LocalText;
  value: number | null;
}

/**
 * One section of a register (a report with detail columns and a period or group fields): the
 * next `size` rows of `rows`, headed by `label` (`2026-11 · 口腔科`), closed by its subtotals.
 */
export interface ReportSection {
  label: string;
  size: number;
  subtotals: ReportFigure[];
}

/**
 * The computed data of a report: the rows, and the measures over every row. A register (detail
 * columns with a period or group fields) is in `sections`, with its measures over all rows in
 * `summary`; a grouped report has one row per group and `totals` by column.
 */
export interface ReportData {
  title: string;
  columns: ReportColumn[];
  rows: Record<string, string | number | null>[];
  /** Measure totals by column key (grouped reports only). */
  totals?: Record<string, number | null>;
  /** A register's sections, in order, covering `rows`. */
  sections?: ReportSection[];
  /** A register's measures over all its rows (the 合计 line). */
  summary?: ReportFigure[];
  /** What the run read, as printed under the title (`2026-11-01 ~ 2026-11-30`). */
  subtitle: string;
}

export const REPORT_GENERATE_PATH = '/blade-report/report/rest/generate';
export const REPORT_DOWNLOAD_PATH = '/blade-report/report/rest/download';
/** `POST` a template (saved or not) and parameters: the first rows as a PDF, for the designer. */
export const REPORT_PREVIEW_PATH = '/blade-report/template/preview';
/**
 * `POST {id, layout}`: saves the layout the designer made, once it is a template the generator
 * can print. `layout` is saved by this route only (`savedBy`): the generic submit does not take it.
 */
export const REPORT_LAYOUT_PATH = '/blade-report/template/layout';
/**
 * The element types a layout may use: those the server's PDF generator renders (pdfme's text,
 * table, line and image — a logo). The designer offers these and no others.
 */
export const REPORT_LAYOUT_TYPES = ['text', 'table', 'line', 'image'] as const;
/** `GET ?id=`: the data of a template (first rows), for the designer's sample input. */
export const REPORT_DATA_PATH = '/blade-report/template/data';
/** `GET`: the CJK font the PDFs are made with, for the designer (served from the npm package). */
export const REPORT_FONT_PATH = '/blade-report/template/font';
/** Rows a preview reads. */
export const REPORT_PREVIEW_ROWS = 50;
/** Rows a report may have. */
export const REPORT_MAX_ROWS = 50_000;
/** System parameter: days a report file is kept (default 30). */
export const REPORT_KEEP_DAYS_PARAM = 'report.file.keepDays';
export const REPORT_KEEP_DAYS_DEFAULT = 30;
