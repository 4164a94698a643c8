import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { RecentAnswers } from '@/components/answers/recent-answers';
import { ConsolePage } from '@/components/console/console-page';
import { authOptions, sessionUserOf } from '@/server/auth/auth-options';
import { ROLES, rankOf } from '@/server/auth/roles';

// The layout's title template applies to child segments only, not to a page beside it, hence absolute.
export const metadata: Metadata = { title: { absolute: 'Console · Context Runtime' } };

export default async function Home() {
  const user = sessionUserOf(await getServerSession(authOptions()).catch(() => null));
  // The API enforces the role; this only spares a viewer a form whose every button would answer FORBIDDEN:
  // a viewer reads the answers they may read instead (answers.recent).
  const canRun = user !== undefined && rankOf(user.roles) >= ROLES.indexOf('operator');
  return canRun ? <ConsolePage canRun={canRun} /> : <RecentAnswers />;
}
