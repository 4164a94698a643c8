'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ROLES, highestRole, type Role } from '@/server/auth/roles';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import styles from './auth.module.css';

/** The role a new account starts with: the least privilege. */
const NEW_USER_ROLE: Role = 'viewer';

interface UserRow {
  readonly email: string;
  readonly name: string;
  readonly roles: readonly string[];
  readonly hasPassword: boolean;
  readonly disabled: boolean;
}

function userColumns(
  currentEmail: string,
  setRoles: (input: { email: string; roles: string[] }) => void,
  setDisabled: (input: { email: string; disabled: boolean }) => void,
): ColumnList<UserRow> {
  return [
    { key: 'email', header: 'Email', rowHeader: true, cell: (user) => user.email },
    { key: 'name', header: 'Name', cell: (user) => user.name },
    {
      key: 'role',
      header: 'Role',
      cell: (user) => (
        <select aria-label={`Role of ${user.email}`} value={highestRole(user.roles) ?? ''} onChange={(event) => setRoles({ email: user.email, roles: [event.target.value] })}>
          {/* A first single sign-on gets no role (no access) until an admin picks one here. */}
          {highestRole(user.roles) === undefined && (
            <option value="" disabled>
              no role yet
            </option>
          )}
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      ),
    },
    { key: 'sign-in', header: 'Sign-in', cell: (user) => (user.hasPassword ? 'password' : 'single sign-on') },
    {
      key: 'status',
      header: 'Status',
      cell: (user) => (
        <>
          <button type="button" disabled={user.email === currentEmail} onClick={() => setDisabled({ email: user.email, disabled: !user.disabled })} aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.email}`}>
            {user.disabled ? 'Enable' : 'Disable'}
          </button>{' '}
          {user.disabled ? <span className="badge">disabled</span> : null}
        </>
      ),
    },
  ];
}

/** Admin page: list accounts, create one with a password, change a role, disable/enable. */
export function UsersAdmin({ currentEmail }: { readonly currentEmail: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.users.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() });
  const create = useMutation(trpc.users.create.mutationOptions({ onSuccess: refresh }));
  const setRoles = useMutation(trpc.users.setRoles.mutationOptions({ onSuccess: refresh }));
  const setDisabled = useMutation(trpc.users.setDisabled.mutationOptions({ onSuccess: refresh }));
  const [created, setCreated] = useState<string | undefined>();
  const failure = create.error ?? setRoles.error ?? setDisabled.error ?? users.error;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const input = { email: String(form.get('email') ?? ''), name: String(form.get('name') ?? ''), password: String(form.get('password') ?? ''), roles: [String(form.get('role') ?? 'viewer')] };
    setCreated(undefined);
    create.mutate(input, {
      onSuccess: (user) => {
        setCreated(user.email);
        formElement.reset();
      },
    });
  }

  return (
    <div className="console">
      <section className="panel" aria-labelledby="users-title">
        <h1 id="users-title">Users</h1>
        {failure ? (
          <p role="alert" className="error-message">
            {failure.message}
          </p>
        ) : null}
        <DataTable rows={users.data ?? []} columns={userColumns(currentEmail, setRoles.mutate, setDisabled.mutate)} rowKey={(user) => user.email} scrollLabel="Users" />
      </section>
      <section className="panel" aria-labelledby="new-user-title">
        <h2 id="new-user-title">Add a user</h2>
        <form className={styles.inline} onSubmit={submit}>
          <label className="field">
            <span>Email</span>
            <input name="email" type="email" required autoComplete="off" />
          </label>
          <label className="field">
            <span>Name</span>
            <input name="name" type="text" autoComplete="off" />
          </label>
          <label className="field">
            <span>Password (12+ characters)</span>
            <input name="password" type="password" required minLength={12} autoComplete="new-password" />
          </label>
          <label className="field">
            <span>Role</span>
            {/* aria-label: a wrapping label would also read out the selected option ("Role viewer"). */}
            <select name="role" aria-label="Role" defaultValue={NEW_USER_ROLE}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="primary" disabled={create.isPending}>
            Add user
          </button>
        </form>
        {created ? <p role="status">Created {created}.</p> : null}
      </section>
    </div>
  );
}
