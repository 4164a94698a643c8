import type { Metadata } from 'next';
import { NotFoundPanel } from '@/components/layout/not-found-panel';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return <NotFoundPanel title="Page not found">There is no page at this address. It may have been mistyped, or the link may be out of date.</NotFoundPanel>;
}
