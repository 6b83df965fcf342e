import { WorkScreen } from '../work-screen';

/** 我的事务 opened on its send list. */
export default function WorkSend() {
  return <WorkScreen initial="send" />;
}
