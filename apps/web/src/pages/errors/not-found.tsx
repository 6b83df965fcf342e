import { ErrorResult } from './error-result';

export default function Page() {
  return <ErrorResult status="404" title="notFound" />;
}
