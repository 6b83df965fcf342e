import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { menuResource, type ResourceDef } from '@mes/contracts';
import { resourceRoute } from '../../../api/server-state';
import { ResourcePage } from '../../../engine/resource-page';
import { TreeAside } from '../../../engine/tree-aside';
import { useSession } from '../../../session/session-store';

interface ScopeScreenProps {
  resource: ResourceDef;
  /** The family's button code of configuring a menu's scopes (`data_scope_setting`, `api_scope_setting`). */
  settingCode: string;
}

/**
 * The data-scope and API-scope screens. Holding the family's setting button adds the menu tree
 * the family's screens configure scopes by: a menu picked there narrows the list to its scopes
 * and is the menu a new scope starts under.
 */
export function ScopeScreen({ resource, settingCode }: ScopeScreenProps) {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const maySet = useSession((s) => s.permission[settingCode] === true);
  const [menuId, setMenuId] = useState<string>();
  const params = useMemo(() => ({ menuId: maySet ? menuId : undefined }), [maySet, menuId]);
  const overrides = useMemo(() => (maySet && menuId ? { menuId: { default: menuId } } : undefined), [maySet, menuId]);
  const menuLabel = resource.fields.menuId?.label[lang] ?? '';
  return (
    <ResourcePage
      resource={resource}
      params={params}
      fieldOverrides={overrides}
      aside={
        maySet ? (
          <TreeAside
            title={menuLabel}
            url={resourceRoute(menuResource, 'tree')}
            selected={menuId}
            onSelect={setMenuId}
            testId="scope-menu"
          />
        ) : undefined
      }
    />
  );
}
