/**
 * A separate process calling one rate-limited tier through the shared ledger (pg-tier-admissions.test.ts):
 * `node --import tsx tier-admission-caller.ts URL BASE_URL CALLS LIMITS_JSON TIMEOUT_MS`. Prints one
 * JSON line: how each call ended (`ok` or the error's code).
 */
import { openDatabase } from '../../../../db/client';
import { isContextRuntimeError } from '../../../runtime/errors';
import { createModelPlugin } from '../../models/ai-sdk-model';
import { PgTierAdmissions } from '../pg-tier-admissions';

const [url, baseURL, calls, limitsJson, timeoutMs] = process.argv.slice(2);
const database = await openDatabase({ url });
const limits = JSON.parse(limitsJson) as { max_concurrency?: number; rpm?: number; tpm?: number };
const model = createModelPlugin({ name: 'shared', provider: 'openai-compatible', model: 'shared-1', base_url: baseURL, ...limits }, {}, undefined, new PgTierAdmissions(database));
const outcomes = await Promise.all(
  Array.from({ length: Number(calls) }, () =>
    model.complete({ messages: [{ role: 'user', content: `call from process ${process.pid}` }], maxOutputTokens: 20, timeoutMs: Number(timeoutMs) }).then(
      () => 'ok',
      (error: unknown) => (isContextRuntimeError(error) ? error.code : String(error)),
    ),
  ),
);
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
await database.close();
