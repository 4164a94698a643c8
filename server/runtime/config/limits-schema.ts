import { z } from 'zod';

/** 12 MiB: 8 MiB of files as base64 plus the JSON around them. */
const UPLOAD_BODY_BYTES = 12 * 1024 * 1024;

/**
 * `limits:` in context-runtime.yaml (issue 12, finding 6). Each guards a resource one caller could
 * otherwise take from everyone: sign-in costs a 32 MiB scrypt on a 4-thread pool, a tRPC batch or
 * body can be made arbitrarily large, and a user's runs spend model money and scheduler slots.
 * `null` turns a spending limit off.
 */
export const limitsSchema = z
  .object({
    sign_in: z
      .object({
        /** Failed password attempts on one account within the window before it is locked out. */
        max_failures_per_account: z.number().int().min(1).max(1000).default(5),
        /** Failed attempts from one client address within the window (spread over any accounts). */
        max_failures_per_ip: z.number().int().min(1).max(100_000).default(20),
        window_seconds: z.number().int().min(1).max(86_400).default(900),
        /** The first lockout; each further failure while over the limit doubles it, up to max_lockout_seconds. */
        lockout_seconds: z.number().int().min(1).max(86_400).default(30),
        max_lockout_seconds: z.number().int().min(1).max(86_400).default(900),
      })
      .strict()
      .default({ max_failures_per_account: 5, max_failures_per_ip: 20, window_seconds: 900, lockout_seconds: 30, max_lockout_seconds: 900 }),
    api: z
      .object({
        /** Procedures in one tRPC batch request (the client batches a page's queries: about 6). */
        max_batch_size: z.number().int().min(1).max(1000).default(16),
        /** Bytes of one API request body: an upload of the runtime's 8 MiB arrives base64-encoded (4/3 larger) in JSON. */
        max_body_bytes: z.number().int().min(1024).max(1024 * 1024 * 1024).default(UPLOAD_BODY_BYTES),
      })
      .strict()
      .default({ max_batch_size: 16, max_body_bytes: UPLOAD_BODY_BYTES }),
    runs: z
      .object({
        /** Runs one user may have executing at once in this process. */
        max_concurrent_per_user: z.number().int().min(1).max(1000).default(4),
        /** US dollars of recorded run cost one user may spend per UTC day; null = no limit. */
        max_daily_spend_usd_per_user: z.number().min(0).nullable().default(10),
      })
      .strict()
      .default({ max_concurrent_per_user: 4, max_daily_spend_usd_per_user: 10 }),
  })
  .strict();

export const DEFAULT_LIMITS = limitsSchema.parse({});
export type LimitsConfig = z.infer<typeof limitsSchema>;
