/**
 * A LangChain.js retriever whose documents the runtime plans: each query is a goal, planned as for a
 * run (sources the principal may read, retrievers, fusion, reranking, compression), of which only
 * the retrieval half runs, packed within a token budget (build_context). The documents come back
 * ranked and numbered as a model should cite them, with where each came from.
 */
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { refuseUnreadableSources, type BuiltContext, type CitedPassage, type ContextRuntimePort } from './context-runtime-port';

/** What a document says about its passage; `citation` is the marker a model cites it by. */
export interface PassageMetadata extends Record<string, unknown> {
  readonly source: string;
  readonly sourceKind: string;
  /** The source version the passage was read from (changes when the source is ingested again). */
  readonly version: string;
  readonly citation: string;
  readonly ref: number;
  readonly chunkId: string;
  readonly title: string;
  readonly locator: string | null;
  readonly score: number;
  readonly method: string;
  readonly tokens: number;
  readonly compressed: boolean;
  /** The plan that chose the passage: EXPLAIN it with the same goal to see why. */
  readonly planHash: string;
}

export interface ContextRuntimeRetrieverInput extends BaseRetrieverInput {
  readonly runtime: ContextRuntimePort;
  /** Sources to draw from; omitted = every source the principal may read. Naming one it may not read is refused. */
  readonly sources?: readonly string[];
  /** Tokens the documents may fill together; omitted = the plan's own budget. */
  readonly tokenBudget?: number;
  readonly constraints?: Readonly<Record<string, unknown>>;
}

export function documentOf(passage: CitedPassage, context: Pick<BuiltContext, 'planHash'>): Document<PassageMetadata> {
  return new Document<PassageMetadata>({
    id: passage.chunkId,
    pageContent: passage.text,
    metadata: {
      source: passage.sourceName,
      sourceKind: passage.sourceKind,
      version: passage.sourceVersionId,
      citation: `[${passage.ref}]`,
      ref: passage.ref,
      chunkId: passage.chunkId,
      title: passage.title,
      locator: passage.locator,
      score: passage.score,
      method: passage.method,
      tokens: passage.tokens,
      compressed: passage.compressed,
      planHash: context.planHash,
    },
  });
}

export class ContextRuntimeRetriever extends BaseRetriever<PassageMetadata> {
  static lc_name(): string {
    return 'ContextRuntimeRetriever';
  }

  lc_namespace = ['context_runtime', 'retrievers'];

  private readonly port: ContextRuntimePort;
  private readonly sources?: readonly string[];
  private readonly tokenBudget?: number;
  private readonly constraints?: Readonly<Record<string, unknown>>;

  constructor(fields: ContextRuntimeRetrieverInput) {
    super(fields);
    this.port = fields.runtime;
    this.sources = fields.sources;
    this.tokenBudget = fields.tokenBudget;
    this.constraints = fields.constraints;
  }

  async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun): Promise<Document<PassageMetadata>[]> {
    const context = await this.port.buildContext({
      goal: query,
      ...(this.sources ? { sources: this.sources } : {}),
      ...(this.tokenBudget === undefined ? {} : { tokenBudget: this.tokenBudget }),
      ...(this.constraints ? { constraints: this.constraints } : {}),
    });
    refuseUnreadableSources(this.sources, context.rejectedSources);
    return context.passages.map((passage) => documentOf(passage, context));
  }
}

/** Documents as a prompt shows them: each under its citation marker and where it came from. */
export function formatCitedDocuments(documents: readonly Document<Partial<PassageMetadata>>[]): string {
  return documents
    .map((document, index) => {
      const { citation = `[${index + 1}]`, source = 'unknown source', locator } = document.metadata;
      return `${citation} ${source}${locator ? ` (${locator})` : ''}\n${document.pageContent}`;
    })
    .join('\n\n');
}
