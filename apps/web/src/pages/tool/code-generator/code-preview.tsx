import { App, Button, Empty, Menu, Modal, Typography } from 'antd';
import hljs from 'highlight.js/lib/core';
import markdown from 'highlight.js/lib/languages/markdown';
import typescript from 'highlight.js/lib/languages/typescript';
import 'highlight.js/styles/github.css';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GeneratedFile } from '@mes/contracts';

// Only the two languages the generator writes: the whole highlighter with every language is ten
// times the size, and this module loads only when a preview opens.
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('markdown', markdown);

const languageOf = (path: string) => (path.endsWith('.md') ? 'markdown' : 'typescript');

/** The generated files: their paths on the left, the chosen one highlighted on the right. */
export default function CodePreview({ files, onClose }: { files: GeneratedFile[]; onClose(): void }) {
  const { t } = useTranslation('codegen');
  const { message } = App.useApp();
  const [chosen, setChosen] = useState(() => files.find((f) => f.path.endsWith('.ts'))?.path ?? files[0]?.path);
  const file = files.find((f) => f.path === chosen);
  // highlight.js escapes the text it wraps, so its HTML carries no markup of the source's own.
  const html = useMemo(
    () => (file ? hljs.highlight(file.content, { language: languageOf(file.path) }).value : ''),
    [file],
  );
  const copy = async () => {
    if (!file) return;
    await navigator.clipboard.writeText(file.content);
    void message.success(t('sourceCopied'));
  };
  return (
    <Modal
      open
      title={t('previewTitle')}
      width={1100}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="copy" onClick={() => void copy()} disabled={!file} data-testid="code-preview-copy">
          {t('copySource')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose} data-testid="code-preview-close">
          {t('close')}
        </Button>,
      ]}
    >
      {files.length ? (
        <div style={{ display: 'flex', gap: 12, minHeight: 420 }} data-testid="code-preview">
          <Menu
            style={{ width: 300, flex: 'none', borderInlineEnd: '1px solid rgba(5,5,5,0.06)' }}
            selectedKeys={chosen ? [chosen] : []}
            onClick={({ key }) => setChosen(key)}
            items={files.map((f) => ({
              key: f.path,
              label: (
                <Typography.Text title={f.path} ellipsis style={{ maxWidth: 260 }}>
                  {f.path.split('/').pop()}
                </Typography.Text>
              ),
            }))}
            data-testid="code-preview-files"
          />
          <div style={{ flex: 1, minWidth: 0 }}>
            <Typography.Text type="secondary" copyable={{ text: file?.path ?? '' }}>
              {file?.path}
            </Typography.Text>
            <pre
              className="hljs"
              style={{ marginTop: 8, maxHeight: 560, overflow: 'auto', fontSize: 12, padding: 12, borderRadius: 6 }}
              data-testid="code-preview-source"
            >
              <code dangerouslySetInnerHTML={{ __html: html }} />
            </pre>
          </div>
        </div>
      ) : (
        <Empty />
      )}
    </Modal>
  );
}
