import { Alert, App, Button, Input, Modal, Space, Spin, type ButtonProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import { flowModelResource } from '@mes/contracts';
import { ApiError } from '../../../api/http';
import { apiPost, apiQuery } from '../../../api/server-state';
import type { ModelerHandle } from '../bpmn/modeler-canvas';
import { useLang } from '../bpmn/deploy-fields';
import { modelProblems, newModelXml } from '../bpmn/problems';
import { pageTexts } from '../../../i18n/page-texts';

// bpmn-js and its properties panel: fetched when a designer first opens, never with the list.
const ModelerCanvas = lazy(() => import('../bpmn/modeler-canvas'));

const TEXT = pageTexts('modelDesigner');

const MODEL_API = flowModelResource.api;

interface ModelRow {
  id: string;
  xml: string;
  description?: string | null;
}

export interface ModelDesignerProps {
  /** The model to edit; `null` starts a new one. */
  modelId: string | null;
  onClose(changed: boolean): void;
}

/**
 * The designer: bpmn-js's modeler with its properties panel (assignee, candidate users and
 * groups, form key, conditions), an XML import, and save = submit. The server lints and parses
 * the model (docs/workflow.md "Linting"); a refusal is listed problem by problem above the canvas
 * and the diagram stays as drawn.
 */
export function ModelDesigner({ modelId, onClose }: ModelDesignerProps) {
  const lang = useLang();
  const text = TEXT[lang];
  const { message } = App.useApp();
  // A new model starts from a start event alone; an existing one from the server's copy.
  const [fresh] = useState<ModelRow | null>(() =>
    modelId === null ? { id: '', xml: newModelXml(`Process_${Date.now().toString(36)}`, text.newName) } : null,
  );
  const detail = useQuery({
    ...apiQuery<ModelRow>(`${MODEL_API}/detail`, { id: modelId ?? '' }),
    enabled: modelId !== null,
  });
  const loaded = fresh ?? detail.data ?? null;
  // null: as loaded, until the author types.
  const [typed, setTyped] = useState<string | null>(null);
  const description = typed ?? loaded?.description ?? '';
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [importing, setImporting] = useState<string | null>(null);
  const handle = useRef<ModelerHandle | null>(null);

  const save = async () => {
    if (!handle.current) return;
    setSaving(true);
    setError(null);
    try {
      const xml = await handle.current.saveXml();
      await apiPost<string>(
        `${MODEL_API}/submit`,
        { ...(loaded?.id ? { id: loaded.id } : {}), xml, description: description || null },
        { silent: true },
      );
      void message.success(text.saved);
      onClose(true);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      if (!(failure instanceof ApiError)) throw failure;
    } finally {
      setSaving(false);
    }
  };

  const problems = error === null ? null : modelProblems(error);
  return (
    <Modal
      open
      width="92vw"
      style={{ top: 24 }}
      title={modelId === null ? text.titleNew : text.titleEdit}
      onCancel={() => onClose(false)}
      destroyOnHidden
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={() => onClose(false)} data-testid="flow-model-cancel">
            {text.cancel}
          </Button>
          <Button
            type="primary"
            loading={saving}
            disabled={!loaded}
            onClick={() => void save().catch(() => undefined)}
            data-testid="flow-model-save"
          >
            {text.save}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Input
            style={{ width: 360 }}
            placeholder={text.description}
            value={description}
            maxLength={500}
            onChange={(e) => setTyped(e.target.value)}
            data-testid="flow-model-description"
          />
          <Button onClick={() => setImporting('')} data-testid="flow-model-import">
            {text.importXml}
          </Button>
        </Space>
        {problems ? (
          <Alert
            type="error"
            showIcon
            closable
            onClose={() => setError(null)}
            data-testid="flow-model-problems"
            message={problems.heading}
            description={
              problems.problems.length ? (
                <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                  {problems.problems.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              ) : undefined
            }
          />
        ) : null}
        {loaded ? (
          <Suspense fallback={<Spin />}>
            <ModelerCanvas
              xml={loaded.xml}
              lang={lang}
              onReady={(h) => {
                handle.current = h;
              }}
              onImportError={(why) => setError(`${text.importFailed}: ${why}`)}
            />
          </Suspense>
        ) : detail.isError ? (
          <Alert type="error" showIcon message={detail.error.message} />
        ) : (
          <Spin />
        )}
      </Space>
      <Modal
        open={importing !== null}
        title={text.importTitle}
        width={720}
        onCancel={() => setImporting(null)}
        onOk={() => {
          const xml = importing ?? '';
          setImporting(null);
          setError(null);
          void handle.current?.importXml(xml).catch(() => undefined);
        }}
        okButtonProps={{ 'data-testid': 'flow-model-import-ok' } as ButtonProps}
      >
        <Input.TextArea
          rows={14}
          value={importing ?? ''}
          onChange={(e) => setImporting(e.target.value)}
          data-testid="flow-model-import-xml"
        />
      </Modal>
    </Modal>
  );
}
