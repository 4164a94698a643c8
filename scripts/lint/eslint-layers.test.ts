/**
 * The layer rules of eslint.config.mjs, proven the way CI applies them: the project's own config
 * through ESLint's Node API, on code planted at virtual paths (lintText never touches the disk).
 * Each rule gets one planted violation that must be reported and one allowed import that must not.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repositoryRoot });
});

// The first lint loads the config and every plugin (babel, React, jsx-a11y, typescript-eslint).
const FIRST_LINT_TIMEOUT = 120_000;

/** The layers/imports findings for `code` as if it lived at `filePath`, as "line: message". */
async function layerFindings(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result.messages.filter((message) => message.fatal)).toEqual([]);
  return result.messages.filter((message) => message.ruleId === 'layers/imports').map((message) => `${message.line}: ${message.message}`);
}

describe('server/runtime imports no framework, driver or adapter', () => {
  it('reports next, drizzle-orm, a db type and an adapter however the path is spelled', async () => {
    const findings = await layerFindings(
      'server/runtime/planner/planted-planner.ts',
      [
        "import { NextResponse } from 'next/server';",
        "import { sql } from 'drizzle-orm';",
        "import type { Database } from '../../../db/client';",
        "import { PgKnowledge } from '../../adapters/db/pg-knowledge';",
        "import { KnowledgeExplorer } from '@/server/adapters/knowledge/knowledge-explorer';",
        'export const planted = [NextResponse, sql, PgKnowledge, KnowledgeExplorer] as unknown as Database;',
      ].join('\n'),
    );
    expect(findings.map((finding) => finding.split(':')[0])).toEqual(['1', '2', '3', '4', '5']);
    expect(findings[0]).toMatch(/server\/runtime imports no framework, driver or SDK/);
    expect(findings[3]).toMatch(/server\/runtime depends on nothing outside itself/);
  }, FIRST_LINT_TIMEOUT);

  it('allows zod, node built-ins and its own modules, and runtime tests may use real adapters', async () => {
    const own = "import { z } from 'zod';\nimport { createHash } from 'node:crypto';\nimport { ContextRuntimeError } from '../errors';\nimport type { Intent } from '../types';\nexport const planted = [z, createHash, ContextRuntimeError] as unknown as Intent;\n";
    expect(await layerFindings('server/runtime/planner/planted-planner.ts', own)).toEqual([]);
    const test = "import { SifEmbedder } from '../../adapters/embeddings/sif-embedder';\nexport const planted = SifEmbedder;\n";
    expect(await layerFindings('server/runtime/plancache/planted-cache.test.ts', test)).toEqual([]);
  });
});

describe('components take server types only from runtime contracts and type modules', () => {
  it('reports a component importing an adapter type, even with import type', async () => {
    const findings = await layerFindings(
      'components/knowledge/planted-table.tsx',
      "import type { KnowledgeNodeView } from '@/server/adapters/knowledge/lineage-query';\nexport function Planted(props: { node: KnowledgeNodeView }) { return <p>{props.node.id}</p>; }\n",
    );
    expect(findings).toEqual([expect.stringMatching(/^1: components: .*adapters.*not even their types/)]);
  });

  it('reports a type taken from a runtime internal rather than a contract or type module', async () => {
    const findings = await layerFindings(
      'components/calibration/planted-table.tsx',
      "import type { CostEstimator } from '@/server/runtime/costmodel/cost-estimator';\nexport type Planted = CostEstimator;\n",
    );
    expect(findings).toEqual([expect.stringMatching(/^1: components: .*only with `import type` from runtime contracts/)]);
  });

  it('allows import type from the runtime index, contracts, types.ts, *-types.ts and the graph IR', async () => {
    const code = [
      "import type { Span } from '@/server/runtime/contracts/trace-sink';",
      "import type { KnowledgeNodeView } from '../../server/runtime/contracts/knowledge-explorer';",
      "import type { RunResult } from '@/server/runtime/explain/explain-types';",
      "import type { FieldStatistics } from '@/server/runtime/costmodel/calibration-types';",
      "import type { Citation } from '@/server/runtime/types';",
      "import type { ExecutionGraph } from '@/server/runtime/ir/graph';",
      "import type { PendingApproval } from '@/server/runtime';",
      'export type Planted = [Span, KnowledgeNodeView, RunResult, FieldStatistics, Citation, ExecutionGraph, PendingApproval];',
    ].join('\n');
    expect(await layerFindings('components/plans/planted-view.tsx', code)).toEqual([]);
  });
});

describe('client components import no server code at run time', () => {
  it('reports the calibration page importing from the cost estimator at run time', async () => {
    const findings = await layerFindings(
      'components/calibration/planted-page.tsx',
      "'use client';\nimport { summarize } from '@/server/runtime/costmodel/cost-estimator';\nexport const planted = summarize;\n",
    );
    expect(findings).toEqual([expect.stringMatching(/^2: /)]);
  });

  it('reports a "use client" file under app/ importing a server module at run time', async () => {
    const findings = await layerFindings('app/planted/planted-form.tsx', "'use client';\nimport { authOptions } from '@/server/auth/auth-options';\nexport const planted = authOptions;\n");
    expect(findings).toEqual([expect.stringMatching(/^2: client code: .*imports no server module at run time/)]);
  });

  it('allows the import-free isomorphic modules and a server page using server/auth', async () => {
    const client = "'use client';\nimport { SCATTER_FIELDS } from '@/server/runtime/costmodel/calibration-fields';\nimport { ROLES } from '@/server/auth/roles';\nexport const planted = [SCATTER_FIELDS, ROLES];\n";
    expect(await layerFindings('components/calibration/planted-page.tsx', client)).toEqual([]);
    const serverPage = "import { authOptions } from '@/server/auth/auth-options';\nexport const planted = authOptions;\n";
    expect(await layerFindings('app/planted/page.tsx', serverPage)).toEqual([]);
  });

  it('reports an isomorphic module that gains a run-time import (it would drag the server into the bundle)', async () => {
    const findings = await layerFindings(
      'server/runtime/costmodel/calibration-fields.ts',
      "import type { EstimatedField } from '../types';\nimport { summarize } from './cost-estimator';\nexport const SCATTER_FIELDS: readonly EstimatedField[] = ['tokens'];\nexport const planted = summarize;\n",
    );
    expect(findings).toEqual([expect.stringMatching(/^2: isomorphic module: /)]);
  });
});

describe('routers reach the runtime only through its port', () => {
  it('reports a router importing an adapter (type or value) or a runtime internal at run time', async () => {
    const findings = await layerFindings(
      'server/api/routers/planted-router.ts',
      [
        "import { MemoryStore } from '../../adapters/knowledge/memory-store';",
        "import type { KnowledgeExplorer } from '@/server/adapters/knowledge/knowledge-explorer';",
        "import { BANDIT_POLICY } from '../../runtime/learning/bandit-learner';",
        'export const planted = [MemoryStore, BANDIT_POLICY] as unknown as KnowledgeExplorer;',
      ].join('\n'),
    );
    expect(findings.map((finding) => finding.split(':')[0])).toEqual(['1', '2', '3']);
    expect(findings[2]).toMatch(/tRPC router: .*RuntimePort/);
  });

  it('allows the port, runtime types and the typed errors', async () => {
    const code = [
      "import { ContextRuntimeError } from '../../runtime/errors';",
      "import type { RunResult } from '../../runtime/explain/explain-types';",
      "import type { BanditLearner } from '../../runtime/learning/bandit-learner';",
      "import type { RuntimePort } from '../runtime-port';",
      'export const planted = ContextRuntimeError as unknown as [RunResult, BanditLearner, RuntimePort];',
    ].join('\n');
    expect(await layerFindings('server/api/routers/planted-router.ts', code)).toEqual([]);
  });
});

describe('the files fixed on this branch stay clean', () => {
  it('has no lint findings in components/knowledge, components/calibration and the knowledge and learning routers', async () => {
    const results = await eslint.lintFiles(['components/knowledge', 'components/calibration', 'server/api/routers/knowledge-router.ts', 'server/api/routers/learning-router.ts']);
    const findings = results.flatMap((result) => result.messages.map((message) => `${result.filePath}:${message.line} ${message.ruleId}`));
    expect(findings).toEqual([]);
  }, 180_000); // real files through every plugin: ~5 s alone, 30 s when the suite shares two cores
});
