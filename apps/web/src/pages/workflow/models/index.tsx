import { Button } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { buttonCodes, flowModelResource, permissionCodes } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { useLang } from '../bpmn/deploy-fields';
import { DeployDialog } from './deploy-dialog';
import { ModelDesigner } from './model-designer';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('workflowModels');
const CODES = permissionCodes(flowModelResource.code);
// The XML is edited on the canvas, not as text: the generic dialog keeps the description only.
const OVERRIDES = { xml: { form: false as const } };

/**
 * 模型管理: the generic list of models, a designer (bpmn-js, loaded only here) for a new model
 * and for 设计 of one, and 部署 of a saved model (docs/workflow.md "Modeler and administration
 * screens").
 */
export default function ModelScreen() {
  const text = TEXT[useLang()];
  const [designing, setDesigning] = useState<{ id: string | null } | null>(null);
  const [deploying, setDeploying] = useState<Row | null>(null);
  const reload = useRef<() => void>(() => undefined);

  const toolbar = useCallback(
    (ctx: ResourcePageContext) => {
      reload.current = ctx.reload;
      return ctx.can(CODES.add) ? (
        <Button type="primary" onClick={() => setDesigning({ id: null })} data-testid="flow-model-add">
          {text.add}
        </Button>
      ) : null;
    },
    [text],
  );
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) => {
      reload.current = ctx.reload;
      return (
        <>
          {ctx.can(CODES.edit) ? (
            <Button
              type="link"
              size="small"
              onClick={() => setDesigning({ id: row.id })}
              data-testid="flow-model-design"
            >
              {text.design}
            </Button>
          ) : null}
          {ctx.can(buttonCodes.flowModel.deploy) ? (
            <Button type="link" size="small" onClick={() => setDeploying(row)} data-testid="flow-model-deploy">
              {text.deploy}
            </Button>
          ) : null}
        </>
      );
    },
    [text],
  );

  return (
    <div data-testid="flow-model-screen">
      <ResourcePage
        resource={flowModelResource}
        noAdd
        toolbar={toolbar}
        rowActions={rowActions}
        fieldOverrides={OVERRIDES}
        dialogWidth={560}
      />
      {designing ? (
        <ModelDesigner
          modelId={designing.id}
          onClose={(changed) => {
            setDesigning(null);
            if (changed) reload.current();
          }}
        />
      ) : null}
      {deploying ? (
        <DeployDialog
          model={{ id: deploying.id, name: String(deploying.name ?? deploying.modelKey ?? '') }}
          onClose={() => setDeploying(null)}
        />
      ) : null}
    </div>
  );
}
