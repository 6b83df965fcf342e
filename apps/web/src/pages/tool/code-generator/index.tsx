import { App, Button, Spin } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, codeResource } from '@mes/contracts';
import { apiPostReply } from '../../../api/server-state';
import { download } from '../../../engine/download';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import type { GeneratedFile } from '@mes/contracts';

// The highlighter loads with the dialog, only when a preview opens.
const CodePreview = lazy(() => import('./code-preview'));

const CODES = buttonCodes.code;
const API = codeResource.api;

/** Previews, downloads or copies configurations; reads a configuration's columns from its table. */
function useCodeActions() {
  const { t, i18n } = useTranslation('codegen');
  const { message } = App.useApp();
  const [files, setFiles] = useState<GeneratedFile[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, work: () => Promise<void>) => {
    setBusy(key);
    try {
      await work();
    } catch {
      // The client has toasted the server's reason (a 400 names the column).
    } finally {
      setBusy(null);
    }
  };
  const preview = (ids: string[]) =>
    run(`preview:${ids.join(',')}`, async () => {
      const answer = await apiPostReply<GeneratedFile[]>(`${API}/gen-code`, undefined, {
        params: { ids: ids.join(','), system: 'mes' },
      });
      setFiles(answer.data);
    });
  const zip = (ids: string[]) =>
    run(`download:${ids.join(',')}`, () =>
      download(`${API}/download`, { ids: ids.join(',') }, 'mes-code.zip', i18n.language),
    );
  const readColumns = (row: Row, ctx: ResourcePageContext) =>
    run(`columns:${row.id}`, async () => {
      const answer = await apiPostReply<{ columns?: unknown[] }>(`${API}/columns`, undefined, {
        params: { id: row.id },
      });
      void message.success(t('columnsRead', { count: answer.data.columns?.length ?? 0 }));
      ctx.reload();
    });
  const copy = (row: Row, ctx: ResourcePageContext) =>
    run(`copy:${row.id}`, async () => {
      await apiPostReply<string>(`${API}/copy`, undefined, { params: { id: row.id } });
      void message.success(t('copied'));
      ctx.reload();
    });
  return { files, closePreview: () => setFiles(null), busy, preview, zip, readColumns, copy };
}

export default function CodePage() {
  const { t } = useTranslation('codegen');
  const { message } = App.useApp();
  const actions = useCodeActions();
  const { busy } = actions;

  const rowActions = (row: Row, ctx: ResourcePageContext) => (
    <>
      {ctx.can(CODES.columns) && (
        <Button
          type="link"
          size="small"
          loading={busy === `columns:${row.id}`}
          onClick={() => void actions.readColumns(row, ctx)}
          data-testid="code-columns"
        >
          {t('readColumns')}
        </Button>
      )}
      {ctx.can(CODES.gen) && (
        <>
          <Button
            type="link"
            size="small"
            loading={busy === `preview:${row.id}`}
            onClick={() => void actions.preview([row.id])}
            data-testid="code-preview-open"
          >
            {t('preview')}
          </Button>
          <Button
            type="link"
            size="small"
            loading={busy === `download:${row.id}`}
            onClick={() => void actions.zip([row.id])}
            data-testid="code-download"
          >
            {t('download')}
          </Button>
        </>
      )}
      {ctx.can(CODES.copy) && (
        <Button
          type="link"
          size="small"
          loading={busy === `copy:${row.id}`}
          onClick={() => void actions.copy(row, ctx)}
          data-testid="code-copy"
        >
          {t('copy')}
        </Button>
      )}
    </>
  );

  const toolbar = (ctx: ResourcePageContext) => {
    if (!ctx.can(CODES.gen)) return null;
    const ids = ctx.selectedRows.map((r) => r.id);
    const guarded = (work: (ids: string[]) => Promise<void>) => () => {
      if (!ids.length) void message.warning(t('selectFirst'));
      else void work(ids);
    };
    return (
      <>
        <Button onClick={guarded(actions.preview)} data-testid="code-generate-selected">
          {t('generate')}
        </Button>
        <Button onClick={guarded(actions.zip)} data-testid="code-download-selected">
          {t('download')}
        </Button>
      </>
    );
  };

  return (
    <>
      <ResourcePage resource={codeResource} rowActions={rowActions} toolbar={toolbar} />
      {actions.files && (
        <Suspense fallback={<Spin fullscreen tip={t('loading')} />}>
          <CodePreview files={actions.files} onClose={actions.closePreview} />
        </Suspense>
      )}
    </>
  );
}
