'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '@/components/console/error-message';
import { useTRPC } from '@/components/providers/trpc-provider';

/**
 * Upload files into a source (issue 12, finding 2): operators add evidence from their own machine
 * instead of naming a path the server would read. The server checks every file again (type,
 * binary content, size) and refuses a new version of an existing source unless the caller is admin.
 */

/** base64 of a file's bytes, built in slices: one String.fromCharCode call over megabytes overflows the stack. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return btoa(binary);
}

export function UploadForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<readonly File[]>([]);
  const [source, setSource] = useState('');
  const upload = useMutation(trpc.runtime.upload.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.knowledge.sources.queryKey() }) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const encoded = await Promise.all(files.map(async (file) => ({ path: file.name, contentBase64: await base64Of(file) })));
    upload.mutate({ source: source.trim(), files: encoded });
  };

  return (
    <form className="goal-form" onSubmit={submit} aria-label="Upload files">
      <label className="field">
        <span>Files</span>
        <input type="file" multiple accept=".md,.markdown,.txt,.log,.json,.csv" onChange={(event) => setFiles([...(event.target.files ?? [])])} />
      </label>
      <label className="field">
        <span>Source name</span>
        <input type="text" value={source} onChange={(event) => setSource(event.target.value)} placeholder="e.g. team-runbooks" required pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}" />
      </label>
      <p className="muted">Markdown or text, .log files, Kubernetes events (.json) and metrics (.csv); at most 8 MiB per upload.</p>
      <div>
        <button type="submit" disabled={files.length === 0 || upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload'}
        </button>
      </div>
      {upload.error ? <ErrorMessage error={upload.error} /> : null}
      {upload.data ? (
        <div className="notice success" role="status">
          <p>
            {upload.data.sources.map((result) => `${result.source}: ${result.changed ? `${result.documents} file(s), ${result.chunks} chunk(s) written` : 'unchanged'}`).join('; ') || 'Nothing ingested.'}
          </p>
          {upload.data.skipped.length > 0 ? (
            <ul aria-label="Files left out">
              {upload.data.skipped.map((entry) => (
                <li key={entry.path}>
                  {entry.path}: {entry.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
