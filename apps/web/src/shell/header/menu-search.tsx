import { SearchOutlined } from '@ant-design/icons';
import { AutoComplete, Input, Modal, type InputRef } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MenuNode } from '@mes/contracts';
import { menuEntries, menuLabel, type MenuEntry } from '../../router/menu-paths';
import { useSession } from '../../session/session-store';
import { matchMenus } from './menu-match';
import { HeaderToolButton } from './header-tool-button';

type MenuWithI18n = MenuNode & { meta?: { i18n?: string } };

/** Header icon opening the 菜单搜索 overlay over every screen of the caller's menus. */
export function MenuSearch() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const menuAll = useSession((s) => s.menuAll);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const input = useRef<InputRef>(null);

  const entries = useMemo(
    () =>
      menuEntries(menuAll).map((entry: MenuEntry) => {
        const node = entry.node as MenuWithI18n;
        return { url: entry.url, node, label: node.meta?.i18n ? t(node.meta.i18n) : menuLabel(node, i18n.language) };
      }),
    [menuAll, t, i18n.language],
  );
  const matches = matchMenus(entries, text);

  const close = () => {
    setOpen(false);
    setText('');
  };
  // One Esc closes the overlay wherever focus is: heard in the capture phase, before the
  // autocomplete's list takes the first Esc for itself (and stops it) or the Modal sees it.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      setOpen(false);
      setText('');
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [open]);

  const choose = (url: string) => {
    const entry = entries.find((e) => e.url === url);
    close();
    if (!entry) return;
    // External links (isOpen 2) open in a new window, as from the side menu.
    if (entry.node.isOpen === 2) window.open(entry.node.path, '_blank', 'noopener');
    else void navigate(entry.url);
  };

  return (
    <>
      <HeaderToolButton label={t('header:menuSearch')} onClick={() => setOpen(true)} data-testid="menu-search">
        <SearchOutlined />
      </HeaderToolButton>
      <Modal
        open={open}
        title={t('header:menuSearch')}
        footer={null}
        onCancel={close}
        destroyOnHidden
        afterOpenChange={(visible) => visible && input.current?.focus()}
        className="mes-menu-search"
      >
        <AutoComplete
          value={text}
          style={{ width: '100%' }}
          options={matches.map((m) => ({
            value: m.url,
            label: (
              <span data-testid="menu-search-option">
                {m.label} <span className="mes-menu-search-url">{m.url}</span>
              </span>
            ),
          }))}
          notFoundContent={text.trim() ? t('header:menuSearchEmpty') : null}
          onSearch={setText}
          onSelect={(url: string) => choose(url)}
          data-testid="menu-search-input"
        >
          <Input ref={input} prefix={<SearchOutlined />} placeholder={t('header:menuSearchPlaceholder')} allowClear />
        </AutoComplete>
      </Modal>
    </>
  );
}
