/**
 * The OpenAPI document: a well-formed 3.1 document, every route of the API present (the route files
 * under app/api/v1 included, so a route added there without a table entry fails here), every $ref
 * resolvable, and request schemas that say what the handlers parse.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi-document';
import { V1_ROUTES } from './v1-routes';

type Operation = { operationId: string; security: unknown[]; requestBody?: { content: Record<string, { schema: { required?: string[]; properties?: Record<string, unknown>; additionalProperties?: unknown } }> }; responses: Record<string, { content?: Record<string, unknown> }>; parameters?: { name: string; in: string }[] };
const document = openApiDocument() as { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

/** app/api/v1/runs/[id]/events/route.ts → /api/v1/runs/{id}/events */
function routeFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return routeFiles(path);
    return name === 'route.ts' ? [`/${relative('app', folder).split(sep).join('/').replace(/\[(\w+)\]/g, '{$1}')}`] : [];
  });
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with a bearer security scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBeTruthy();
    expect(document.components.securitySchemes).toMatchObject({ apiKey: { type: 'http', scheme: 'bearer' } });
  });

  it('lists every route of the table and every route file of app/api/v1', () => {
    for (const route of V1_ROUTES) expect(document.paths[route.path]?.[route.method]?.operationId).toBe(route.operationId);
    const files = routeFiles(join('app', 'api', 'v1')).filter((path) => path !== '/api/v1/openapi.json');
    expect(files.length).toBe(new Set(V1_ROUTES.map((route) => route.path)).size);
    for (const path of files) expect(Object.keys(document.paths)).toContain(path);
  });

  it('gives every operation security, a success and an error response, and its path parameters', () => {
    const ids = new Set<string>();
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const operation of Object.values(methods)) {
        ids.add(operation.operationId);
        expect(operation.security).toEqual([{ apiKey: [] }]);
        expect(Object.keys(operation.responses).some((status) => status.startsWith('2'))).toBe(true);
        expect(operation.responses['401']).toBeDefined();
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        expect((operation.parameters ?? []).map((parameter) => parameter.name)).toEqual(templated);
      }
    }
    expect(ids.size).toBe(V1_ROUTES.length);
  });

  it('states the request bodies the handlers parse: goal required, unknown fields refused', () => {
    const runs = document.paths['/api/v1/runs']!.post!.requestBody!.content['application/json']!.schema;
    expect(runs.required).toEqual(['goal']);
    expect(Object.keys(runs.properties ?? {})).toEqual(expect.arrayContaining(['goal', 'sources', 'constraints', 'weights', 'wait']));
    expect(runs.additionalProperties).toBe(false);
    const context = document.paths['/api/v1/build-context']!.post!.requestBody!.content['application/json']!.schema;
    expect(context.properties?.tokenBudget).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('resolves every $ref and is plain JSON', () => {
    const text = JSON.stringify(document);
    expect(JSON.parse(text)).toEqual(document);
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) {
      const target = ref!.replace(/^#\//, '').split('/').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
      expect(target, ref).toBeDefined();
    }
  });
});
