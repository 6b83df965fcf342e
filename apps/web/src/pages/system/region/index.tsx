import { regionResource } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';

/** Regions as a plain list for now; the lazy region tree beside it comes later. */
export default function RegionPage() {
  return <ResourcePage resource={regionResource} />;
}
