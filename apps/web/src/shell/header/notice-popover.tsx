import { BellOutlined, NotificationOutlined, WarningOutlined } from '@ant-design/icons';
import { Avatar, Badge, List, Popover, Tabs, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Width from the spec (section 9). */
const POPOVER_WIDTH = 350;

interface SampleEntry {
  key: string;
  icon: ReactNode;
  color: string;
  title: string;
  text: string;
}

/**
 * Bell with the notices and warnings popover. Both tabs hold one entry marked "sample" until the
 * notice and warning feeds exist; nothing here is live data.
 */
export function NoticePopover() {
  const { t } = useTranslation();
  const tab = (entry: SampleEntry) => (
    <List
      size="small"
      dataSource={[entry]}
      renderItem={(item) => (
        <List.Item data-testid={`notice-sample-${item.key}`}>
          <List.Item.Meta
            avatar={<Avatar style={{ background: item.color }} icon={item.icon} />}
            title={
              <span>
                {item.title} <Tag>{t('header:sample')}</Tag>
              </span>
            }
            description={item.text}
          />
        </List.Item>
      )}
    />
  );

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
              children: tab({
                key: 'notice',
                icon: <NotificationOutlined />,
                color: '#409EFF',
                title: t('header:sampleNoticeTitle'),
                text: t('header:sampleNoticeText'),
              }),
            },
            {
              key: 'warnings',
              label: t('header:warnings'),
              children: tab({
                key: 'warning',
                icon: <WarningOutlined />,
                color: '#FA8C16',
                title: t('header:sampleWarningTitle'),
                text: t('header:sampleWarningText'),
              }),
            },
          ]}
        />
      }
    >
      <span
        className="mes-header-tool mes-hide-xs"
        data-testid="notice"
        role="button"
        aria-label={t('header:notice')}
        title={t('header:notice')}
      >
        {/* A dot, not a count: there is no real unread count yet. */}
        <Badge dot offset={[-2, 2]}>
          <BellOutlined style={{ color: 'inherit', fontSize: 16 }} />
        </Badge>
      </span>
    </Popover>
  );
}
