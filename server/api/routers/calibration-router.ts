/**
 * Cost-model calibration over tRPC, for the /calibration dashboard: per estimator, field and
 * intent class how good the estimates are (MAE, p05–p95 coverage, count), their trend over time
 * and estimate-vs-actual points. Read-only: viewers may see it.
 */
import { z } from 'zod';
import { createTRPCRouter, viewerProcedure } from '../init';

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
    .query(async ({ ctx, input }) => (await ctx.runtime()).calibration(input)),
});
