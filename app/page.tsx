import { ConsolePage } from '@/components/console/console-page';

export default function Home() {
  return <ConsolePage />;
}
