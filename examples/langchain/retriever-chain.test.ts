/**
 * The README's LangChain.js example, run as a user runs it (`npx tsx examples/langchain/retriever-chain.ts`)
 * on a fresh embedded database, with its chat model pointed at a loopback OpenAI-compatible server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../server/testing/loopback-openai-server';
import { writeConfig } from '../../server/testing/runtime-fixture';

const REPLY = 'The pod was OOMKilled after the memory limit was lowered [1].';
let model: LoopbackOpenAIServer;
let root: string;

beforeAll(async () => {
  model = await startLoopbackOpenAIServer({ text: REPLY });
  root = mkdtempSync(join(tmpdir(), 'context-runtime-langchain-example-'));
});

afterAll(async () => {
  await model?.close();
  rmSync(root, { recursive: true, force: true });
});

function runExample(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const configPath = join(root, 'context-runtime.yaml');
  writeConfig(configPath, { database: { data_dir: join(root, 'pglite') } });
  // The variables a developer's shell might carry that would point the example elsewhere are dropped.
  const { CONTEXT_RUNTIME_DATA_DIR: _dataDir, DATABASE_URL: _url, CONTEXT_RUNTIME_API_KEY: _key, OPENAI_API_KEY: _openai, ...inherited } = process.env;
  const child = spawn('npx', ['tsx', 'examples/langchain/retriever-chain.ts'], { env: { ...inherited, CONTEXT_RUNTIME_CONFIG: configPath, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('examples/langchain/retriever-chain.ts', () => {
  it('prints the planned passages with their citations, the chain answer, and the tool answer', async () => {
    const { code, stdout, stderr } = await runExample({ OPENAI_API_KEY: 'loopback', OPENAI_BASE_URL: model.baseURL, OPENAI_MODEL: 'llama-3.1-8b' });
    expect(code, stderr).toBe(0);
    // "  [1] demo-logs@ver_342a lines 64–68 score 0.044 plan 025b6a439dbd": marker, source, version, plan.
    const passages = [...stdout.matchAll(/^ {2}(\[\d+\]) (demo-[a-z]+)@(\S{8}) .* plan ([0-9a-f]{12})$/gm)];
    expect(passages.length, stdout).toBeGreaterThan(1);
    expect(passages.map((match) => match[1])).toEqual(passages.map((_match, index) => `[${index + 1}]`));
    expect(new Set(passages.map((match) => match[4])).size).toBe(1);
    expect(stdout).toContain(`Chain answer (llama-3.1-8b):\n${REPLY}`);
    // The model got the passages the example printed, under the same markers.
    const sent = JSON.stringify(model.requests.at(-1)?.body.messages);
    for (const [, marker, source] of passages) expect(sent).toContain(`${marker} ${source}`);
    // The tool ran the goal on the runtime's own (offline extractive) model and listed its sources.
    expect(stdout).toMatch(/Tool context_runtime_run:\n[\s\S]+\nSources:\n\[\d+\] demo-/);
  }, 240_000);
});
