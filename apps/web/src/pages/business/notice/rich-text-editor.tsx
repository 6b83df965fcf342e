import {
  BoldOutlined,
  DisconnectOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Input, Modal, Tooltip, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './notice.css';

/** What the server keeps of a link (notice-html.ts): absolute web addresses and mail. */
const LINK_URL = /^(?:https?:\/\/|mailto:)\S+$/i;

export interface RichTextEditorProps {
  // Injected by Form.Item.
  id?: string;
  value?: string;
  onChange?: (html: string) => void;
  onBlur?: () => void;
  placeholder?: string;
  /** Shows the content as the reader sees it: no toolbar, nothing to edit. */
  readOnly?: boolean;
}

interface ToolProps {
  label: string;
  active?: boolean;
  disabled?: boolean;
  icon?: ReactNode;
  text?: string;
  testId: string;
  onClick(): void;
}

function Tool({ label, active, disabled, icon, text, testId, onClick }: ToolProps) {
  return (
    <Tooltip title={label}>
      <Button
        size="small"
        type={active ? 'primary' : 'text'}
        aria-label={label}
        aria-pressed={active}
        disabled={disabled}
        icon={icon}
        onClick={onClick}
        // Keeps the selection in the editor while the button is pressed.
        onMouseDown={(e) => e.preventDefault()}
        data-testid={testId}
      >
        {text}
      </Button>
    </Tooltip>
  );
}

/** Mounted while open: it starts from the link at the cursor, if any. */
function LinkDialog({ editor, onClose }: { editor: Editor; onClose(): void }) {
  const { t } = useTranslation('notice');
  const [href, setHref] = useState(() => (editor.getAttributes('link').href as string | undefined) ?? 'https://');
  const [error, setError] = useState(false);
  const apply = () => {
    const url = href.trim();
    if (!LINK_URL.test(url)) {
      setError(true);
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    // Without a selection the address itself becomes the link's text.
    if (editor.state.selection.empty && !editor.isActive('link'))
      chain.insertContent({ type: 'text', text: url, marks: [{ type: 'link', attrs: { href: url } }] }).run();
    else chain.setLink({ href: url }).run();
    onClose();
  };
  return (
    <Modal
      open
      title={t('linkTitle')}
      okText={t('ok')}
      cancelText={t('cancel')}
      onOk={apply}
      onCancel={onClose}
      destroyOnHidden
      width={420}
    >
      <Input
        autoFocus
        value={href}
        status={error ? 'error' : undefined}
        placeholder={t('linkPlaceholder')}
        onChange={(e) => setHref(e.target.value)}
        onPressEnter={(e) => {
          // The notice's dialog around (in React's tree) saves on Enter: this Enter is the link's.
          e.preventDefault();
          e.stopPropagation();
          apply();
        }}
        data-testid="notice-link-input"
      />
      {error && <Typography.Text type="danger">{t('linkInvalid')}</Typography.Text>}
    </Modal>
  );
}

/**
 * The notice's rich-text field (Tiptap): bold, italic, strike, headings, lists, quotes, links,
 * undo. It writes HTML; the server applies its allow-list before storing (docs/desk.md), so the
 * editor is a convenience, not the safety line.
 */
export function RichTextEditor({ id, value, onChange, onBlur, placeholder, readOnly }: RichTextEditorProps) {
  const { t } = useTranslation('notice');
  const [linking, setLinking] = useState(false);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'] },
      }),
    ],
    content: value ?? '',
    editable: !readOnly,
    // The toolbar shows which marks are on at the cursor.
    shouldRerenderOnTransaction: true,
    editorProps: { attributes: { class: 'mes-notice-content mes-rich-editor-body', 'aria-label': placeholder ?? '' } },
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
    onBlur: () => onBlur?.(),
  });

  useEffect(() => {
    if (editor && editor.isEditable === !!readOnly) editor.setEditable(!readOnly, false);
  }, [editor, readOnly]);

  // A value set from outside (the edit dialog loading a notice) replaces the document.
  useEffect(() => {
    if (!editor) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if ((value ?? '') !== current) editor.commands.setContent(value ?? '', { emitUpdate: false });
  }, [editor, value]);

  if (!editor) return null;
  if (readOnly)
    return (
      <div className="mes-rich-editor mes-rich-editor-readonly" id={id} data-testid="notice-editor">
        <EditorContent editor={editor} />
      </div>
    );
  const tb = (key: string) => t(`toolbar.${key}`);
  const chain = () => editor.chain().focus();
  return (
    <div className="mes-rich-editor" id={id} data-testid="notice-editor">
      <div className="mes-rich-editor-toolbar" role="toolbar">
        <Tool
          label={tb('paragraph')}
          text="P"
          active={editor.isActive('paragraph')}
          onClick={() => chain().setParagraph().run()}
          testId="notice-tool-paragraph"
        />
        <Tool
          label={tb('h2')}
          text="H2"
          active={editor.isActive('heading', { level: 2 })}
          onClick={() => chain().toggleHeading({ level: 2 }).run()}
          testId="notice-tool-h2"
        />
        <Tool
          label={tb('h3')}
          text="H3"
          active={editor.isActive('heading', { level: 3 })}
          onClick={() => chain().toggleHeading({ level: 3 }).run()}
          testId="notice-tool-h3"
        />
        <Divider type="vertical" />
        <Tool
          label={tb('bold')}
          icon={<BoldOutlined />}
          active={editor.isActive('bold')}
          onClick={() => chain().toggleBold().run()}
          testId="notice-tool-bold"
        />
        <Tool
          label={tb('italic')}
          icon={<ItalicOutlined />}
          active={editor.isActive('italic')}
          onClick={() => chain().toggleItalic().run()}
          testId="notice-tool-italic"
        />
        <Tool
          label={tb('strike')}
          icon={<StrikethroughOutlined />}
          active={editor.isActive('strike')}
          onClick={() => chain().toggleStrike().run()}
          testId="notice-tool-strike"
        />
        <Divider type="vertical" />
        <Tool
          label={tb('bulletList')}
          icon={<UnorderedListOutlined />}
          active={editor.isActive('bulletList')}
          onClick={() => chain().toggleBulletList().run()}
          testId="notice-tool-bullet"
        />
        <Tool
          label={tb('orderedList')}
          icon={<OrderedListOutlined />}
          active={editor.isActive('orderedList')}
          onClick={() => chain().toggleOrderedList().run()}
          testId="notice-tool-ordered"
        />
        <Tool
          label={tb('quote')}
          text="❝"
          active={editor.isActive('blockquote')}
          onClick={() => chain().toggleBlockquote().run()}
          testId="notice-tool-quote"
        />
        <Divider type="vertical" />
        <Tool
          label={tb('link')}
          icon={<LinkOutlined />}
          active={editor.isActive('link')}
          onClick={() => setLinking(true)}
          testId="notice-tool-link"
        />
        <Tool
          label={tb('unlink')}
          icon={<DisconnectOutlined />}
          disabled={!editor.isActive('link')}
          onClick={() => chain().extendMarkRange('link').unsetLink().run()}
          testId="notice-tool-unlink"
        />
        <Divider type="vertical" />
        <Tool
          label={tb('undo')}
          icon={<UndoOutlined />}
          disabled={!editor.can().undo()}
          onClick={() => chain().undo().run()}
          testId="notice-tool-undo"
        />
        <Tool
          label={tb('redo')}
          icon={<RedoOutlined />}
          disabled={!editor.can().redo()}
          onClick={() => chain().redo().run()}
          testId="notice-tool-redo"
        />
      </div>
      <EditorContent editor={editor} />
      {linking && <LinkDialog editor={editor} onClose={() => setLinking(false)} />}
    </div>
  );
}
