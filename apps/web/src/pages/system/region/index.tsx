import { Button } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, regionResource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext } from '../../../engine/resource-page-types';
import { RegionDebugDialog } from './region-debug-dialog';

/** Regions as a plain list, and the family's 区划调试 picker for holders of `region_debug`. */
export default function RegionPage() {
  const { t } = useTranslation('system');
  // The button's label, with the screen (the family's `region_debug`).
  const label = t('regionDebug');
  const [debugging, setDebugging] = useState(false);
  const toolbar = useCallback(
    (ctx: ResourcePageContext) =>
      ctx.can(buttonCodes.region.debug) && (
        <Button onClick={() => setDebugging(true)} data-testid="region-debug">
          {label}
        </Button>
      ),
    [label],
  );
  return (
    <>
      <ResourcePage resource={regionResource} toolbar={toolbar} />
      <RegionDebugDialog open={debugging} title={label} onClose={() => setDebugging(false)} />
    </>
  );
}
