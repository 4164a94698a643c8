import { describe, expect, it } from 'vitest';
import { parseCli, USAGE } from './cli-arguments';

const errorOf = (argv: readonly string[]) => {
  try {
    parseCli(argv);
  } catch (error) {
    return error as { code?: string; field?: string; message: string };
  }
  throw new Error(`parseCli(${argv.join(' ')}) did not throw`);
};

describe('parseCli', () => {
  it('reads --sources a,b like repeated --source (--source names first), without duplicates', () => {
    const goal = ['explain', 'why did it fail'];
    expect(parseCli([...goal, '--sources', 'demo-logs,demo-events']).sources).toEqual(['demo-logs', 'demo-events']);
    expect(parseCli([...goal, '--source', 'demo-logs', '--source', 'demo-events']).sources).toEqual(['demo-logs', 'demo-events']);
    expect(parseCli([...goal, '--sources=demo-logs, demo-events', '--source', 'demo-git', '--source', 'demo-logs']).sources).toEqual(['demo-git', 'demo-logs', 'demo-events']);
    expect(parseCli([...goal, '--source', 'a,b']).sources).toEqual(['a', 'b']);
    expect(parseCli(goal).sources).toBeUndefined();
    expect(parseCli(['ingest', './docs', '--sources', 'runbooks']).sources).toEqual(['runbooks']);
  });

  it('refuses an empty source name and more than one source for ingest, naming the flag', () => {
    expect(errorOf(['run', 'goal', '--sources', 'a,,b'])).toMatchObject({ code: 'INVALID_INPUT', field: '--sources', message: '--sources: expected source names separated by commas, got "a,,b"' });
    expect(errorOf(['run', 'goal', '--source', ''])).toMatchObject({ field: '--source' });
    expect(errorOf(['ingest', './docs', '--sources', 'a,b']).message).toBe('--sources: ingest writes one source; got 2 (a, b)');
  });

  it('turns unknown flags and missing or stray values into one line naming the flag', () => {
    const unknown = errorOf(['run', 'goal', '--surces', 'a']);
    expect(unknown).toMatchObject({ code: 'INVALID_INPUT', field: '--surces', message: '--surces: unknown option (see context-runtime --help)' });
    expect(errorOf(['run', 'goal', '-x']).field).toBe('-x');
    for (const argv of [['run', 'goal', '--sources'], ['run', 'goal', '--source', '--json']]) {
      const missing = errorOf(argv);
      expect(missing.message).toMatch(/^--sources?: expected a value, e\.g\. --sources? VALUE/);
      expect(missing.message).not.toContain('\n');
    }
    expect(errorOf(['run', 'goal', '--json=yes']).message).toBe('--json: takes no value (it is a switch: write it alone)');
    expect(errorOf(['runs', '--limit', '0']).message).toBe('--limit: expected a positive integer, got 0');
  });

  it('keeps "-" as the goal (read from stdin later) and documents stdin and --sources in --help', () => {
    expect(parseCli(['run', '-', '--sources', 'demo-logs'])).toMatchObject({ command: 'run', positionals: ['-'], sources: ['demo-logs'] });
    expect(parseCli(['--help']).command).toBe('help');
    expect(parseCli([]).command).toBe('help');
    expect(USAGE).toContain('--sources A,B');
    expect(USAGE).toMatch(/context-runtime run -/);
  });

  it('parses worker --concurrency and names a bad value', () => {
    expect(parseCli(['worker', '--concurrency', '3'])).toMatchObject({ command: 'worker', concurrency: 3 });
    expect(parseCli(['worker']).concurrency).toBeUndefined();
    expect(errorOf(['worker', '--concurrency', '0']).message).toBe('--concurrency: expected an integer from 1 to 64, got 0');
    expect(errorOf(['worker', '--concurrency', 'many']).message).toBe('--concurrency: expected an integer from 1 to 64, got many');
    expect(USAGE).toMatch(/worker .*--concurrency N/s);
  });
});
