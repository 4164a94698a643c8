/**
 * Cost-model calibration over tRPC, for the /calibration dashboard: per estimator, field and
 * intent class how good the estimates are (MAE, p05–p95 coverage, count), their trend over time
 * and estimate-vs-actual points. Read-only: viewers may see it.
 */
import { z } from 'zod';
import type { CalibrationReport, CalibrationReportOptions } from '../../runtime/costmodel/calibration-report';
import { ContextRuntimeError } from '../../runtime/errors';
import { type ApiContext, createTRPCRouter, viewerProcedure } from '../init';

/** What ContextRuntime.calibration() offers, as far as this router needs it. */
export interface CalibrationPort {
  calibration(options?: CalibrationReportOptions): Promise<CalibrationReport>;
}

async function calibrationOf(ctx: ApiContext): Promise<CalibrationPort> {
  const runtime = (await ctx.runtime()) as Partial<CalibrationPort>;
  if (typeof runtime.calibration !== 'function') throw new ContextRuntimeError('INTERNAL', 'the runtime exposes no calibration report (ContextRuntime.calibration())');
  return runtime as CalibrationPort;
}

export const calibrationRouter = createTRPCRouter({
  report: viewerProcedure
    .input(
      z
        .object({
          buckets: z.number().int().min(2).max(48).default(12),
          scatterLimit: z.number().int().min(10).max(2000).default(300),
        })
        .default({ buckets: 12, scatterLimit: 300 }),
    )
    .query(async ({ ctx, input }) => (await calibrationOf(ctx)).calibration(input)),
});
