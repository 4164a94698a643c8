import { describe, expect, it } from 'vitest';
import { describedSettingWords } from './setting-behaviours';

describe('the setting a "how long" question describes', () => {
  it('reads waiting until giving up, timing out or being killed as a timeout', () => {
    expect(describedSettingWords('How long does print-gw wait on spool-cache before it gives up on the read?')).toEqual(['timeout']);
    expect(describedSettingWords('If the render step hangs, after how long does the scheduler kill it?')).toEqual(['timeout']);
  });

  it('reads waiting between tries as a retry delay, and keeping records as a retention or a TTL', () => {
    expect(describedSettingWords('How many times is it retried, and how long does it wait between tries?')).toEqual(['retry', 'delay', 'interval']);
    expect(describedSettingWords('How many tries does the render task get, and how long does it wait between them?')).toEqual(['retry', 'delay', 'interval']);
    expect(describedSettingWords('How long do the brokers keep print-jobs records?')).toEqual(['retention', 'ttl']);
  });

  it('reads waiting before it retries, or pausing between attempts, as a retry delay (fresh f62)', () => {
    expect(describedSettingWords('The render DAG failed at :05. How long does the scheduler wait before it retries on its own?')).toEqual(['retry', 'delay', 'interval']);
    expect(describedSettingWords('How long does spoold pause between attempts?')).toEqual(['retry', 'delay', 'interval']);
    expect(describedSettingWords('How long did we wait before it was retried by hand?')).toEqual([]);
  });

  it('reads how long a condition holds before the pager goes off as an alert rule\'s `for` (fresh f67)', () => {
    expect(describedSettingWords('If a spooler task dies, how long does it have to sit in FAILED before the pager goes off?')).toEqual(['alert', 'for']);
    expect(describedSettingWords('How long can the queue stay full before we get paged?')).toEqual(['alert', 'for']);
    expect(describedSettingWords('How long was the queue full before the alert fired on Friday?')).toEqual([]);
    expect(describedSettingWords('How long did the pager go off for?')).toEqual([]);
  });

  it('reads nothing outside a "how long" clause, nor a duration no setting holds', () => {
    expect(describedSettingWords('Why did print-gw give up waiting on spool-cache?')).toEqual([]);
    expect(describedSettingWords('How long did the outage last?')).toEqual([]);
  });
});
