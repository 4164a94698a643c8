/**
 * Accounts: admins list, create, re-role and disable users; `completeSetup` is the one public
 * procedure, turning a one-time setup link into the first admin. Validation lives in the stores
 * (server/auth), so the messages name the field ("password: must be at least 12 characters").
 */
import { z } from 'zod';
import { completeSetup } from '../../auth/first-admin';
import type { Accounts } from '../../auth/accounts';
import type { UserRecord } from '../../auth/user-store';
import { ContextRuntimeError } from '../../runtime/errors';
import { adminProcedure, type ApiContext, createTRPCRouter, publicProcedure, viewerProcedure } from '../init';

async function accountsOf(ctx: ApiContext): Promise<Accounts> {
  if (!ctx.accounts) throw new ContextRuntimeError('INTERNAL', 'the API context has no account stores');
  return ctx.accounts();
}

/** What the admin page shows: never the password hash. */
const view = (user: UserRecord) =>
  Object.freeze({ email: user.email, name: user.name, roles: user.roles, disabled: user.disabled, hasPassword: user.hasPassword, createdAt: user.createdAt });

const email = z.string().max(320);
const roles = z.array(z.string()).max(4);

export const usersRouter = createTRPCRouter({
  /** Who the caller is, with roles as the database has them now: pages use it to hide what the server would refuse. */
  me: viewerProcedure.query(({ ctx }) => Object.freeze({ user: ctx.principal.user, roles: ctx.principal.roles })),

  list: adminProcedure.query(async ({ ctx }) => (await (await accountsOf(ctx)).users.list()).map(view)),

  create: adminProcedure
    .input(z.object({ email, name: z.string().max(200).default(''), password: z.string().max(256), roles }))
    .mutation(async ({ ctx, input }) => view(await (await accountsOf(ctx)).users.create(input))),

  setRoles: adminProcedure
    .input(z.object({ email, roles }))
    .mutation(async ({ ctx, input }) => view(await (await accountsOf(ctx)).users.setRoles(input.email, input.roles))),

  setDisabled: adminProcedure
    .input(z.object({ email, disabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => view(await (await accountsOf(ctx)).users.setDisabled(input.email, input.disabled))),

  setPassword: adminProcedure
    .input(z.object({ email, password: z.string().max(256) }))
    .mutation(async ({ ctx, input }) => view(await (await accountsOf(ctx)).users.setPassword(input.email, input.password))),

  /** Public: the token is the credential. Refused once any account exists. */
  completeSetup: publicProcedure
    .input(z.object({ token: z.string().max(200), email, name: z.string().max(200).default(''), password: z.string().max(256) }))
    .mutation(async ({ ctx, input }) => {
      const { users, setupTokens } = await accountsOf(ctx);
      return view(await completeSetup(users, setupTokens, input));
    }),
});
