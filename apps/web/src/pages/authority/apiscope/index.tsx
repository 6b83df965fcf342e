import { apiScopeResource } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';

/** The generic screen of the definition; nothing here differs from it. */
export default function ApiScopePage() {
  return <ResourcePage resource={apiScopeResource} />;
}
