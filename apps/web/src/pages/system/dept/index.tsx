import { deptResource } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';

/** 部门管理: the organisation tree; a row adds a child under itself. */
export default function DeptScreen() {
  return (
    <div data-testid="dept-screen">
      <ResourcePage resource={deptResource} treeTable />
    </div>
  );
}
