import { z } from 'zod';

const MIB = 1024 * 1024;

/**
 * `ingest:` in context-runtime.yaml (issue 13, point 5). Every cap bounds what one ingest may take
 * from the one process that also answers sign-in: a 9,000-file ingest used to hold PGlite's single
 * connection and the event loop for 10.9 s. A cap that is hit is reported in the ingest result
 * (skipped, with the key to raise), never applied silently.
 */
export const ingestSchema = z
  .object({
    /** Folders an admin may ingest from the server's disk; none (the default) disables server-path ingest. */
    allowed_roots: z.array(z.string().min(1, 'expected a folder path')).default([]),
    /** Files one ingest reads from a folder; past it the walk stops and the rest are reported. */
    max_files: z.number().int().min(1).max(10_000_000).default(100_000),
    /** A bigger file is a dump or a binary more often than a document; it would dominate a source. */
    max_file_bytes: z.number().int().min(1).default(20 * MIB),
    /** Bytes of file content (or commit text) one ingest reads in total. */
    max_total_bytes: z.number().int().min(1).default(256 * MIB),
    /** Newest commits of a git repository one ingest reads. */
    max_commits: z.number().int().min(1).max(1_000_000).default(500),
    /** Bytes of one commit's text (header, --stat, diff) kept while git streams it; the chunk keeps ~800 tokens of it anyway. */
    max_commit_bytes: z.number().int().min(1024).default(64 * 1024),
    /** How long a git command may go without output before it is killed (a hung credential helper, a lock). */
    git_timeout_ms: z.number().int().min(100).default(30_000),
    /** Files read at once. */
    read_concurrency: z.number().int().min(1).max(64).default(8),
    /** Chunks per write transaction; 0 writes a source in one transaction (fastest, but holds the database). */
    commit_batch_chunks: z.number().int().min(0).default(200),
    /**
     * How long one ingest (reading, writing, embedding) may take before it is stopped like a
     * cancelled one: the source being written is undone. null: no limit. An hour is several times
     * a 10,000-file tree on a loaded 2-core machine (291 s, bench:ingest-load).
     */
    timeout_ms: z.number().int().min(1000).nullable().default(3_600_000),
  })
  .strict();

export const DEFAULT_INGEST = ingestSchema.parse({});
export type IngestConfig = z.infer<typeof ingestSchema>;

/**
 * `retention:` — how long finished runs, trace spans and calibration observations are kept, in days
 * (null keeps them forever). A run waiting at an approval gate, or still running, is never deleted
 * whatever its age: a person's decision is pending on it.
 */
export const retentionSchema = z
  .object({
    runs_days: z.number().int().min(1).nullable().default(90),
    spans_days: z.number().int().min(1).nullable().default(30),
    observations_days: z.number().int().min(1).nullable().default(180),
    /**
     * Rejected candidates of each planner rule a run's stored EXPLAIN lists (the best by score; the
     * rest are counted); null keeps them all. The demo plan cuts 868, 410 KB of the 463 KB plan JSON
     * written with every run and read back (bench:loc --queries, bench/loc/RESULTS.md).
     */
    rejected_candidates_kept: z.number().int().min(0).nullable().default(20),
    /** How often a server applies the policy; the CLI applies it on demand (`context-runtime retention apply`). */
    sweep_interval_minutes: z.number().int().min(1).max(7 * 24 * 60).default(60),
  })
  .strict();

export const DEFAULT_RETENTION = retentionSchema.parse({});
export type RetentionConfig = z.infer<typeof retentionSchema>;
