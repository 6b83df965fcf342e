import { App, Button, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Designer } from '@pdfme/ui';
import { image, line, table, text } from '@pdfme/schemas';
import type { Template } from '@pdfme/common';
import {
  REPORT_DATA_PATH,
  REPORT_LAYOUT_PATH,
  REPORT_FONT_PATH,
  type REPORT_LAYOUT_TYPES,
  REPORT_PREVIEW_PATH,
  type ReportData,
} from '@mes/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../api/server-state';
import './designer.css';
import { fileRequestHeaders } from '../../../engine/download';
import type { Row } from '../../../engine/resource-page-types';
import { pageTexts } from '../../../i18n/page-texts';

/** The font the server prints with (Noto Sans SC from npm), so what is designed is what prints. */
const FONT = 'NotoSansSC';
type LayoutType = (typeof REPORT_LAYOUT_TYPES)[number];
type Language = 'zh' | 'en';

/**
 * The element types the server prints (`REPORT_LAYOUT_TYPES`), named in the user's language:
 * offering another would let a layout be designed that the server refuses on save.
 */
function pluginsOf(language: Language) {
  const byType = {
    text: {
      ...text,
      propPanel: {
        ...text.propPanel,
        defaultSchema: { ...text.propPanel.defaultSchema, content: TEXT[language].placeholder },
      },
    },
    table,
    line,
    image,
  } satisfies Record<LayoutType, unknown>;
  return Object.fromEntries(
    (Object.keys(byType) as LayoutType[]).map((type) => [TEXT[language].typeNames[type], byType[type]]),
  );
}

/**
 * The server prints a layout once before keeping it; the first print of a server starts its render
 * thread (pdfme and the 10 MB font), 6–18 s on a busy machine. With the usual 10 s the save was cut
 * off and reported as failed (未知错误) while the server went on to keep it.
 */
const SAVE_TIMEOUT_MS = 60_000;
/** The field names the server fills (report-pdf.ts `LAYOUT_FIELDS`). */
const FIELDS = { title: 'title', subtitle: 'subtitle', rows: 'rows' } as const;

const TEXT = pageTexts('reportDesigner');

async function fetchBytes(url: string, language: string, init: RequestInit = {}): Promise<ArrayBuffer> {
  const res = await fetch(`/api${url}`, {
    ...init,
    headers: { ...fileRequestHeaders(language), ...(init.headers as Record<string, string>) },
    credentials: 'include',
  });
  if (!res.ok || (res.headers.get('Content-Type') ?? '').includes('application/json')) {
    const body = (await res.json().catch(() => undefined)) as { msg?: string } | undefined;
    throw new Error(body?.msg || res.statusText);
  }
  return res.arrayBuffer();
}

/** Every style a pdfme table cell reads (the generator does not fill missing ones). */
const CELL = {
  fontName: FONT,
  characterSpacing: 0,
  alignment: 'left',
  verticalAlignment: 'middle',
  lineHeight: 1,
  fontColor: '#000000',
  borderColor: '#888888',
  backgroundColor: '',
  alternateBackgroundColor: '',
  borderWidth: { top: 0.1, right: 0.1, bottom: 0.1, left: 0.1 },
  padding: { top: 1, right: 1, bottom: 1, left: 1 },
};

/** A first layout for a template never designed: the fields the server fills, on A4. */
function startingLayout(data: ReportData): Template {
  const landscape = data.columns.length > 6;
  const page = landscape ? { width: 297, height: 210 } : { width: 210, height: 297 };
  const inner = page.width - 24;
  const head = data.columns.map((c) => c.label.zh);
  return {
    basePdf: { width: page.width, height: page.height, padding: [12, 12, 18, 12] },
    schemas: [
      [
        {
          name: FIELDS.title,
          type: 'text',
          position: { x: 12, y: 12 },
          width: inner,
          height: 10,
          fontSize: 16,
          alignment: 'center',
          fontName: FONT,
        },
        {
          name: FIELDS.subtitle,
          type: 'text',
          position: { x: 12, y: 23 },
          width: inner,
          height: 6,
          fontSize: 9,
          alignment: 'center',
          fontName: FONT,
        },
        {
          name: FIELDS.rows,
          type: 'table',
          position: { x: 12, y: 32 },
          width: inner,
          height: 20,
          showHead: true,
          head,
          headWidthPercentages: head.map(() => 100 / Math.max(1, head.length)),
          content: JSON.stringify([head.map(() => '')]),
          tableStyles: { borderWidth: 0.2, borderColor: '#333333' },
          headStyles: { ...CELL, fontSize: 8, alignment: 'center', backgroundColor: '#e8e8e8' },
          bodyStyles: { ...CELL, fontSize: 7.5, borderWidth: { top: 0, right: 0, bottom: 0.1, left: 0 } },
          columnStyles: {},
        },
      ],
    ],
  } as unknown as Template;
}

/** The sample the designer shows: the report's real first rows in the bound fields. */
function withSample(layout: Template, data: ReportData): Template {
  const rows = data.rows.slice(0, 5).map((r) => data.columns.map((c) => String(r[c.key] ?? '')));
  const head = data.columns.map((c) => c.label.zh);
  const schemas = layout.schemas.map((page) =>
    page.map((s) => {
      if (s.name === FIELDS.title) return { ...s, content: data.title };
      if (s.name === FIELDS.subtitle) return { ...s, content: data.subtitle };
      if (s.name === FIELDS.rows && s.type === 'table')
        return {
          ...s,
          head,
          headWidthPercentages: head.map(() => 100 / Math.max(1, head.length)),
          content: JSON.stringify(rows.length ? rows : [head.map(() => '')]),
        };
      return s;
    }),
  );
  return { ...layout, schemas } as Template;
}

/**
 * pdfme's Designer over a template (docs/reports.md): it is a plain class that renders its own
 * React tree (React 19, shared with the console; antd 6 of its own) into the div it is given, so
 * the console's antd 5 and its own never meet in one tree. Loaded lazily by the template screen.
 */
export default function TemplateDesigner({ row, onClose }: { row: Row; onClose(saved: boolean): void }) {
  const { i18n } = useTranslation();
  const language: Language = i18n.language.startsWith('en') ? 'en' : 'zh';
  const t = TEXT[language];
  const { message } = App.useApp();
  const host = useRef<HTMLDivElement>(null);
  const designer = useRef<Designer | null>(null);
  const [busy, setBusy] = useState<'save' | 'preview' | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const id = String(row.id);

  // The font and the report's data, read once per opening (gcTime 0): the designer is built on
  // them, and a later answer would rebuild it over the user's edits.
  const source = useQuery({
    queryKey: ['report-designer', id, language],
    queryFn: ({ signal }) =>
      Promise.all([
        fetchBytes(REPORT_FONT_PATH, language, { signal }),
        apiGet<ReportData>(REPORT_DATA_PATH, { id }, { signal }),
      ]),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    meta: { silent: true },
  });
  const data = source.data?.[1] ?? null;
  const failure = source.error;
  useEffect(() => {
    if (failure) void message.error(failure instanceof Error ? failure.message : String(failure));
  }, [failure, message]);

  const loaded = source.data;
  useEffect(() => {
    const container = host.current;
    if (!loaded || !container) return;
    const [font, report] = loaded;
    try {
      const layout = (row.layout as Template | null | undefined) ?? startingLayout(report);
      designer.current = new Designer({
        domContainer: container,
        template: withSample(layout, report),
        options: {
          font: { [FONT]: { data: font, fallback: true } },
          lang: language,
          labels: { editable: TEXT[language].editable },
        },
        plugins: pluginsOf(language),
      });
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    }
    return () => {
      designer.current?.destroy();
      designer.current = null;
    };
  }, [loaded, language, message, row.layout]);

  useEffect(() => () => void (previewUrl && URL.revokeObjectURL(previewUrl)), [previewUrl]);

  const save = async () => {
    if (!designer.current) return;
    setBusy('save');
    try {
      // The layout is not a field of the generic submit: it has a route of its own.
      await apiPost(REPORT_LAYOUT_PATH, { id, layout: designer.current.getTemplate() }, { timeoutMs: SAVE_TIMEOUT_MS });
      setSaved(true);
      void message.success(t.saved);
    } catch {
      // The request has shown its message.
    } finally {
      setBusy(null);
    }
  };

  const preview = async () => {
    if (!designer.current) return;
    setBusy('preview');
    try {
      const bytes = await fetchBytes(REPORT_PREVIEW_PATH, language, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id, layout: designer.current.getTemplate() }),
      });
      setPreviewUrl(URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' })));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open
      width="96vw"
      style={{ top: 12, paddingBottom: 0 }}
      // The canvas takes every pixel the dialog has below its hint and field tags (pdfme sizes
      // itself to its container and follows it when it changes).
      styles={{ body: { height: 'calc(100vh - 150px)', display: 'flex', flexDirection: 'column' } }}
      title={t.title.replace('{name}', String(row.name ?? ''))}
      onCancel={() => onClose(saved)}
      footer={
        <Space>
          <Button onClick={() => onClose(saved)}>{t.close}</Button>
          <Button loading={busy === 'preview'} onClick={() => void preview()} data-testid="report-design-preview">
            {t.preview}
          </Button>
          <Button type="primary" loading={busy === 'save'} onClick={() => void save()} data-testid="report-design-save">
            {t.save}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t.hint}
      </Typography.Paragraph>
      {data ? (
        <div style={{ marginBottom: 8 }} data-testid="report-design-fields">
          {t.fields}: <Tag>{FIELDS.title}</Tag>
          <Tag>{FIELDS.subtitle}</Tag>
          <Tag>{FIELDS.rows}</Tag> · {t.columns}:{' '}
          {data.columns.map((c) => (
            <Tag key={c.key}>{language === 'en' ? c.label.en : c.label.zh}</Tag>
          ))}
        </div>
      ) : null}
      <Spin spinning={!data} wrapperClassName="mes-report-designer-spin">
        <div ref={host} style={{ height: '100%', width: '100%' }} data-testid="report-designer" />
      </Spin>
      <Modal
        open={!!previewUrl}
        width="80vw"
        footer={null}
        onCancel={() => setPreviewUrl(null)}
        title={t.preview}
        destroyOnHidden
      >
        {previewUrl ? (
          <iframe title="preview" src={previewUrl} style={{ width: '100%', height: '75vh', border: 0 }} />
        ) : null}
      </Modal>
    </Modal>
  );
}
