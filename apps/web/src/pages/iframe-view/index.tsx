import { useLocation } from 'react-router';

/** Embeds an external page: `/myiframe/urlPath?src=<url>` (only http and https are shown). */
export default function MyIframe() {
  const { search } = useLocation();
  const src = new URLSearchParams(search).get('src') ?? '';
  if (!/^https?:\/\//i.test(src)) return null;
  return <iframe title={src} src={src} style={{ width: '100%', height: 'calc(100vh - 140px)', border: 0 }} />;
}
