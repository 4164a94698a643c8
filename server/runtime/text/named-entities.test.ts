import { describe, expect, it } from 'vitest';
import { compoundNames, mentions, namedEntities, writesJoined } from './named-entities';

describe('names of a goal', () => {
  it('finds identifier-shaped names, not dates or short compounds', () => {
    expect(namedEntities('Why did billing-worker stop on 2025-11-30 after the on-call hand-over?')).toEqual(['billing-worker']);
    expect(namedEntities('How fast does a catching-up print sink write, and is the scaled-down spooler-2 enough?')).toEqual(['spooler-2']);
    expect(namedEntities('Which image of scanner-api ran in mid-April and early-May?')).toEqual(['scanner-api']);
  });

  it("reads an acronym's plural as naming the acronym: a commit about a static ETA is about ETAs", () => {
    expect(mentions('eta-api: back to 4 replicas', 'ETAs')).toBe(true);
    expect(mentions('A static ETA means the features were missing.', 'ETAs')).toBe(true);
    expect(mentions('Beta testers were asked.', 'ETAs')).toBe(false);
  });

  it('finds spaced two-word compounds a system may be named by, without stopwords or numbers', () => {
    expect(compoundNames('Why are vehicle positions from 6 to 8 March 2026 missing from the lake?')).toEqual(['vehicle positions']);
    expect(compoundNames('Why is it down?')).toEqual([]);
  });

  it('matches a spaced compound written joined by a hyphen or an underscore, as a whole token', () => {
    expect(mentions('topic `vehicle-positions` (24 partitions)', 'vehicle positions')).toBe(true);
    expect(mentions('allows topics/vehicle_positions/*', 'vehicle positions')).toBe(true);
    expect(mentions('vehicle positions missing from the lake', 'vehicle positions')).toBe(true);
    expect(mentions('Started container checkout-api count=6', 'vehicle positions')).toBe(false);
    expect(mentions('the vehicle positionsx table', 'vehicle positions')).toBe(false);
  });

  it('reads a hyphenated compound in an identifier that puts its words the other way round', () => {
    expect(mentions('eta-api,eta_static_fallback_pct,33.9,%,5', 'static-eta')).toBe(true);
    expect(mentions('Metric series eta-api eta_static_fallback_pct', 'static-ETA')).toBe(true);
    // The same words joined in the same order otherwise are another name (a misspelt prefix).
    expect(mentions('allows topics/vehicle_positions/*', 'vehicle-positions')).toBe(false);
    expect(mentions('static ETAs for 15 minutes', 'static-eta')).toBe(false);
  });

  it('reads a snake_case name at the end of a longer name built on it (fresh f80)', () => {
    expect(mentions('9 of 15 FAIL 18342 not_null_stg_labels_printed_at [FAIL 18342]', 'printed_at')).toBe(true);
    expect(mentions('printed_at_utc is the new column', 'printed_at')).toBe(false);
    expect(mentions('reprinted is not printed', 'printed')).toBe(true);
    expect(mentions('label_printed counts', 'printed')).toBe(false);
  });

  it('reads a capitalised entity as a proper name: the lower-case word counts only inside an identifier', () => {
    expect(mentions('Kafka Connect runs 3 workers', 'Connect')).toBe(true);
    expect(mentions('connect() failed (111: Connection refused)', 'Connect')).toBe(false);
    expect(mentions('dial tcp 10.42.3.17:8080: connect: connection refused', 'Connect')).toBe(false);
    expect(mentions('[2026-03-06 16:53:02] kafka-2 GroupCoordinator', 'Kafka')).toBe(true);
    expect(mentions('redis-cli -h feature-redis.kestrel.internal', 'Redis')).toBe(true);
    expect(mentions('KAFKA brokers down', 'Kafka')).toBe(true);
  });

  it('tells a compound written as one name from the same words written apart', () => {
    expect(writesJoined('topic `vehicle-positions` (24 partitions)', 'vehicle positions')).toBe(true);
    expect(writesJoined('allows topics/vehicle_positions/*', 'vehicle positions')).toBe(true);
    expect(writesJoined('a new version must be readable', 'new version')).toBe(false);
    expect(writesJoined('the vehicle-positionsx table', 'vehicle positions')).toBe(false);
    // One word between: "the print export" is the job print_nightly_export, not print_jobs_daily_export.
    expect(writesJoined('dag_id=print_nightly_export, task_id=render', 'print export')).toBe(true);
    expect(writesJoined('dag_id=print_jobs_daily_export', 'print export')).toBe(false);
    expect(mentions('[2026-05-03T02:00:01] dag_id=print_nightly_export failed', 'print export')).toBe(true);
    expect(mentions('the print export failed', 'print export')).toBe(true);
    expect(mentions('print jobs and a nightly export', 'print export')).toBe(false);
  });
});

describe('mentions and the numbered members of a cluster', () => {
  it('reads "broker 3" in a text about the kafka cluster as naming kafka-3', () => {
    expect(mentions('kafka-2-server.log lines 30–32\n[2026-03-07 09:00:39] INFO [Broker id=2] Controlled shutdown of broker 3 observed', 'kafka-3')).toBe(true);
    expect(mentions('prn-1.log\nreplica set: node=3 left the pool (prn cluster)', 'prn-3')).toBe(true);
    expect(mentions('Out of sync replicas: (brokerId: 3, endOffset: 48917240) on kafka-1', 'kafka-3')).toBe(true);
  });

  it('needs both the cluster and the role with that id', () => {
    // The id alone, in a text about another system; the cluster with another member; a partition numbered 3.
    expect(mentions('spooler log: broker 3 is unreachable', 'kafka-3')).toBe(false);
    expect(mentions('kafka-2-server.log: Controlled shutdown of broker 1 observed', 'kafka-3')).toBe(false);
    expect(mentions('kafka-2-server.log: partition 3 of vehicle-positions rolled a segment', 'kafka-3')).toBe(false);
    expect(mentions('kafka-2-server.log: broker 3.7 upgrade notes', 'kafka-3')).toBe(false);
  });
});
