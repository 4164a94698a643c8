import { createCallerFactory, createTRPCRouter } from './init';
import { knowledgeRouter } from './routers/knowledge-router';
import { runtimeRouter } from './routers/runtime-router';
import { calibrationRouter } from './routers/calibration-router';
import { learningRouter } from './routers/learning-router';
import { usersRouter } from './routers/users-router';
import { consoleRouter } from './routers/console-router';
import { tracesRouter } from './routers/traces-router';
import { approvalsRouter } from './routers/approvals-router';
import { plansRouter } from './routers/plans-router';
import { planCacheRouter } from './routers/plan-cache-router';
import { answersRouter } from './routers/answers-router';
import { apiKeysRouter } from './routers/api-keys-router';

export const appRouter = createTRPCRouter({
  runtime: runtimeRouter,
  calibration: calibrationRouter,
  learning: learningRouter,
  knowledge: knowledgeRouter,
  users: usersRouter,
  console: consoleRouter,
  traces: tracesRouter,
  approvals: approvalsRouter,
  plans: plansRouter,
  planCache: planCacheRouter,
  answers: answersRouter,
  apiKeys: apiKeysRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller (tests, server components): `createCaller(context).runtime.sources()`. */
export const createCaller = createCallerFactory(appRouter);
