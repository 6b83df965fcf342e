import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, List, Popover, Result, Tabs, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  NOTICE_INBOX_PATH,
  warningResource,
  WARNING_UNHANDLED_PATH,
  type NoticeInboxEntry,
  type NoticeInboxReply,
  type UnhandledWarningRow,
  type UnhandledWarningsReply,
} from '@mes/contracts';
import { dictText } from '../../engine/dict-text';
import { WARNING_LEVEL_TAG } from '../warning-level';
import { ApiError } from '../../api/http';
import { useLiveCacheRefresh } from '../../api/live-cache';
import { useLiveOpen } from '../../api/live-events';
import { apiKey, apiQuery } from '../../api/server-state';
import { menuEntries } from '../../router/menu-paths';
import { useSession } from '../../session/session-store';
import { activateOnKey } from './key-activate';

/** Width from the spec (section 9); never wider than a narrow window. */
const POPOVER_WIDTH = 350;
/**
 * The unhandled warnings: the exact count (the badge's and the tab's) and the newest of the same
 * set, the server's one definition that the welcome page and the wall screen show too.
 */
const WARNING_URL = WARNING_UNHANDLED_PATH;
/** The pages an entry opens (`/business/notice/:id`, `/report/warning/:id`). */
const NOTICE_PAGE = '/business/notice';
const WARNING_PAGE = '/report/warning';

/** Whether the caller's menu has the warnings screen: the permission the UI knows of. */
function useMayReadWarnings(): boolean {
  const menuAll = useSession((s) => s.menuAll);
  return useMemo(() => menuEntries(menuAll).some((e) => e.node.code === warningResource.code), [menuAll]);
}

/** The popover's two feeds, kept current by live events (useLiveCacheRefresh invalidates them). */
function useNoticeFeeds(mayReadWarnings: boolean) {
  const notices = useQuery({ ...apiQuery<NoticeInboxReply>(NOTICE_INBOX_PATH, undefined, { silent: true }), retry: 1 });
  const warnings = useQuery({
    ...apiQuery<UnhandledWarningsReply>(WARNING_URL, undefined, { silent: true }),
    enabled: mayReadWarnings,
    retry: 1,
  });
  // A 403 means the roles lost the warnings since the menu was read: the tab goes, no error.
  const refused = warnings.error instanceof ApiError && warnings.error.status === 403;
  return { notices, warnings, showWarnings: mayReadWarnings && !refused };
}

function LoadFailed({ onRetry, testId }: { onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('live:loadFailed')}
      data-testid={testId}
      style={{ padding: '16px 0' }}
      extra={
        <Button size="small" onClick={onRetry}>
          {t('live:retry')}
        </Button>
      }
    />
  );
}

function NoticeList({ entries, onOpen }: { entries: NoticeInboxEntry[]; onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <List
      size="small"
      dataSource={entries}
      data-testid="notice-list"
      className="mes-notice-list"
      renderItem={(item) => (
        <List.Item
          key={item.id}
          data-testid="notice-item"
          data-id={item.id}
          className={item.read ? 'mes-notice-item' : 'mes-notice-item is-unread'}
          role="link"
          tabIndex={0}
          onClick={() => onOpen(item.id)}
          onKeyDown={activateOnKey}
        >
          <List.Item.Meta
            title={
              <span className="mes-notice-title">
                {!item.read && <Badge status="error" title={t('live:unreadMark')} />}
                <Typography.Text ellipsis={{ tooltip: item.title }}>{item.title}</Typography.Text>
              </span>
            }
            description={[dictText('notice', item.category, item.categoryName, lang), item.releaseTime]
              .filter(Boolean)
              .join(' · ')}
          />
        </List.Item>
      )}
    />
  );
}

function WarningList({ rows, onOpen }: { rows: UnhandledWarningRow[]; onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <List
      size="small"
      dataSource={rows}
      data-testid="warning-list"
      className="mes-notice-list"
      renderItem={(row) => (
        <List.Item
          key={row.id}
          data-testid="warning-item"
          data-id={row.id}
          className="mes-notice-item"
          role="link"
          tabIndex={0}
          onClick={() => onOpen(row.id)}
          onKeyDown={activateOnKey}
        >
          <List.Item.Meta
            title={
              <span className="mes-notice-title">
                <Tag color={WARNING_LEVEL_TAG[row.level] ?? 'default'}>
                  {dictText(
                    'warning_level',
                    row.level,
                    t(`live:level_${row.level}`, { defaultValue: String(row.level) }),
                    lang,
                  )}
                </Tag>
                <Typography.Text ellipsis={{ tooltip: row.message }}>{row.message || row.warningNo}</Typography.Text>
              </span>
            }
            description={[row.deviceName || row.deviceCode, row.startTime].filter(Boolean).join(' · ')}
          />
        </List.Item>
      )}
    />
  );
}

function Empty350({ text, testId }: { text: string; testId: string }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} data-testid={testId} />;
}

/**
 * Bell with the notices and warnings popover (docs/live.md). The badge counts unread notices and
 * unhandled warnings (the server's figure, docs/warnings.md), and follows live events without a
 * reload; an entry opens its page.
 */
export function NoticePopover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const mayReadWarnings = useMayReadWarnings();
  useLiveCacheRefresh();
  const live = useLiveOpen();
  const { notices, warnings, showWarnings } = useNoticeFeeds(mayReadWarnings);

  const unreadNotices = notices.data?.unread ?? 0;
  const openWarnings = showWarnings ? (warnings.data?.total ?? 0) : 0;
  const unread = unreadNotices + openWarnings;
  const label = unread ? `${t('header:notice')} (${t('header:unread', { count: unread })})` : t('header:notice');

  const go = (path: string) => {
    setOpen(false);
    void navigate(path);
  };
  const retry = (url: string) => () => void client.invalidateQueries({ queryKey: apiKey(url).slice(0, 1) });
  const tabLabel = (text: string, count: number) => (count ? `${text} (${count})` : text);

  const noticePane = notices.isError ? (
    <LoadFailed onRetry={retry(NOTICE_INBOX_PATH)} testId="notice-list-failed" />
  ) : notices.data?.records.length ? (
    <NoticeList entries={notices.data.records} onOpen={(id) => go(`${NOTICE_PAGE}/${id}`)} />
  ) : (
    <Empty350 text={t('header:noNotices')} testId="notice-list-empty" />
  );
  const warningPane = warnings.isError ? (
    <LoadFailed onRetry={retry(WARNING_URL)} testId="warning-list-failed" />
  ) : warnings.data?.records.length ? (
    <WarningList rows={warnings.data.records} onOpen={(id) => go(`${WARNING_PAGE}/${id}`)} />
  ) : (
    <Empty350 text={t('header:noWarnings')} testId="warning-list-empty" />
  );

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      arrow={false}
      open={open}
      onOpenChange={setOpen}
      styles={{ root: { width: POPOVER_WIDTH, maxWidth: 'calc(100vw - 16px)' }, body: { padding: '0 12px 8px' } }}
      classNames={{ root: 'mes-notice-popover' }}
      content={
        <Tabs
          data-testid="notice-tabs"
          items={[
            {
              key: 'notices',
              label: tabLabel(t('header:notices'), unreadNotices),
              children: noticePane,
            },
            ...(showWarnings
              ? [{ key: 'warnings', label: tabLabel(t('header:warnings'), openWarnings), children: warningPane }]
              : []),
          ]}
        />
      }
    >
      <span
        className="mes-header-tool"
        data-testid="notice"
        data-unread={unread}
        data-warnings={openWarnings}
        data-live={live ? 'open' : 'closed'}
        role="button"
        tabIndex={0}
        aria-haspopup="dialog"
        title={t('header:notice')}
        onKeyDown={activateOnKey}
      >
        {/* The name says the count in words (read from this text, not an aria-label that the badge's
            digits would contradict); the badge (99+ past 99) is for the eye only. */}
        <span className="mes-visually-hidden">{label}</span>
        <span aria-hidden="true">
          <Badge count={unread} size="small" overflowCount={99} offset={[2, -2]}>
            <BellOutlined style={{ color: 'inherit', fontSize: 16 }} />
          </Badge>
        </span>
      </span>
    </Popover>
  );
}
