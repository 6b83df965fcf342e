import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { noticeResource, permissionCodes } from '@mes/contracts';
import { ApiError } from '../../../api/http';
import { invalidateRoutes, resourceRoute } from '../../../api/server-state';
import { useFetchNow } from '../../../api/use-api';
import { dictText } from '../../../engine/dict-text';
import { useSession } from '../../../session/session-store';
import './notice.css';

const NOTICE_SCREEN = '/business/notice';
const VIEW_CODE = permissionCodes(noticeResource.code).view;

interface NoticeView {
  id: string;
  title: string;
  category: number;
  categoryName?: string;
  releaseTime: string;
  content: string;
}

/**
 * The notice as its audience reads it (`view`, which also marks it read). Someone who manages
 * notices may open one not addressed to them, or not yet released, through the screen's detail.
 */
async function readNotice(
  fetchNow: ReturnType<typeof useFetchNow>,
  id: string,
  mayManage: boolean,
): Promise<NoticeView> {
  try {
    return await fetchNow<NoticeView>(resourceRoute(noticeResource, 'view'), { id });
  } catch (error) {
    if (!mayManage || !(error instanceof ApiError) || error.status !== 404) throw error;
    return fetchNow<NoticeView>(resourceRoute(noticeResource, 'detail'), { id });
  }
}

/** 通知详情 (`/business/notice/:id`): title, category, release time and the content. */
export default function NoticeDetail() {
  const { t, i18n } = useTranslation('notice');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const mayManage = useSession((s) => s.permission[VIEW_CODE] === true);
  const fetchNow = useFetchNow();
  const query = useQuery({
    queryKey: ['notice-view', id],
    queryFn: () => readNotice(fetchNow, id, mayManage),
    retry: false,
    enabled: /^\d{1,19}$/.test(id),
  });
  // Reading marked it read: inbox counts and lists elsewhere are stale now.
  const loaded = query.isSuccess;
  useEffect(() => {
    if (loaded) void invalidateRoutes(client, noticeResource.api);
  }, [loaded, client]);

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(NOTICE_SCREEN)} data-testid="notice-back">
      {t('detail.back')}
    </Button>
  );
  if (query.isPending && query.fetchStatus !== 'idle')
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  const notice = query.data;
  if (!notice)
    return (
      <Card>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert
            type="warning"
            showIcon
            message={t('detail.notFound')}
            description={query.error instanceof Error ? query.error.message : undefined}
            data-testid="notice-not-found"
          />
          {back}
        </Space>
      </Card>
    );
  return (
    <Card data-testid="notice-reader">
      <Typography.Title level={3} style={{ marginTop: 0, overflowWrap: 'anywhere' }} data-testid="notice-reader-title">
        {notice.title}
      </Typography.Title>
      <Space wrap size={[12, 4]} style={{ marginBottom: 16 }}>
        <span>
          {t('detail.category')}:{' '}
          <Tag color="blue">{dictText('notice', notice.category, notice.categoryName, lang)}</Tag>
        </span>
        <Typography.Text type="secondary">
          {t('detail.releaseTime')}: {notice.releaseTime}
        </Typography.Text>
      </Space>
      {notice.content ? (
        <div
          className="mes-notice-content"
          data-testid="notice-reader-content"
          // The server stored this through its allow-list (docs/desk.md): no script, handler or unsafe URL.
          dangerouslySetInnerHTML={{ __html: notice.content }}
        />
      ) : (
        <Empty description={t('detail.empty')} />
      )}
      <div style={{ marginTop: 24 }}>{back}</div>
    </Card>
  );
}
