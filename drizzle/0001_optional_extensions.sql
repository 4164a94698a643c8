-- Custom SQL migration file, put your code below! --
-- vector (pgvector) and pg_textsearch are capabilities, never requirements: create each only
-- where this server offers it, so the same migrations run on PGlite (which bundles both) and on
-- a plain PostgreSQL 15 that has neither. A server that lists an extension but refuses to
-- create it (no privilege, missing shared_preload_libraries) gets a WARNING, not a failure;
-- store-capabilities.ts then reports it as missing.
DO $$
DECLARE
  wanted text;
BEGIN
  FOREACH wanted IN ARRAY ARRAY['vector', 'pg_textsearch'] LOOP
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = wanted) THEN
      BEGIN
        EXECUTE format('CREATE EXTENSION IF NOT EXISTS %I', wanted);
      EXCEPTION WHEN OTHERS THEN
        RAISE WARNING 'extension % is available but could not be created: %', wanted, SQLERRM;
      END;
    END IF;
  END LOOP;
END
$$;
