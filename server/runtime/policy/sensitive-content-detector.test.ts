import { describe, expect, it } from 'vitest';
import { containsSensitive, detectSensitive, redactSensitive } from './sensitive-content-detector';

const kinds = (text: string) => detectSensitive(text).map((match) => match.kind);

describe('detectSensitive', () => {
  it.each([
    ['email', 'mail jane.doe+ops@example.co.uk about it'],
    ['phone', 'call +1 415 555 0134 now'],
    ['phone', 'call (415) 555-0134 now'],
    ['phone', 'tel +44 20 7946 0958'],
    ['iban', 'pay to GB82 WEST 1234 5698 7654 32 today'],
    ['iban', 'IBAN DE89370400440532013000'],
    ['api_key', 'OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv'],
    ['api_key', 'token ghp_1234567890abcdefghijABCDEFGHIJ123456'],
    ['api_key', 'slack xoxb-1234567890-abcdefghij'],
    ['api_key', 'aws AKIAIOSFODNN7EXAMPLE key'],
    ['api_key', 'db_password: "q8Zr2Lx0Vn4Tb7Wk1Yp"'],
    ['private_key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----'],
    ['private_key', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC'],
    ['jwt', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['card_number', 'card 4111 1111 1111 1111 expired'],
    ['card_number', 'card 5500-0000-0000-0004'],
    ['card_number', 'amex 3782 822463 10005 on file'],
    ['card_number', 'mastercard 2221000000000009'],
    ['email', 'mail ops@tallybox.services today'],
    ['ssn', 'ssn 123-45-6789 on file'],
  ])('finds %s in %j', (kind, text) => {
    expect(kinds(text)).toEqual([kind]);
  });

  it.each([
    '2024-03-11T10:15:00Z checkout-api OOMKilled, exit code 137, limit 512Mi',
    'order 1234567812345678 shipped (fails Luhn)',
    'commit 3f1886a4b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7 by deploy bot',
    'pod 10.0.12.7 restarted 3 times; version 1.24.3',
    'token_count: 4096, password = changeme-changeme',
    'the api key rotation runbook: set API_KEY in the vault',
    'IBAN GB00 WEST 1234 5698 7654 32 (bad checksum)',
    'request id 550e8400-e29b-41d4-a716-446655440000',
    // Misfires found on the examples/ corpora (each passed Luhn, a phone shape or an email shape):
    'lastModifiedTime=1772730066000, largestRecordTimestamp=1772730065789) due to retention',
    'job=inv-20251130-009470 account=acc_2053424 period=2025-11',
    'topics/vehicle-positions/hour=16/vehicle-positions+3+0916438231.snappy.parquet',
    'bw-01 billing-worker@1.service: Main process exited, code=killed',
    'dsn: postgres://ledger_export@pg-billing-2.tallybox.internal:5432/billing',
  ])('leaves ordinary text alone: %j', (text) => {
    expect(detectSensitive(text)).toEqual([]);
  });

  it('stays linear on pathological input (no backtracking blow-up)', () => {
    const pathological = `${'a-'.repeat(250_000)}!${'E'.repeat(100_000)}${' "'.repeat(100_000)}${'1.'.repeat(100_000)}${'x@'.repeat(50_000)}`;
    const started = performance.now();
    detectSensitive(pathological);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reports spans in order and merges overlaps', () => {
    const text = 'a@b.io then 4111111111111111';
    const matches = detectSensitive(text);
    expect(matches.map((match) => text.slice(match.start, match.end))).toEqual(['a@b.io', '4111111111111111']);
  });
});

describe('redactSensitive', () => {
  it('replaces each span with its kind and keeps the rest', () => {
    expect(redactSensitive('mail ops@example.com, key AKIAIOSFODNN7EXAMPLE.')).toBe('mail [REDACTED email], key [REDACTED api_key].');
    expect(redactSensitive('db_password: "q8Zr2Lx0Vn4Tb7Wk1Yp"')).toBe('db_password: "[REDACTED api_key]"');
  });

  it('leaves text without sensitive spans unchanged', () => {
    expect(redactSensitive('nothing to see')).toBe('nothing to see');
    expect(containsSensitive('nothing to see')).toBe(false);
  });
});
