import { WorkScreen } from '../work-screen';

/** 我的事务 opened on its claim list. */
export default function WorkClaim() {
  return <WorkScreen initial="claim" />;
}
