import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { loginLogResource, SignInResult } from '@mes/contracts';
import { optionLabel } from '../log-detail-drawer';
import { LogPage } from '../log-page';

function ResultTag({ value }: { value: unknown }) {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <Tag color={value === SignInResult.succeeded ? 'green' : 'red'}>
      {optionLabel(loginLogResource.fields.success, value, lang)}
    </Tag>
  );
}

const render = { success: (value: unknown) => <ResultTag value={value} /> };

/** 登录日志: every sign-in attempt, read-only. */
export default function LoginLogScreen() {
  return <LogPage resource={loginLogResource} render={render} />;
}
