import { Empty } from 'antd';

// Placeholder while this session's screen is being built (replaced before it lands).
export default function Detail() {
  return <Empty />;
}
