/**
 * tRPC root: context, the one error-mapping middleware, and the base procedure every router uses.
 * Errors are typed and thrown deep in the runtime (ContextRuntimeError); they are mapped to tRPC
 * codes exactly once, here. Internal failures keep their details in the server log only.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { ContextRuntimeError, invalidInput, isContextRuntimeError, type RuntimeErrorCode } from '../runtime/errors';
import type { Principal } from '../runtime/types';
import type { RuntimePort } from './runtime-port';

export interface ApiContext {
  /** Lazily opens (or reuses) the process-wide runtime. */
  readonly runtime: () => Promise<RuntimePort>;
  /** Who is calling; undefined until authentication is wired (the runtime then applies its default). */
  readonly principal?: Principal;
}

type TRPCCode = TRPCError['code'];

/** Caller mistakes and their tRPC codes; any runtime code not listed is the runtime's own failure. */
const USER_ERROR_CODES: Readonly<Partial<Record<RuntimeErrorCode, TRPCCode>>> = Object.freeze({
  INVALID_INPUT: 'BAD_REQUEST',
  INVALID_CONFIG: 'BAD_REQUEST',
  UNKNOWN_SOURCE: 'BAD_REQUEST',
  INVALID_GRAPH: 'BAD_REQUEST',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  NO_FEASIBLE_PLAN: 'PRECONDITION_FAILED',
});

export const INTERNAL_ERROR_MESSAGE = 'internal error; see server log';

/** The runtime error a client may see, or undefined when the failure is internal. */
export function userFacingRuntimeError(error: TRPCError): ContextRuntimeError | undefined {
  const cause = error.cause;
  if (!isContextRuntimeError(cause)) return undefined;
  return USER_ERROR_CODES[cause.code] === undefined ? undefined : cause;
}

/** A zod failure at the router boundary, restated as the runtime states bad input: "field: message". */
function fromZodError(error: ZodError): ContextRuntimeError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'input';
  return invalidInput(field, issue?.message ?? 'invalid', { issues: error.issues });
}

function mapError(error: TRPCError, path: string): TRPCError {
  if (error.cause instanceof ZodError) {
    const cause = fromZodError(error.cause);
    return new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause });
  }
  const cause = error.cause;
  if (isContextRuntimeError(cause)) {
    const code = USER_ERROR_CODES[cause.code];
    if (code !== undefined) return new TRPCError({ code, message: cause.message, cause });
  } else if (error.code !== 'INTERNAL_SERVER_ERROR') {
    // Raised by tRPC itself (parse error, method not supported): already a client-facing error.
    return error;
  }
  console.error(`[api] ${path} failed:`, cause ?? error);
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: INTERNAL_ERROR_MESSAGE });
}

const t = initTRPC.context<ApiContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const runtimeError = userFacingRuntimeError(error);
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      data: {
        ...data,
        // Stack traces would leak internals of 5xx responses; the server log has them.
        runtimeError: runtimeError ? { code: runtimeError.code, field: runtimeError.field ?? null, details: runtimeError.details } : null,
      },
    };
  },
});

const errorMapping = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (!result.ok) throw mapError(result.error, path);
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
/** No sign-in needed: only for the sign-in/setup flow itself. Everything else names its role. */
export const publicProcedure = t.procedure.use(errorMapping);

/**
 * Roles are ranked: each one can do everything the roles below it can (an approver may also run
 * goals). viewer reads; operator runs goals; approver decides gates; admin manages users and config.
 */
export const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

function rankOf(roles: readonly string[]): number {
  return Math.max(-1, ...roles.map((role) => ROLES.indexOf(role as Role)));
}

/** The server-side check: the page hiding a button is a courtesy, this is the rule. */
function requireRole(needed: Role) {
  return t.middleware(({ ctx, next }) => {
    if (!ctx.principal) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in required' });
    if (rankOf(ctx.principal.roles) < ROLES.indexOf(needed)) {
      throw new TRPCError({ code: 'FORBIDDEN', message: `requires the ${needed} role` });
    }
    return next({ ctx: { ...ctx, principal: ctx.principal } });
  });
}

export const viewerProcedure = publicProcedure.use(requireRole('viewer'));
export const operatorProcedure = publicProcedure.use(requireRole('operator'));
export const approverProcedure = publicProcedure.use(requireRole('approver'));
export const adminProcedure = publicProcedure.use(requireRole('admin'));
