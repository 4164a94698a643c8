import type { SetupTokenStore } from './setup-token-store';
import type { UserStore } from './user-store';

/** The account stores the API reaches through its context (both over the runtime's database). */
export interface Accounts {
  readonly users: UserStore;
  readonly setupTokens: SetupTokenStore;
}
