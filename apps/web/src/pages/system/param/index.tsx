import { paramResource } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';

/** The generic screen of the definition; nothing here differs from it. */
export default function ParamPage() {
  return <ResourcePage resource={paramResource} />;
}
