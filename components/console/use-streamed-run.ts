'use client';

/**
 * Starts a goal with the `console.start` mutation (a POST: the goal never travels in a URL), then
 * follows the run by its id over the `console.follow` subscription: progress rows fill in as nodes
 * report, then the RunResult arrives. A dropped stream reconnects by id and resumes; it never starts
 * the goal again. One run at a time; starting another (or unmounting) stops listening, though the
 * run itself finishes on the server and stays in the history.
 */
import type { TRPCClientErrorLike } from '@trpc/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTRPCClient } from '@/components/providers/trpc-provider';
import type { AppRouter } from '@/server/api/root-router';
import type { RunResult } from '@/server/runtime/explain/explain-types';
import { EMPTY_PROGRESS, reduceProgress, type RunProgressState } from './progress-state';

export interface StreamedRunRequest {
  readonly goal: string;
  readonly sources?: readonly string[];
  readonly constraints?: Record<string, number | boolean>;
}

export type StreamedRunError = TRPCClientErrorLike<AppRouter>;

export interface StreamedRun {
  readonly pending: boolean;
  /** The run being followed, once `console.start` answered. */
  readonly runId?: string;
  readonly progress: RunProgressState;
  readonly result?: RunResult;
  readonly error?: StreamedRunError;
  start(request: StreamedRunRequest): void;
  /** Shows a finished run (from the history) as if it had just streamed. */
  show(result: RunResult): void;
  reset(): void;
}

interface State {
  readonly pending: boolean;
  readonly runId?: string;
  readonly progress: RunProgressState;
  readonly result?: RunResult;
  readonly error?: StreamedRunError;
}

const IDLE: State = { pending: false, progress: EMPTY_PROGRESS };

export function useStreamedRun(onSettled?: () => void): StreamedRun {
  const client = useTRPCClient();
  const [state, setState] = useState<State>(IDLE);
  const subscription = useRef<{ unsubscribe(): void } | null>(null);
  const settledRef = useRef(onSettled);
  // Kept current after each render (not during it) so the subscription callbacks call the latest one.
  useEffect(() => {
    settledRef.current = onSettled;
  }, [onSettled]);

  const stop = useCallback(() => {
    subscription.current?.unsubscribe();
    subscription.current = null;
  }, []);
  useEffect(() => stop, [stop]);

  // Bumped by every start/show/reset, so a start whose POST answers late does not follow a stale run.
  const generation = useRef(0);

  const follow = useCallback(
    (runId: string) => {
      subscription.current = client.console.follow.subscribe(
        { runId },
        {
          onData: ({ data }) => {
            if (data.type === 'progress') setState((previous) => ({ ...previous, progress: reduceProgress(previous.progress, data.event) }));
            else {
              setState((previous) => ({ ...previous, pending: false, result: data.result }));
              stop();
              settledRef.current?.();
            }
          },
          onError: (error) => {
            setState((previous) => ({ ...previous, pending: false, error }));
            stop();
            settledRef.current?.();
          },
        },
      );
    },
    [client, stop],
  );

  const start = useCallback(
    (request: StreamedRunRequest) => {
      stop();
      const current = ++generation.current;
      setState({ pending: true, progress: EMPTY_PROGRESS });
      client.console.start
        .mutate({ goal: request.goal, sources: request.sources ? [...request.sources] : undefined, constraints: request.constraints })
        .then(
          ({ runId }) => {
            if (current !== generation.current) return;
            setState((previous) => ({ ...previous, runId }));
            follow(runId);
          },
          (error: StreamedRunError) => {
            if (current !== generation.current) return;
            setState((previous) => ({ ...previous, pending: false, error }));
            settledRef.current?.();
          },
        );
    },
    [client, follow, stop],
  );

  const show = useCallback(
    (result: RunResult) => {
      stop();
      generation.current++;
      setState({ pending: false, progress: EMPTY_PROGRESS, result });
    },
    [stop],
  );

  const reset = useCallback(() => {
    stop();
    generation.current++;
    setState(IDLE);
  }, [stop]);

  return { ...state, start, show, reset };
}
