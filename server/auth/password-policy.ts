/**
 * The password rule in a module of its own: the environment schema (server/config/env.ts) checks
 * CONTEXT_RUNTIME_ADMIN_PASSWORD against it at start without importing the database layer.
 */
/** NIST SP 800-63B asks for at least 8; 12 keeps an offline scrypt attack on a leaked row slow. */
export const MIN_PASSWORD_LENGTH = 12;
