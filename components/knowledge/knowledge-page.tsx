'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '@/components/console/error-message';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ContradictionsTable } from './contradictions-table';
import { FactsTable } from './facts-table';
import styles from './knowledge.module.css';
import { LineageView } from './lineage-view';
import { MemoriesPanel } from './memories-panel';
import { SourcesTable } from './sources-table';
import { UploadForm } from './upload-form';
import { VersionsTable } from './versions-table';

/**
 * Sources with their versions and staleness; for the selected source its versions and facts; a
 * selected node's lineage; the open contradictions (all, or those touching the selected source);
 * memories as of an instant. `canOperate` only hides actions the server would refuse (FORBIDDEN).
 */
export function KnowledgePage({ canOperate = false, initialNode = null }: { readonly canOperate?: boolean; readonly initialNode?: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [selectedSource, setSelectedSource] = useState<string | null>(null);
  const [selectedNode, setSelectedNode] = useState<string | null>(initialNode);
  const sources = useQuery(trpc.knowledge.sources.queryOptions());
  const source = selectedSource ?? sources.data?.[0]?.name ?? null;
  const versions = useQuery({ ...trpc.knowledge.versions.queryOptions({ sourceName: source ?? '' }), enabled: source !== null });
  const facts = useQuery({ ...trpc.knowledge.facts.queryOptions({ sourceName: source ?? '' }), enabled: source !== null });
  const contradictions = useQuery(trpc.knowledge.contradictions.queryOptions({}));
  const lineage = useQuery({ ...trpc.knowledge.lineage.queryOptions({ nodeId: selectedNode ?? '' }), enabled: selectedNode !== null });
  const promote = useMutation(trpc.knowledge.promoteFact.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.knowledge.memories.queryKey() }) }));

  const lineagePanel = useRef<HTMLElement>(null);
  // The lineage panel sits below a possibly long facts list: bring it into view once it has data.
  useEffect(() => {
    if (selectedNode !== null && lineage.data) lineagePanel.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [selectedNode, lineage.data]);

  const showLineage = (nodeId: string) => setSelectedNode(nodeId);

  const selectSource = (name: string) => {
    setSelectedSource(name);
    setSelectedNode(null);
    promote.reset();
  };

  return (
    <div className={styles.grid}>
      <section className="panel">
        <h1>Knowledge</h1>
        <p className="muted">
          Every source version is kept; content derived from a superseded version turns stale (the planner rejects stale sources), and facts that disagree are flagged.
        </p>
        {sources.error ? <ErrorMessage error={sources.error} /> : null}
        {sources.isPending ? <p className="muted">Loading sources…</p> : null}
        {sources.data ? <SourcesTable sources={sources.data} selected={source} onSelect={selectSource} /> : null}
      </section>

      {canOperate ? (
        <section className="panel" aria-labelledby="upload-heading">
          <h2 id="upload-heading">Add evidence</h2>
          <UploadForm />
        </section>
      ) : null}

      {source ? (
        <section className="panel">
          <h2>
            Versions of <code>{source}</code>
          </h2>
          {versions.error ? <ErrorMessage error={versions.error} /> : null}
          {versions.data ? <VersionsTable versions={versions.data} /> : <p className="muted">Loading versions…</p>}
        </section>
      ) : null}

      {source ? (
        <section className="panel">
          <h2>
            Facts of <code>{source}</code>
          </h2>
          {facts.error ? <ErrorMessage error={facts.error} /> : null}
          {promote.error ? <ErrorMessage error={promote.error} /> : null}
          {promote.data ? (
            <p className="notice success" role="status" data-testid="promoted-memory" data-memory-id={promote.data.id}>
              Kept {promote.data.subject} · {promote.data.attribute} = {promote.data.value} as a memory (confidence {promote.data.confidence?.toFixed(2) ?? '—'}).
            </p>
          ) : null}
          {facts.data ? (
            <FactsTable
              facts={facts.data}
              selectedNode={selectedNode}
              onLineage={showLineage}
              onKeep={canOperate ? (factId, confidence) => promote.mutate({ factId, confidence }) : undefined}
              keeping={promote.isPending ? (promote.variables?.factId ?? null) : null}
            />
          ) : (
            <p className="muted">Loading facts…</p>
          )}
        </section>
      ) : null}

      <section className="panel" ref={lineagePanel} aria-labelledby="lineage-heading">
        <h2 id="lineage-heading">Lineage</h2>
        {selectedNode === null ? <p className="muted">Choose “lineage” on a fact or a contradiction to trace it to its chunk and source version.</p> : null}
        {lineage.error ? <ErrorMessage error={lineage.error} /> : null}
        {lineage.data ? <LineageView lineage={lineage.data} /> : null}
      </section>

      <section className="panel">
        <h2>Contradictions</h2>
        {contradictions.error ? <ErrorMessage error={contradictions.error} /> : null}
        {contradictions.data ? <ContradictionsTable groups={contradictions.data} onLineage={showLineage} /> : <p className="muted">Loading contradictions…</p>}
      </section>

      <section className="panel" data-testid="knowledge-memories-panel">
        <h2>Memories</h2>
        <MemoriesPanel canOperate={canOperate} onLineage={showLineage} />
      </section>
    </div>
  );
}
