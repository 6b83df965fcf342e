import { WorkScreen } from '../work-screen';

/** 我的事务 opened on its start list. */
export default function WorkStart() {
  return <WorkScreen initial="start" />;
}
