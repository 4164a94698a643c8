'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ROLES, type Role } from '@/server/auth/roles';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import styles from './auth.module.css';

/** A new key starts with the least privilege that can run goals through the API. */
const NEW_KEY_ROLE: Role = 'operator';

interface KeyRow {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
  readonly role: string;
  readonly sources: readonly string[] | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

const when = (date: Date | null) => (date ? new Date(date).toLocaleString() : 'never');

function keyColumns(revoke: (input: { id: string }) => void): ColumnList<KeyRow> {
  return [
    { key: 'name', header: 'Name', rowHeader: true, cell: (key) => key.name },
    { key: 'prefix', header: 'Key', cell: (key) => <code>{key.prefix}…</code> },
    { key: 'role', header: 'Role', cell: (key) => key.role },
    { key: 'sources', header: 'Sources', cell: (key) => (key.sources ? key.sources.join(', ') : 'all the role may read') },
    { key: 'created', header: 'Created', cell: (key) => `${when(key.createdAt)} by ${key.createdBy}` },
    { key: 'used', header: 'Last used', cell: (key) => when(key.lastUsedAt) },
    {
      key: 'status',
      header: 'Status',
      cell: (key) =>
        key.revokedAt ? (
          <span className="badge">revoked {when(key.revokedAt)}</span>
        ) : (
          <button type="button" onClick={() => revoke({ id: key.id })} aria-label={`Revoke ${key.name}`}>
            Revoke
          </button>
        ),
    },
  ];
}

/** Admin page: API keys for the HTTP API, the CLI and MCP — created (shown once), listed with their last use, revoked. */
export function ApiKeysAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const sources = useQuery(trpc.runtime.sources.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  const create = useMutation(trpc.apiKeys.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: refresh }));
  const [created, setCreated] = useState<{ name: string; key: string } | undefined>();
  const failure = create.error ?? revoke.error ?? keys.error;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const scope = form.getAll('sources').map(String);
    setCreated(undefined);
    create.mutate(
      { name: String(form.get('name') ?? ''), role: String(form.get('role') ?? NEW_KEY_ROLE), sources: scope.length > 0 ? scope : null },
      {
        onSuccess: ({ key, record }) => {
          setCreated({ name: record.name, key });
          formElement.reset();
        },
      },
    );
  }

  return (
    <div className="console">
      <section className="panel" aria-labelledby="api-keys-title">
        <h1 id="api-keys-title">API keys</h1>
        <p>
          Keys authenticate the HTTP API (<a href="/api/v1/openapi.json">OpenAPI document</a>), the CLI and MCP clients: <code>Authorization: Bearer &lt;key&gt;</code>. A key acts with its role and reads only
          its sources.
        </p>
        {failure ? (
          <p role="alert" className="error-message">
            {failure.message}
          </p>
        ) : null}
        <DataTable rows={keys.data ?? []} columns={keyColumns(revoke.mutate)} rowKey={(key) => key.id} scrollLabel="API keys" empty="No API keys yet." />
      </section>
      <section className="panel" aria-labelledby="new-key-title">
        <h2 id="new-key-title">Create a key</h2>
        <form className={styles.inline} onSubmit={submit}>
          <label className="field">
            <span>Name</span>
            <input name="name" type="text" required maxLength={100} autoComplete="off" />
          </label>
          <label className="field">
            <span>Role</span>
            <select name="role" aria-label="Role" defaultValue={NEW_KEY_ROLE}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="field">
            <legend>Sources (none ticked: every source the role may read)</legend>
            {(sources.data ?? []).map((source) => (
              <label key={source.name}>
                <input type="checkbox" name="sources" value={source.name} /> {source.name}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create key
          </button>
        </form>
        {created ? (
          <div role="status">
            <p>
              Created {created.name}. Copy the key now: it is not shown again.
            </p>
            <label className="field">
              <span>New API key</span>
              <input type="text" readOnly value={created.key} onFocus={(event) => event.currentTarget.select()} />
            </label>
          </div>
        ) : null}
      </section>
    </div>
  );
}
