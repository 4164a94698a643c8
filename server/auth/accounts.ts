import type { ApiKeyStore } from './api-key-store';
import type { SetupTokenStore } from './setup-token-store';
import type { UserStore } from './user-store';

/** The account stores the API reaches through its context (both over the runtime's database). */
export interface Accounts {
  readonly users: UserStore;
  readonly setupTokens: SetupTokenStore;
  /** Absent in tests of routers that do not manage keys. */
  readonly apiKeys?: ApiKeyStore;
}
