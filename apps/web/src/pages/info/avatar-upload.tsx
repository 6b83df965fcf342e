import { LoadingOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';
import { putFile } from '../providers/attachments/storage-api';
import { avatarProblem } from './profile-rules';

interface AvatarUploadProps {
  /** The avatar link (a form field: value and onChange come from Form.Item). */
  value?: string;
  onChange?: (link: string) => void;
}

/** Picks a jpg/png of at most 500 KB, uploads it, and hands back its link. */
export function AvatarUpload({ value, onChange }: AvatarUploadProps) {
  const { t } = useTranslation('profile');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');

  const refuse = (text: string) => {
    setProblem(text);
    void message.error(text);
  };

  return (
    <div className="mes-avatar-upload">
      <Upload
        name="file"
        listType="picture-card"
        showUploadList={false}
        accept=".jpg,.jpeg,.png,image/jpeg,image/png"
        beforeUpload={(file) => {
          const found = avatarProblem(file);
          if (found) {
            refuse(t(found));
            return Upload.LIST_IGNORE;
          }
          setProblem('');
          return true;
        }}
        customRequest={({ file, onSuccess, onError }) => {
          setBusy(true);
          // The server checks the avatar rule again, by the bytes: `kind: 'avatar'`.
          putFile(file as File, { kind: 'avatar', silent: true })
            .then((uploaded) => {
              onChange?.(uploaded.link);
              onSuccess?.(uploaded);
            })
            .catch((e: unknown) => {
              refuse(e instanceof ApiError && e.message ? e.message : t('common:unknownError'));
              onError?.(e instanceof Error ? e : new Error(String(e)));
            })
            .finally(() => setBusy(false));
        }}
        data-testid="avatar-upload"
      >
        {value && !busy ? (
          <img src={value} alt={t('avatarAlt')} className="mes-avatar-image" data-testid="avatar-image" />
        ) : (
          <div>
            {busy ? <LoadingOutlined /> : <PlusOutlined />}
            <div style={{ marginTop: 8 }}>{busy ? t('uploading') : t('upload')}</div>
          </div>
        )}
      </Upload>
      <Typography.Text type="secondary" className="mes-avatar-hint">
        {t('avatarHint')}
      </Typography.Text>
      {problem && (
        <Typography.Text type="danger" className="mes-avatar-hint" data-testid="avatar-error">
          {problem}
        </Typography.Text>
      )}
    </div>
  );
}
