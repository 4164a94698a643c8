-- Custom SQL migration file, put your code below! --
-- Rows written before the chain existed: copy each run's goal and starter into its audit rows and
-- chain them in id order, with the encoding server/adapters/db/approval-audit-chain.ts uses (each
-- field as "<utf-8 byte length>:<value>\n"), so `context-runtime audit verify` covers them too.
-- The append-only trigger is lifted for this one pass by the table's owner (the migration role).
DO $$
DECLARE
  previous text := '';
  entry record;
  payload text;
  digest text;
BEGIN
  ALTER TABLE approval_audit DISABLE TRIGGER approval_audit_no_rewrite;
  FOR entry IN
    SELECT audit.id, audit.run_id, audit.node_id, audit.decision, audit.decided_by, audit.comment,
           to_char(audit.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS decided_at,
           coalesce(runs.goal, '') AS goal, coalesce(runs.user_name, '') AS run_user
    FROM approval_audit audit LEFT JOIN runs ON runs.id = audit.run_id
    ORDER BY audit.id
  LOOP
    SELECT string_agg(octet_length(field)::text || ':' || field || E'\n', '' ORDER BY position) INTO payload
    FROM unnest(ARRAY[previous, entry.run_id, entry.node_id, entry.decision, entry.decided_by, entry.comment,
                      entry.decided_at, entry.goal, entry.run_user, 'approver']) WITH ORDINALITY AS fields(field, position);
    digest := encode(sha256(convert_to(payload, 'UTF8')), 'hex');
    UPDATE approval_audit
      SET goal = entry.goal, run_user = entry.run_user, required_role = 'approver', prev_hash = previous, row_hash = digest
      WHERE id = entry.id;
    previous := digest;
  END LOOP;
  ALTER TABLE approval_audit ENABLE TRIGGER approval_audit_no_rewrite;
END
$$;
