import { createCallerFactory, createTRPCRouter } from './init';
import { knowledgeRouter } from './routers/knowledge-router';
import { runtimeRouter } from './routers/runtime-router';

export const appRouter = createTRPCRouter({
  runtime: runtimeRouter,
  knowledge: knowledgeRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller (tests, server components): `createCaller(context).runtime.sources()`. */
export const createCaller = createCallerFactory(appRouter);
