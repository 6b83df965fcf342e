import { CopyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Modal, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  buttonCodes,
  DEVICE_ROTATE_SECRET_PATH,
  deviceResource,
  VERIFICATION_RELEASE_PATH,
  type DeviceRelease,
  type DeviceSecretReply,
} from '@mes/contracts';
import { apiGet, apiPost, resourceRoute } from '../../../api/server-state';
import { apiQuery } from '../../../api/server-state';
import { ResourcePage } from '../../../engine/resource-page';
import type { ExtraColumn, FormMode, ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { pageTexts } from '../../../i18n/page-texts';

const SECRET_CODE = buttonCodes.device.secret;
/** The embedded broker's default port (MQTT_PORT); an external broker has its own. */
const DEFAULT_MQTT_PORT = 1883;

const TEXT = pageTexts('device');
type Key = keyof (typeof TEXT)['zh'];

const rotateSecret = (id: string) =>
  apiPost<DeviceSecretReply>(DEVICE_ROTATE_SECRET_PATH, undefined, { params: { id } });
/** The first secret of a device just added; refused (silently) if the device already has one. */
const firstSecret = (id: string) =>
  apiPost<DeviceSecretReply>(DEVICE_ROTATE_SECRET_PATH, undefined, { params: { id, first: 1 }, silent: true });

function useText() {
  const { i18n } = useTranslation();
  const table = i18n.language.startsWith('en') ? TEXT.en : TEXT.zh;
  return (key: Key, code = '') => table[key].replace('{code}', code).replace('{n}', code);
}

/** The new secret, once: client id, secret, topic prefix and broker, each with a copy button. */
function SecretDialog({ shown, onClose }: { shown: DeviceSecretReply | null; onClose(): void }) {
  const text = useText();
  const { message } = App.useApp();
  const copy = (value: string) => {
    void navigator.clipboard?.writeText(value).then(
      () => message.success(text('copied')),
      () => undefined,
    );
  };
  const copyable = (value: string, testId: string) => (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
      <Typography.Text code data-testid={testId} style={{ flex: '1 1 auto', minWidth: 0, wordBreak: 'break-all' }}>
        {value}
      </Typography.Text>
      <Button size="small" icon={<CopyOutlined />} onClick={() => copy(value)} aria-label={text('copy')}>
        {text('copy')}
      </Button>
    </div>
  );
  const host = typeof window === 'undefined' ? 'localhost' : window.location.hostname;
  return (
    <Modal
      open={!!shown}
      title={text('dialogTitle', shown?.deviceCode)}
      width={640}
      destroyOnHidden
      maskClosable={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="device-secret-close">
          {text('close')}
        </Button>
      }
    >
      {shown && (
        <div data-testid="device-secret-dialog">
          <Alert type="warning" showIcon message={text('onceHint')} style={{ marginBottom: 16 }} />
          <Descriptions column={1} size="small" bordered styles={{ label: { whiteSpace: 'nowrap' } }}>
            <Descriptions.Item label={text('clientId')}>
              {copyable(shown.clientId, 'device-secret-client')}
            </Descriptions.Item>
            <Descriptions.Item label={text('username')}>
              {copyable(shown.clientId, 'device-secret-user')}
            </Descriptions.Item>
            <Descriptions.Item label={text('secretLabel')}>
              {copyable(shown.secret, 'device-secret-value')}
            </Descriptions.Item>
            <Descriptions.Item label={text('topic')}>
              {copyable(`${shown.topicPrefix}/`, 'device-secret-topic')}
            </Descriptions.Item>
            <Descriptions.Item label={text('broker')}>
              <Typography.Text code>{`mqtt://${host}:${DEFAULT_MQTT_PORT}`}</Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </div>
      )}
    </Modal>
  );
}

/**
 * 设备管理: the generic screen plus the MQTT secret. A device gets its client id on add and its
 * first secret right after (the add's reply is only the id): this page then calls rotate-secret
 * for the new device and shows the secret once. 密钥 on a row rotates after a confirm.
 */
export default function DeviceScreen() {
  const text = useText();
  const { modal } = App.useApp();
  const [shown, setShown] = useState<DeviceSecretReply | null>(null);
  // The code of a device being added, to find its id once the add succeeded.
  const adding = useRef<string | null>(null);

  const rowActions = useMemo(
    () => (row: Row, ctx: ResourcePageContext) =>
      ctx.can(SECRET_CODE) ? (
        <Button
          type="link"
          size="small"
          data-testid="device-secret"
          onClick={() =>
            modal.confirm({
              title: text('confirmTitle'),
              content: text('confirmBody', String(row.deviceCode)),
              okText: text('rotate'),
              cancelText: text('cancel'),
              onOk: async () => setShown(await rotateSecret(row.id)),
            })
          }
        >
          {text('secret')}
        </Button>
      ) : null,
    [modal, text],
  );

  // Steam sterilisers need a passing BD test each day before use (docs/records.md): the column
  // shows today's release; other devices need none and show nothing.
  const releases = useQuery({ ...apiQuery<DeviceRelease[]>(VERIFICATION_RELEASE_PATH), staleTime: 30_000 });
  const extraColumns = useMemo<ExtraColumn[]>(() => {
    const byId = new Map((releases.data ?? []).map((r) => [r.deviceId, r]));
    return [
      {
        key: 'release',
        title: text('release'),
        width: 110,
        render: (row: Row) => {
          const release = byId.get(row.id);
          if (!release) return null;
          if (release.released)
            return (
              <Tag color="green" data-testid="device-release" data-released="1">
                {text('released')}
              </Tag>
            );
          const why = release.block ? text(release.block, String(release.requalificationPasses ?? 0)) : '';
          return (
            <Tooltip title={why}>
              <Tag color="red" data-testid="device-release" data-released="0">
                {text('notReleased')}
              </Tag>
            </Tooltip>
          );
        },
      },
    ];
  }, [releases.data, text]);

  const beforeSubmit = (values: Record<string, unknown>, mode: FormMode) => {
    adding.current = mode === 'add' ? String(values.deviceCode ?? '') : null;
    return values;
  };

  const onChanged = () => {
    const code = adding.current;
    adding.current = null;
    if (!code) return;
    void (async () => {
      const page = await apiGet<{ records: Row[] }>(resourceRoute(deviceResource, 'list'), {
        deviceCode_equal: code,
        current: 1,
        size: 1,
      });
      const created = page.records.find((r) => r.deviceCode === code);
      if (!created) return;
      setShown(await firstSecret(created.id));
    })().catch(() => undefined);
  };

  return (
    <div data-testid="device-screen">
      <ResourcePage
        resource={deviceResource}
        rowActions={rowActions}
        extraColumns={extraColumns}
        beforeSubmit={beforeSubmit}
        onChanged={onChanged}
      />
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </div>
  );
}
