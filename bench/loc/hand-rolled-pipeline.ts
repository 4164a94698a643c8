/**
 * The incident review ("Explain why deployment checkout-api failed"), hand-rolled the way a team
 * would with LangGraph: a StateGraph over the chunks the runtime ingested, read with plain SQL
 * from its own copy of the embedded Postgres. Per-source full-text retrieval, a second hop that
 * follows the failure the logs and events name to the change and the runbook behind it, a lexical
 * rerank, a token budget, a cost cap checked before the model call, one call through ChatOpenAI,
 * and a citation check. One side of bench:loc; the other is context-runtime-pipeline.ts.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { vector } from '@electric-sql/pglite-pgvector';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { getEncoding } from 'js-tiktoken';

export interface HandRolledOptions {
  /** A PGlite data directory holding the ingested demo corpus. */
  readonly dataDir: string;
  readonly baseURL: string;
  readonly model: string;
}

export interface Passage {
  readonly chunkId: string;
  readonly source: string;
  readonly title: string;
  readonly locator: string | null;
  readonly text: string;
  /** 1-based rank in its source's result list. */
  readonly rank: number;
}

export interface CitedPassage {
  readonly ref: number;
  readonly chunkId: string;
  readonly source: string;
  readonly locator: string | null;
}

export interface ReviewResult {
  readonly status: 'completed' | 'over_cost_cap' | 'uncited';
  readonly answer: string;
  readonly citations: readonly CitedPassage[];
  readonly costUsd: number;
}

const SIGNAL_SOURCES = ['demo-logs', 'demo-events'];
const CHANGE_SOURCES = ['demo-git', 'demo-docs'];
const PER_SOURCE_K = 20;
const FINAL_K = 8;
const CONTEXT_BUDGET_TOKENS = 3000;
const MAX_OUTPUT_TOKENS = 512;
// gpt-4.1-mini list prices (USD per token): the loopback model stands in for it.
const PRICE = { input: 0.4 / 1e6, output: 1.6 / 1e6 };
// Words that name a cause in logs and events; the terms found become the second hop's query.
const FAILURE_TERMS = /\b(oomkilled|oom|memory|limit|heap|crashloopbackoff|backoff|evicted|timeout|exceeded|refused|panic)\b/gi;
const SYSTEM_PROMPT = [
  'Answer the question using only the numbered context items.',
  'Cite every claim with the number of its item, like [1] or [2, 3].',
  'If the context does not hold the answer, say that you found no evidence.',
].join(' ');

const State = Annotation.Root({
  goal: Annotation<string>,
  maxCostUsd: Annotation<number>,
  followUpQuery: Annotation<string>,
  candidates: Annotation<Passage[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
  ranked: Annotation<Passage[]>,
  context: Annotation<Passage[]>,
  prompt: Annotation<string>,
  worstCaseCostUsd: Annotation<number>,
  answer: Annotation<string>,
  costUsd: Annotation<number>,
  status: Annotation<ReviewResult['status']>,
  citations: Annotation<CitedPassage[]>,
});
type ReviewState = typeof State.State;

const termsOf = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

function share(needles: Set<string>, haystack: Set<string>): number {
  if (needles.size === 0) return 0;
  let found = 0;
  for (const term of needles) if (haystack.has(term)) found += 1;
  return found / needles.size;
}

function contextItem(passage: Passage, ref: number): string {
  const origin = passage.locator ? `${passage.source}, ${passage.locator}` : passage.source;
  return `[${ref}] ${passage.title} — ${origin}\n${passage.text.trim()}`;
}

export async function openHandRolledPipeline(options: HandRolledOptions) {
  // The runtime's schema uses both extensions; Postgres will not start on it without them.
  const database = await PGlite.create({ dataDir: options.dataDir, extensions: { vector, pg_textsearch } });
  const model = new ChatOpenAI({
    model: options.model,
    apiKey: 'loopback',
    configuration: { baseURL: options.baseURL },
    temperature: 0,
    maxTokens: MAX_OUTPUT_TOKENS,
    timeout: 60_000,
    maxRetries: 2,
  });
  const encoding = getEncoding('cl100k_base');
  const countTokens = (text: string) => encoding.encode(text).length;

  async function search(source: string, query: string): Promise<Passage[]> {
    // Any query word may match (plainto_tsquery ANDs them; 'simple' keeps its stems as they are).
    const { rows } = await database.query<{ id: string; title: string; locator: string | null; body: string }>(
      `select c.id, c.title, c.locator, c.body
         from chunks c join sources s on s.id = c.source_id,
              to_tsquery('simple', replace(plainto_tsquery('english', $2)::text, '&', '|')) q
        where s.name = $1 and c.is_current and c.search_vector @@ q
        order by ts_rank_cd(c.search_vector, q) desc, c.ordinal
        limit $3`,
      [source, query, PER_SOURCE_K],
    );
    return rows.map((row, index) => ({ chunkId: row.id, source, title: row.title, locator: row.locator, text: row.body, rank: index + 1 }));
  }
  const searchAll = async (sources: string[], query: string) => (await Promise.all(sources.map((source) => search(source, query)))).flat();

  async function retrieveSignals(state: ReviewState) {
    return { candidates: await searchAll(SIGNAL_SOURCES, state.goal) };
  }

  function followFailure(state: ReviewState) {
    const top = state.candidates.filter((passage) => passage.rank <= 5);
    const causes = new Set(top.flatMap((passage) => passage.text.toLowerCase().match(FAILURE_TERMS) ?? []));
    return { followUpQuery: [state.goal, ...causes].join(' ') };
  }

  async function retrieveChanges(state: ReviewState) {
    return { candidates: await searchAll(CHANGE_SOURCES, state.followUpQuery) };
  }

  function rerank(state: ReviewState) {
    // Per-source ranks are not comparable across sources (ts_rank_cd scales with length), so a
    // passage scores by its reciprocal rank plus how much of the (expanded) query it covers.
    const query = termsOf(state.followUpQuery);
    const scored = state.candidates.map((passage) => ({ passage, score: 1 / (10 + passage.rank) + 0.1 * share(query, termsOf(`${passage.title} ${passage.text}`)) }));
    return { ranked: scored.sort((left, right) => right.score - left.score).map(({ passage }) => passage) };
  }

  function fitBudget(state: ReviewState) {
    const context: Passage[] = [];
    let tokens = 0;
    for (const passage of state.ranked) {
      if (context.length === FINAL_K) break;
      const cost = countTokens(contextItem(passage, context.length + 1));
      if (tokens + cost > CONTEXT_BUDGET_TOKENS) continue;
      context.push(passage);
      tokens += cost;
    }
    const items = context.map((passage, index) => contextItem(passage, index + 1)).join('\n\n');
    const prompt = `Question: ${state.goal}\n\nContext:\n${items}`;
    // The cap holds before spending: the prompt as counted plus the most the answer may cost.
    const worstCaseCostUsd = (countTokens(SYSTEM_PROMPT) + countTokens(prompt)) * PRICE.input + MAX_OUTPUT_TOKENS * PRICE.output;
    return { context, prompt, worstCaseCostUsd };
  }

  function refuseOverCap(state: ReviewState) {
    const answer = `Not answered: the call could cost $${state.worstCaseCostUsd.toFixed(6)}, over the cap of $${state.maxCostUsd}.`;
    return { status: 'over_cost_cap' as const, answer, citations: [], costUsd: 0 };
  }

  async function generate(state: ReviewState) {
    const reply = await model.invoke([new SystemMessage(SYSTEM_PROMPT), new HumanMessage(state.prompt)]);
    const usage = reply.usage_metadata;
    const costUsd = (usage?.input_tokens ?? 0) * PRICE.input + (usage?.output_tokens ?? 0) * PRICE.output;
    return { answer: reply.text.trim(), costUsd };
  }

  function checkCitations(state: ReviewState) {
    // A claim counts as cited when its [n] names a context item sharing a third of its words.
    const citations: CitedPassage[] = [];
    for (const line of state.answer.split('\n')) {
      const claim = termsOf(line.replace(/\[[\d,\s]+\]/g, ''));
      for (const marker of line.matchAll(/\[([\d,\s]+)\]/g)) {
        for (const ref of marker[1].split(',').map(Number)) {
          const passage = state.context[ref - 1];
          if (!passage || share(claim, termsOf(passage.text)) < 1 / 3) continue;
          if (!citations.some((cited) => cited.ref === ref)) citations.push({ ref, chunkId: passage.chunkId, source: passage.source, locator: passage.locator });
        }
      }
    }
    return { citations, status: citations.length > 0 ? ('completed' as const) : ('uncited' as const) };
  }

  const graph = new StateGraph(State)
    .addNode('retrieve_signals', retrieveSignals)
    .addNode('follow_failure', followFailure)
    .addNode('retrieve_changes', retrieveChanges)
    .addNode('rerank', rerank)
    .addNode('fit_budget', fitBudget)
    .addNode('refuse_over_cap', refuseOverCap)
    .addNode('generate', generate)
    .addNode('check_citations', checkCitations)
    .addEdge(START, 'retrieve_signals')
    .addEdge('retrieve_signals', 'follow_failure')
    .addEdge('follow_failure', 'retrieve_changes')
    .addEdge('retrieve_changes', 'rerank')
    .addEdge('rerank', 'fit_budget')
    .addConditionalEdges('fit_budget', (state) => (state.worstCaseCostUsd > state.maxCostUsd ? 'refuse_over_cap' : 'generate'))
    .addEdge('refuse_over_cap', END)
    .addEdge('generate', 'check_citations')
    .addEdge('check_citations', END)
    .compile();

  return {
    async review(goal: string, maxCostUsd: number): Promise<ReviewResult> {
      const final = await graph.invoke({ goal, maxCostUsd });
      return { status: final.status, answer: final.answer, citations: final.citations, costUsd: final.costUsd };
    },
    close: () => database.close(),
  };
}
