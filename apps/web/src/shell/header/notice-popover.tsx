import { BellOutlined } from '@ant-design/icons';
import { Badge, Empty, List, Popover, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { activateOnKey } from './key-activate';

/** Width from the spec (section 9). */
const POPOVER_WIDTH = 350;

export interface NoticeEntry {
  id: string;
  title: string;
  text: string;
  read: boolean;
}

/**
 * The notices and warnings shown in the popover. The notice and equipment-warning feeds do not
 * exist yet (they come with the warnings work); until then both lists are honestly empty.
 */
function useNoticeFeeds(): { notices: NoticeEntry[]; warnings: NoticeEntry[] } {
  return { notices: [], warnings: [] };
}

function EntryList({ entries, empty, testId }: { entries: NoticeEntry[]; empty: string; testId: string }) {
  if (!entries.length) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} data-testid={`${testId}-empty`} />;
  }
  return (
    <List
      size="small"
      dataSource={entries}
      data-testid={testId}
      renderItem={(item) => (
        <List.Item key={item.id}>
          <List.Item.Meta title={item.title} description={item.text} />
        </List.Item>
      )}
    />
  );
}

/** Bell with the notices and warnings popover; the red dot shows only while something is unread. */
export function NoticePopover() {
  const { t } = useTranslation();
  const { notices, warnings } = useNoticeFeeds();
  const unread = [...notices, ...warnings].filter((e) => !e.read).length;
  const label = unread ? `${t('header:notice')} (${t('header:unread', { count: unread })})` : t('header:notice');

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      arrow={false}
      styles={{ root: { width: POPOVER_WIDTH }, body: { padding: '0 12px 8px' } }}
      classNames={{ root: 'mes-notice-popover' }}
      content={
        <Tabs
          data-testid="notice-tabs"
          items={[
            {
              key: 'notices',
              label: t('header:notices'),
              children: <EntryList entries={notices} empty={t('header:noNotices')} testId="notice-list" />,
            },
            {
              key: 'warnings',
              label: t('header:warnings'),
              children: <EntryList entries={warnings} empty={t('header:noWarnings')} testId="warning-list" />,
            },
          ]}
        />
      }
    >
      <span
        className="mes-header-tool mes-hide-xs"
        data-testid="notice"
        data-unread={unread}
        role="button"
        tabIndex={0}
        aria-haspopup="dialog"
        aria-label={label}
        title={t('header:notice')}
        onKeyDown={activateOnKey}
      >
        <Badge dot={unread > 0} offset={[-2, 2]}>
          <BellOutlined style={{ color: 'inherit', fontSize: 16 }} />
        </Badge>
      </span>
    </Popover>
  );
}
