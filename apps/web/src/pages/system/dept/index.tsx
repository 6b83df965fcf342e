import { deptResource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';

/** 部门管理: the organisation tree; a row adds a child under itself. */
export default function DeptScreen() {
  return (
    <div data-testid="dept-screen">
      <ResourcePage resource={deptResource} treeTable />
    </div>
  );
}
