import { describe, expect, it } from 'vitest';
import { commandLineAction } from './command-line-request';
import { tokenize } from './goal-tokens';

const actionOf = (goal: string) => commandLineAction(tokenize(goal), 0);

describe('a goal written as a command line', () => {
  it('names what the command does: a verb word, a long option, the last segment of a URL, a mutating method, an admin SQL call', () => {
    expect(actionOf('systemctl restart spoolerd')).toBe('systemctl restart');
    expect(actionOf('kafka-consumer-groups --reset-offsets --to-earliest --group label-sink --execute')).toBe('kafka-consumer-groups reset');
    expect(actionOf('curl -s "http://spooler.internal:8631/queues/labels/restart?onlyFailed=true"')).toBe('curl restart');
    expect(actionOf('curl -X DELETE http://spooler.internal:8631/queues/labels')).toBe('curl delete');
    expect(actionOf('select pg_terminate_backend(4242);')).toBe('select pg_terminate_backend');
  });

  it('is no request when it reads, reports a run, asks, or is not a known program', () => {
    expect(actionOf('curl http://spooler.internal:8631/queues/labels/status')).toBeUndefined();
    expect(actionOf('curl -X POST to the restart endpoint returned 409')).toBeUndefined();
    expect(actionOf('systemctl restart spoolerd?')).toBeUndefined();
    expect(actionOf('select count(*) from print_jobs')).toBeUndefined();
    expect(actionOf('spoolctl restart labels')).toBeUndefined();
  });
});
