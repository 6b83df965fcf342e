import { WorkScreen } from '../work-screen';

/** 我的事务 opened on its done list. */
export default function WorkDone() {
  return <WorkScreen initial="done" />;
}
