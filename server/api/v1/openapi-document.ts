/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document of the HTTP API v1, generated from the route
 * table and its zod schemas (zod 4's z.toJSONSchema emits JSON Schema 2020-12, the dialect
 * OpenAPI 3.1 uses), so what the document promises is what the handlers parse.
 */
import { z } from 'zod';
import { V1_ROUTES, type V1Route } from './v1-routes';
import { errorResponse } from './v1-schemas';

const API_VERSION = '1.0.0';

/** A schema object for embedding: the dialect is the document's, so the per-schema `$schema` goes. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' } as const;

/** The failures every route may answer with, beside its own successes. */
function errorResponses(route: V1Route): Record<string, unknown> {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });
  return {
    ...(route.body ? { 400: error('Bad input: `error.field` names the field.'), 413: error('The body is larger than limits.api.max_body_bytes.') } : {}),
    401: error('No API key, or one that is unknown or revoked.'),
    403: error(`The key's role is below ${route.role}.`),
    ...(route.path.includes('{id}') ? { 404: error('No such run, or one the key may not read.') } : {}),
    ...(route.method === 'post' ? { 409: error('Conflict with the current state.'), 422: error('No plan meets the constraints.'), 429: error('Too many runs or too much spend; see Retry-After.') } : {}),
    500: error('The runtime failed; details are in the server log.'),
  };
}

function operationOf(route: V1Route): Record<string, unknown> {
  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 200 } }));
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, response]) => [
      status,
      { description: response.description, content: { [response.stream ? 'text/event-stream' : 'application/json']: { schema: jsonSchemaOf(response.schema, 'output') } } },
    ]),
  );
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `Requires an API key with the ${route.role} role or higher.`,
    'x-required-role': route.role,
    security: [{ apiKey: [] }],
    ...(pathParameters.length > 0 ? { parameters: pathParameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input') } } } } : {}),
    responses: { ...responses, ...errorResponses(route) },
  };
}

export function openApiDocument(routes: readonly V1Route[] = V1_ROUTES): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operationOf(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Context Runtime HTTP API',
      version: API_VERSION,
      description: 'Plan, run, explain and simulate goals, and build cited context, over plain JSON. Authenticate with `Authorization: Bearer <API key>`; keys are created by an admin under Admin → API keys, act with one role, and may be scoped to sources.',
    },
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (crk_…) from Admin → API keys.' } },
      schemas: { Error: jsonSchemaOf(errorResponse, 'output') },
    },
  };
}
