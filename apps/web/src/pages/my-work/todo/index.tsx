import { WorkScreen } from '../work-screen';

/** 我的事务 opened on its todo list. */
export default function WorkTodo() {
  return <WorkScreen initial="todo" />;
}
