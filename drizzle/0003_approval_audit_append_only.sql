-- Custom SQL migration file, put your code below! --
-- The approval log is evidence: the database itself refuses UPDATE, DELETE and TRUNCATE, so
-- neither a bug nor a hand-typed statement through the application role can rewrite it.
CREATE OR REPLACE FUNCTION approval_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'approval_audit is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS approval_audit_no_rewrite ON approval_audit;
--> statement-breakpoint
CREATE TRIGGER approval_audit_no_rewrite BEFORE UPDATE OR DELETE ON approval_audit
  FOR EACH ROW EXECUTE FUNCTION approval_audit_append_only();
--> statement-breakpoint
DROP TRIGGER IF EXISTS approval_audit_no_truncate ON approval_audit;
--> statement-breakpoint
CREATE TRIGGER approval_audit_no_truncate BEFORE TRUNCATE ON approval_audit
  FOR EACH STATEMENT EXECUTE FUNCTION approval_audit_append_only();
