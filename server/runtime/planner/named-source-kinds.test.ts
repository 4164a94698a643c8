import { describe, expect, it } from 'vitest';
import type { SourceInfo, SourceKind } from '../types';
import { scopes } from './candidate-dimensions';
import { ruleIntentAnalyzer } from './intent-analyzer';
import { kindsNamedByWord, kindsToCover, namedSourceKinds } from './named-source-kinds';

const source = (name: string, kind: SourceKind): SourceInfo => ({ name, kind, versionId: `${name}-1`, contentHash: 'h', chunkCount: 10, stale: false }) as SourceInfo;
const SOURCES = [source('billing-docs', 'docs'), source('billing-logs', 'logs'), source('billing-metrics', 'metrics'), source('billing-git', 'git')];

describe('source kinds a goal names', () => {
  it('reads "commit", "log" and "runbook" as where the answer is', () => {
    expect(namedSourceKinds('Which commit made billing-worker apply migrations at start-up, and who wrote it?')).toEqual(['git']);
    expect(namedSourceKinds('What does code PS-4010 in the dunning-service log mean?')).toEqual(['logs']);
    // A share read on a day is a reading: it is recorded where run time is (fresh f167).
    expect(namedSourceKinds('On 2 May, what was the highest share of jammed jobs the spooler reported?')).toEqual(['metrics', 'logs']);
    expect(namedSourceKinds('What does the runbook say about committees?')).toEqual(['docs']);
    expect(namedSourceKinds('How long are invoice PDFs kept?')).toEqual([]);
  });

  it("reads a service's warnings and error lines as its logs (fresh f253)", () => {
    expect(kindsNamedByWord("In the 'jobs stuck' warnings of 2 May, was every printer stuck or only some?")).toEqual(['logs']);
    expect(kindsNamedByWord('Which error lines did the spooler print before it stopped?')).toEqual(['logs']);
    expect(kindsNamedByWord('What does the runbook warn about before a restart?')).toEqual(['docs']);
  });

  it('tells the kinds named by word from the ones a run-time event implies', () => {
    const goal = 'Why did billing-worker crash, going by its log?';
    expect(namedSourceKinds(goal)).toEqual(['logs']);
    expect(kindsNamedByWord(goal)).toEqual(['logs']);
    expect(kindsNamedByWord('Why did billing-worker crash at 09:00 UTC?')).toEqual([]);
  });

  it('covers the logs of a "did … actually" question, not of every question logs are implied for', () => {
    expect(kindsToCover('After the fix was merged, at what time did broker kafka-2 actually apply the new value?')).toEqual(['logs']);
    expect(kindsToCover('Which commit changed the retention, and did the broker actually apply it?')).toEqual(['git', 'logs']);
    expect(kindsToCover('Why did billing-worker crash at 09:00 UTC?')).toEqual([]);
    expect(kindsToCover('What was actually wrong with the sink?')).toEqual([]);
    expect(kindsToCover('Which log line shows the broker applied it, and did it actually?')).toEqual(['logs']);
  });

  it("reads a job's run or try named by its day as its log, to search and to cover (fresh f296)", () => {
    expect(namedSourceKinds('How many templates does the renderer report finding in the label_nightly runs of March 2026?')).toEqual(['logs']);
    expect(kindsToCover('In which state did the scheduler put the task after the first try of the label_nightly run for 23 March 2026?')).toEqual(['logs']);
    expect(kindsToCover('What did the 24 March load of label_nightly skip?')).toEqual(['logs']);
    expect(namedSourceKinds('How do I re-run label_nightly for one day?')).toEqual([]);
    // A wh-question about what happened on a named day: its lines (fresh f291).
    expect(namedSourceKinds('During the printer patching on 7 March 2026, to which spoolers did the queue of tray-1 shrink?')).toEqual(['logs']);
    expect(namedSourceKinds('To which spoolers did the queue of tray-1 shrink?')).toEqual([]);
    expect(namedSourceKinds('Which commit moved the label_nightly run to a later hour?')).toEqual(['git']);
  });

  it("keeps the named kind in every narrowed scope: a conceptual question about a commit is not narrowed to docs alone", async () => {
    const intent = await ruleIntentAnalyzer.analyze('Which commit made billing-worker apply migrations at start-up, and who wrote it?');
    expect(intent.primary).toBe('conceptual');
    const narrowed = scopes(intent, SOURCES).filter((scope) => scope.kinds !== 'all');
    expect(narrowed.length).toBeGreaterThan(0);
    for (const scope of narrowed) expect(scope.kinds).toContain('git');
  });
});

describe('a goal about something that happened at run time', () => {
  it('keeps logs in scope although it names no source and reads as conceptual', async () => {
    const goal = 'Which session blocked migration 0042 on billing-db, and which program was it?';
    expect(namedSourceKinds(goal)).toEqual(['logs']);
    expect(namedSourceKinds('Which process crashed the print spooler last night?')).toEqual(['logs']);
    expect(namedSourceKinds('Why did the nightly export stop?')).toEqual(['logs']);
    expect(namedSourceKinds('How long are invoice PDFs kept?')).toEqual([]);
    expect(namedSourceKinds('How should a schema change be applied to billing-db in production?')).toEqual([]);
    const intent = await ruleIntentAnalyzer.analyze(goal);
    const narrowed = scopes(intent, SOURCES).filter((scope) => scope.kinds !== 'all');
    for (const scope of narrowed) expect(scope.kinds).toContain('logs');
  });
});

describe('a goal about a moment of run time', () => {
  it('keeps logs and metrics in scope when it names a time of day, not when it names only a date', async () => {
    const goal = 'How many print jobs were waiting in the spooler queue at 02:30 UTC on Sunday?';
    expect(namedSourceKinds(goal)).toEqual(['logs', 'metrics']);
    expect(namedSourceKinds('How deep was the print queue at midnight?')).toEqual(['logs', 'metrics']);
    expect(namedSourceKinds('Who added the spooler retry setting, and on which day in April 2026?')).toEqual([]);
    const intent = await ruleIntentAnalyzer.analyze(goal);
    const narrowed = scopes(intent, SOURCES).filter((scope) => scope.kinds !== 'all');
    for (const scope of narrowed) expect(scope.kinds).toEqual(expect.arrayContaining(['logs', 'metrics']));
  });
});

describe('a goal about what a system read or did on a named day', () => {
  it('keeps metrics and logs in scope for a reading on that day, and logs for a did-question about it', () => {
    expect(namedSourceKinds('How much memory was the spooler cache using on the evening of 4 May?')).toEqual(['metrics', 'logs']);
    expect(namedSourceKinds('Did the label API get any malformed requests on 14 April? Which ids were they sending?')).toEqual(['logs']);
    // A date alone, or a reading with no day, still names no source.
    expect(namedSourceKinds('Which spooler setting changed on 4 May?')).toEqual([]);
    expect(namedSourceKinds('How much memory does the spooler cache get?')).toEqual([]);
  });

  it('keeps logs in scope when asked at what time of a named day something happened, or for a stats line', () => {
    expect(namedSourceKinds('At what time on 4 May did the spooler report its queue as empty?')).toEqual(['logs']);
    expect(namedSourceKinds('On Friday 4 May, when did the spooler last manage to print a page?')).toEqual(['logs']);
    expect(namedSourceKinds('Once the new cache settings were live on 04/05, when did the spooler next report its queue length?')).toEqual(['logs']);
    expect(namedSourceKinds('When did the spooler get its retry setting?')).toEqual([]);
    expect(namedSourceKinds('Which stats line showed the label API back at its usual error share?')).toEqual(['logs']);
    // A time asked with no day names no source: a runbook says when a job runs.
    // "Did … actually …" does: what the running system did, set against what was merged or planned.
    expect(namedSourceKinds('After the retry fix was merged in May, at what time did the spooler actually apply it?')).toEqual(['logs']);
    expect(namedSourceKinds('Which account did the spooler actually sign in as after the move?')).toEqual(['logs']);
    expect(namedSourceKinds('What was actually wrong with the old retry setting?')).toEqual([]);
    expect(namedSourceKinds('At what time does the spooler purge run?')).toEqual([]);
    // "When exactly did …", and a worker that died (fresh f343).
    expect(namedSourceKinds('4 May, label sink: when exactly did worker-1 stop, and which file was it writing?')).toEqual(['logs']);
    expect(namedSourceKinds('Which spooler worker died after the upgrade?')).toEqual(['logs']);
  });

  it("reads a job's output as its log (fresh f357)", () => {
    expect(kindsNamedByWord('Which checks on print_jobs show up in the nightly dbt output, by their names?')).toEqual(['logs']);
    expect(kindsNamedByWord('What output format does the label export write?')).toEqual([]);
  });
});
