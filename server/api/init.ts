/**
 * tRPC root: context, the one error-mapping middleware, and the base procedure every router uses.
 * Errors are typed and thrown deep in the runtime (ContextRuntimeError); they are mapped to tRPC
 * codes exactly once, here. Internal failures keep their details in the server log only.
 */
import 'server-only';
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { ContextRuntimeError, invalidInput, isContextRuntimeError, RUNTIME_ERROR_KINDS, type RuntimeErrorCode, type UserErrorKind } from '../runtime/errors';
import type { Principal } from '../runtime/types';
import { asRequest } from '../runtime/scheduler/request-priority';
import { rankOf, ROLES, type Role } from '../auth/roles';
import type { Accounts } from '../auth/accounts';
import type { RuntimePort } from './runtime-port';

export interface ApiContext {
  /** Lazily opens (or reuses) the process-wide runtime. */
  readonly runtime: () => Promise<RuntimePort>;
  /** Who is calling (resolved from the session cookie or the CLI's bearer token); undefined = signed out. */
  readonly principal?: Principal;
  /** The accounts behind sign-in; only the users router needs them (absent in tests of other routers). */
  readonly accounts?: () => Promise<Accounts>;
}

/** Procedure metadata: the role a procedure requires, so tests can enumerate every procedure's rule. */
export interface ApiMeta {
  readonly role?: Role;
}

type TRPCCode = TRPCError['code'];

/**
 * How each kind of caller mistake reads over HTTP. Which codes are caller mistakes is the runtime's
 * one list (RUNTIME_ERROR_KINDS); every other code is the runtime's own failure (500, message hidden).
 */
const TRPC_CODE_OF_KIND: Readonly<Record<UserErrorKind, TRPCCode>> = Object.freeze({
  invalid: 'BAD_REQUEST',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  forbidden: 'FORBIDDEN',
  unsatisfiable: 'PRECONDITION_FAILED',
  rate_limited: 'TOO_MANY_REQUESTS',
});

/**
 * Codes that are a caller's mistake on the command line but the operator's over HTTP: a browser did
 * not write the server's config, and the message names its files, paths and database host (issue 12,
 * finding 8: a connection error reached the client). Hidden and logged like an internal failure.
 */
const SERVER_SIDE_OVER_HTTP: ReadonlySet<RuntimeErrorCode> = new Set(['INVALID_CONFIG']);

/** The tRPC code a runtime error is reported under, or undefined when it is internal. */
export function trpcCodeOf(code: RuntimeErrorCode): TRPCCode | undefined {
  const kind = RUNTIME_ERROR_KINDS[code];
  return kind === 'internal' || SERVER_SIDE_OVER_HTTP.has(code) ? undefined : TRPC_CODE_OF_KIND[kind];
}

export const INTERNAL_ERROR_MESSAGE = 'internal error; see server log';

/** The runtime error a client may see, or undefined when the failure is internal. */
export function userFacingRuntimeError(error: TRPCError): ContextRuntimeError | undefined {
  const cause = error.cause;
  if (!isContextRuntimeError(cause)) return undefined;
  return trpcCodeOf(cause.code) === undefined ? undefined : cause;
}

/** A zod failure at the router boundary, restated as the runtime states bad input: "field: message". */
function fromZodError(error: ZodError): ContextRuntimeError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'input';
  return invalidInput(field, issue?.message ?? 'invalid', { issues: error.issues });
}

/**
 * The same mapping for an error thrown outside the procedure middleware (a subscription's stream
 * fails after the procedure has returned its iterator).
 */
export function toClientError(error: unknown, path: string): TRPCError {
  return mapError(error instanceof TRPCError ? error : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error }), path);
}

function mapError(error: TRPCError, path: string): TRPCError {
  if (error.cause instanceof ZodError) {
    const cause = fromZodError(error.cause);
    return new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause });
  }
  const cause = error.cause;
  if (isContextRuntimeError(cause)) {
    const code = trpcCodeOf(cause.code);
    if (code !== undefined) return new TRPCError({ code, message: cause.message, cause });
  } else if (error.code !== 'INTERNAL_SERVER_ERROR') {
    // Raised by tRPC itself (parse error, method not supported): already a client-facing error.
    return error;
  }
  console.error(`[api] ${path} failed:`, cause ?? error);
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: INTERNAL_ERROR_MESSAGE });
}

const t = initTRPC.context<ApiContext>().meta<ApiMeta>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const runtimeError = userFacingRuntimeError(error);
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      data: {
        ...data,
        // Stack traces would leak internals of 5xx responses; the server log has them. `details` stay
        // on the server too: they carried skipped paths, file positions and zod issues with the input
        // echoed back (issue 12, finding 8); the message and the field are what a client shows.
        runtimeError: runtimeError ? { code: runtimeError.code, field: runtimeError.field ?? null } : null,
      },
    };
  },
});

const errorMapping = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (!result.ok) throw mapError(result.error, path);
  return result;
});

/**
 * A query (a page's data) is a request from start to answer: an ingest running beside it waits
 * (request-priority.ts). Mutations and subscriptions are not: the ingest mutation is the
 * background work itself, and a live run's stream would hold every ingest for its whole length.
 */
const requestFirst = t.middleware(({ next, type }) => (type === 'query' ? asRequest(() => next()) : next()));

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
/** No sign-in needed: only for the sign-in/setup flow itself. Everything else names its role. */
export const publicProcedure = t.procedure.use(errorMapping).use(requestFirst);

/** Ranked roles (server/auth/roles.ts): viewer < operator < approver < admin. */
export { ROLES, type Role } from '../auth/roles';

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

export const viewerProcedure = publicProcedure.meta({ role: 'viewer' }).use(requireRole('viewer'));
export const operatorProcedure = publicProcedure.meta({ role: 'operator' }).use(requireRole('operator'));
export const approverProcedure = publicProcedure.meta({ role: 'approver' }).use(requireRole('approver'));
export const adminProcedure = publicProcedure.meta({ role: 'admin' }).use(requireRole('admin'));
