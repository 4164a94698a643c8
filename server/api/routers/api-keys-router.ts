/**
 * API keys for the HTTP API, the CLI and MCP (admins only): list, create (the key is in this one
 * response and never again), revoke. Validation lives in the store (auth/api-key-store.ts), which
 * names the field; the runtime says which sources exist to scope a key to.
 */
import { z } from 'zod';
import type { ApiKeyRecord } from '../../auth/api-key-store';
import { ContextRuntimeError } from '../../runtime/errors';
import { adminProcedure, type ApiContext, createTRPCRouter } from '../init';

async function keysOf(ctx: ApiContext) {
  const store = ctx.accounts ? (await ctx.accounts()).apiKeys : undefined;
  if (!store) throw new ContextRuntimeError('INTERNAL', 'the API context has no API key store');
  return store;
}

/** What the page shows: never the hash. */
const view = (record: ApiKeyRecord) =>
  Object.freeze({
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    role: record.role,
    sources: record.sources,
    createdBy: record.createdBy,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    revokedAt: record.revokedAt,
  });

export const apiKeysRouter = createTRPCRouter({
  list: adminProcedure.query(async ({ ctx }) => (await (await keysOf(ctx)).list()).map(view)),

  create: adminProcedure
    .input(z.object({ name: z.string().max(200), role: z.string().max(40), sources: z.array(z.string().max(200)).max(200).nullish() }))
    .mutation(async ({ ctx, input }) => {
      // The sources that exist now (every one: an admin may scope a key to any of them).
      const known = (await (await ctx.runtime()).sources(ctx.principal)).map((source) => source.name);
      const { key, record } = await (await keysOf(ctx)).create({ ...input, createdBy: ctx.principal.user }, known);
      return { key, record: view(record) };
    }),

  revoke: adminProcedure.input(z.object({ id: z.string().min(1).max(100) })).mutation(async ({ ctx, input }) => view(await (await keysOf(ctx)).revoke(input.id))),
});
