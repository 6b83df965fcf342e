import { ErrorResult } from './error-result';

export default function Page() {
  return <ErrorResult status="500" title="serverError" />;
}
