/**
 * The LangChain.js adapter inside real LangChain runnables: retriever → format → prompt → a real
 * ChatOpenAI (@langchain/openai) speaking to a loopback OpenAI-compatible server, over the runtime in
 * this process and over the HTTP API v1 with real API keys; and the run-goal tool. Roles, a key's
 * source scope and the policy's source roles are the runtime's, on both ports.
 */
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import type { Document } from '@langchain/core/documents';
import { RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../auth/api-key-store';
import { resolvePrincipal } from '../../auth/request-principal';
import { UserStore } from '../../auth/user-store';
import { DEMO_QUESTION } from '../../ingest/demo-corpus';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { startV1ApiServer } from '../../testing/v1-api-server';
import type { ContextRuntimePort } from './context-runtime-port';
import { ContextRuntimeRetriever, formatCitedDocuments, type PassageMetadata } from './context-runtime-retriever';
import { httpRuntimePort } from './http-runtime-port';
import { v1Routes } from '../../api/v1/v1-routes';
import { inProcessRuntimePort, REQUIRED_ROLES } from './in-process-runtime-port';
import { createRunGoalTool } from './run-goal-tool';

const BUDGET = 900;
const REPLY = 'The connection pool was exhausted after the deploy [1], and the rollout then failed its readiness checks [2].';
/** Readable by admins only (policy.source_roles): an operator may not read it, on any surface. */
const ADMIN_ONLY = 'demo-metrics';

let fixture: RuntimeFixture;
let model: LoopbackOpenAIServer;
let api: Awaited<ReturnType<typeof startV1ApiServer>>;
const keys = { operator: '', logsOnly: '', viewer: '' };
let versions: Map<string, string>;

const operator = { user: 'langchain@example.com', roles: ['operator'] };
const local = (principal: { user: string; roles: string[]; sourceScope?: string[] }) => inProcessRuntimePort(fixture.runtime, principal);
const remote = (key: string) => httpRuntimePort({ baseUrl: api.url, apiKey: key });

beforeAll(async () => {
  fixture = await openRuntimeFixture({ config: { policy: { source_roles: { [ADMIN_ONLY]: ['admin'] } } } });
  model = await startLoopbackOpenAIServer({ text: REPLY });
  const store = new ApiKeyStore(fixture.database);
  const sources = await fixture.runtime.sources();
  versions = new Map(sources.map((source) => [source.name, source.versionId]));
  const create = async (role: string, scope?: string[]) => (await store.create({ name: `${role} key`, role, sources: scope, createdBy: 'root@example.com' }, [...versions.keys()])).key;
  keys.operator = await create('operator');
  keys.logsOnly = await create('operator', ['demo-logs']);
  keys.viewer = await create('viewer');
  api = await startV1ApiServer({
    runtime: async () => fixture.runtime,
    principal: (headers) => resolvePrincipal(headers, { secret: () => 'unused', users: async () => new UserStore(fixture.database), isServiceToken: () => false, apiKeys: async () => store }),
  });
}, 120_000);

afterAll(async () => {
  await api?.close();
  await model?.close();
  await fixture?.close();
});

/** retriever → numbered passages → prompt → ChatOpenAI → text; the documents kept to resolve what the answer cites. */
function answerChain(retriever: ContextRuntimeRetriever) {
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'Answer from the numbered passages only, citing them as [n].\n\n{context}'],
    ['human', '{question}'],
  ]);
  const chat = new ChatOpenAI({ model: 'llama-3.1-8b', apiKey: 'loopback', temperature: 0, maxRetries: 0, configuration: { baseURL: model.baseURL } });
  const answer = RunnableSequence.from([(input: { documents: Document<PassageMetadata>[]; question: string }) => ({ context: formatCitedDocuments(input.documents), question: input.question }), prompt, chat, new StringOutputParser()]);
  return RunnableSequence.from([
    { documents: retriever, question: new RunnablePassthrough<string>() },
    RunnablePassthrough.assign({ answer }),
    ({ answer: text, documents }: { answer: string; documents: Document<PassageMetadata>[] }) => ({ answer: text, cited: documents.filter((document) => text.includes(document.metadata.citation)) }),
  ]);
}

function expectCitedDocuments(documents: readonly Document<PassageMetadata>[], planHash?: string) {
  expect(documents.length).toBeGreaterThan(1);
  documents.forEach((document, index) => {
    expect(document.metadata.citation).toBe(`[${index + 1}]`);
    expect(document.metadata.version).toBe(versions.get(document.metadata.source));
    expect(document.id).toBe(document.metadata.chunkId);
    expect(document.metadata.planHash).toMatch(/^[0-9a-f]{8,}$/);
    if (planHash) expect(document.metadata.planHash).toBe(planHash);
    expect(document.pageContent.length).toBeGreaterThan(0);
  });
  expect(documents.reduce((sum, document) => sum + document.metadata.tokens, 0)).toBeLessThanOrEqual(BUDGET);
}

describe.each([
  ['in process', () => local(operator)],
  ['over HTTP API v1', () => remote(keys.operator)],
])('ContextRuntimeRetriever %s', (_via, port: () => ContextRuntimePort) => {
  it('answers in a runnable chain from documents carrying source, version and citation', async () => {
    const retriever = new ContextRuntimeRetriever({ runtime: port(), tokenBudget: BUDGET });
    const calls = model.requests.length;
    const { answer, cited } = await answerChain(retriever).invoke(DEMO_QUESTION);
    const documents = await retriever.invoke(DEMO_QUESTION);
    expectCitedDocuments(documents, (await fixture.runtime.explain({ goal: DEMO_QUESTION, principal: operator })).planHash);
    // An operator may not read the admin-only source: the plan left it out.
    expect(documents.map((document) => document.metadata.source)).not.toContain(ADMIN_ONLY);
    // The model was shown every passage under its marker; the chain's answer is its reply, resolved to those passages.
    expect(model.requests.length).toBe(calls + 1);
    const sent = JSON.stringify(model.requests.at(-1)!.body.messages);
    for (const document of documents) {
      expect(sent).toContain(JSON.stringify(`${document.metadata.citation} ${document.metadata.source}`).slice(1, -1));
      expect(sent).toContain(JSON.stringify(document.pageContent).slice(1, -1));
    }
    expect(answer).toBe(REPLY);
    expect(cited.map((document) => document.metadata.chunkId)).toEqual(documents.slice(0, 2).map((document) => document.metadata.chunkId));
  });

  it('refuses a source the principal may not read, naming it, rather than leaving it out', async () => {
    const retriever = new ContextRuntimeRetriever({ runtime: port(), sources: ['demo-logs', ADMIN_ONLY] });
    await expect(retriever.invoke(DEMO_QUESTION)).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'sources', message: `sources: you may not read "${ADMIN_ONLY}"` });
  });

  it('names the field of bad input', async () => {
    const retriever = new ContextRuntimeRetriever({ runtime: port(), tokenBudget: 0 });
    await expect(retriever.invoke(DEMO_QUESTION)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'tokenBudget' });
  });
});

describe('the principal the adapter acts as', () => {
  it('gives the same documents in process and over HTTP for the same role', async () => {
    const [inProcess, overHttp] = await Promise.all([local(operator), remote(keys.operator)].map((port) => new ContextRuntimeRetriever({ runtime: port, tokenBudget: BUDGET }).invoke(DEMO_QUESTION)));
    expect(overHttp.map((document) => document.metadata)).toEqual(inProcess.map((document) => document.metadata));
  });

  it("keeps a source-scoped key or principal to its sources, and refuses another one by name", async () => {
    for (const port of [remote(keys.logsOnly), local({ ...operator, sourceScope: ['demo-logs'] })]) {
      const documents = await new ContextRuntimeRetriever({ runtime: port }).invoke(DEMO_QUESTION);
      expect(documents.length).toBeGreaterThan(0);
      expect(new Set(documents.map((document) => document.metadata.source))).toEqual(new Set(['demo-logs']));
      await expect(new ContextRuntimeRetriever({ runtime: port, sources: ['demo-docs'] }).invoke(DEMO_QUESTION)).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'sources' });
    }
  });

  it('requires in process the role the HTTP API v1 route requires', () => {
    expect(REQUIRED_ROLES).toEqual({ plan: v1Routes.explain.role, buildContext: v1Routes.buildContext.role, run: v1Routes.runs.role });
  });

  it('refuses a viewer, who may read but not plan, as the HTTP route does', async () => {
    for (const port of [remote(keys.viewer), local({ user: 'viewer@example.com', roles: ['viewer'] })]) {
      await expect(new ContextRuntimeRetriever({ runtime: port }).invoke(DEMO_QUESTION)).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/^requires the operator role/) });
      await expect(createRunGoalTool(port).invoke({ goal: DEMO_QUESTION })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
  });
});

describe.each([
  ['in process', () => local(operator)],
  ['over HTTP API v1', () => remote(keys.operator)],
])('the run-goal tool %s', (_via, port: () => ContextRuntimePort) => {
  it('runs the goal and answers with citations, the whole result as its artifact', async () => {
    const runTool = createRunGoalTool(port());
    const message = await runTool.invoke({ type: 'tool_call', id: 'call-1', name: runTool.name, args: { goal: DEMO_QUESTION, sources: ['demo-logs', 'demo-events', 'demo-docs'] } });
    const run = message.artifact;
    expect(run).toMatchObject({ status: 'completed', runId: expect.any(String), planHash: expect.any(String) });
    expect(run.citations.length).toBeGreaterThan(0);
    expect(message.tool_call_id).toBe('call-1');
    expect(message.content).toContain(run.answer);
    for (const citation of run.citations) expect(message.content).toContain(`[${citation.ref}] ${citation.sourceName}`);
    for (const citation of run.citations) expect(['demo-logs', 'demo-events', 'demo-docs']).toContain(citation.sourceName);
    // The run is the runtime's own, readable as any other.
    expect((await fixture.runtime.getRun(run.runId, operator)).run.answer).toBe(run.answer);
  });

  it('refuses a source outside the permission before running anything, and bad input by its field', async () => {
    const runs = await fixture.count('runs');
    await expect(createRunGoalTool(port()).invoke({ goal: DEMO_QUESTION, sources: ['demo-logs', ADMIN_ONLY] })).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'sources', message: `sources: you may not read "${ADMIN_ONLY}"` });
    expect(await fixture.count('runs')).toBe(runs);
    await expect(createRunGoalTool(port()).invoke({ goal: '   ' })).rejects.toThrow(/goal: say what to find out/);
  });
});
