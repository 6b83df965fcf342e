import { socialSourceResource } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';

/** 第三方登录: the tenant's OAuth2 / OpenID Connect providers (docs/sign-in.md). */
export default function SocialSourceScreen() {
  return <ResourcePage resource={socialSourceResource} />;
}
