import { ErrorResult } from './error-result';

export default function Page() {
  return <ErrorResult status="403" title="forbidden" />;
}
