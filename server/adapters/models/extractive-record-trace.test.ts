import { describe, expect, it } from 'vitest';
import { asksForTrace } from './extractive-record-trace';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

const SPOOLER_LOG = [
  '[2026-05-07 09:00:41,255] INFO [spoolerd|worker-1] Printer prn-03 disconnected. (acme.spool.PrinterLink:977)',
  '[2026-05-07 09:00:42,231] WARN [spoolerd|worker-1] Error sending job 8812 to printer prn-03: (acme.spool.JobSender:583)',
  'acme.spool.errors.PrinterGoneException: null',
  '[2026-05-07 09:00:47,142] WARN [spoolerd|worker-1] Connection to printer prn-03 (prn-03.acme.internal/10.20.4.13:9100) could not be established. (acme.spool.PrinterLink:869)',
  '[2026-05-07 09:14:20,337] INFO [spoolerd|worker-1] Printer prn-03 is back, jobs resumed (acme.spool.JobSender:412)',
].join('\n');

describe('a quoted log record brings the trace written under it when the question asks for an exception or a call', () => {
  it('reads which questions ask for a trace', () => {
    expect(asksForTrace('Which exception did worker-1 log when the job failed?')).toBe(true);
    expect(asksForTrace('In which class and source line was it called?')).toBe(true);
    expect(asksForTrace('When did the job fail?')).toBe(false);
  });

  it('quotes the exception line after the record that logged it (fresh f304)', () => {
    const question = 'During the prn-03 maintenance on 7 May 2026, which exception did worker-1 of spoolerd log when sending job 8812 to printer prn-03 failed?';
    const text = answerFromContext(question, [
      contextItem(1, 'spoolerd.log', 'ops-logs', SPOOLER_LOG, 'spoolerd.log'),
      contextItem(2, 'Spooler runbook', 'ops-docs', 'The spooler keeps jobs for two days. A stopped spooler loses nothing while the queue still holds the jobs.'),
      contextItem(3, 'On-call handbook', 'ops-docs', 'The depot team owns the gateway. Page the spooler rotation for queue problems.'),
    ]);
    expect(text).toContain('Error sending job 8812');
    expect(text).toContain('PrinterGoneException');
  });

  it('quotes the line stating the request id asked for, at the foot of a trace under twenty frames (fresh f374)', () => {
    const frames = Array.from({ length: 14 }, (_, index) => `\tat acme.spool.JobSender.step${index}(JobSender.java:${100 + index})`);
    const log = (worker: string, id: string) => [
      `[2026-05-06 16:53:02,170] WARN [spoolerd|${worker}] Failed to upload label 8812 to bucket acme-labels: Access Denied (acme.spool.Upload:142)`,
      `[2026-05-06 16:53:02,185] ERROR [spoolerd|${worker}] Worker is being killed and will not recover until restarted. Error: Unable to upload (acme.spool.Worker:633)`,
      'acme.spool.errors.UploadException: Unable to upload',
      ...frames,
      `Caused by: com.amazonaws.services.s3.model.AmazonS3Exception: Access Denied (Service: Amazon S3; Status Code: 403; Error Code: AccessDenied; Request ID: ${id}; Proxy: null)`,
    ].join('\n');
    const text = answerFromContext('the bucket team wants the S3 request ids of the denied uploads from 6 may - what did worker-0 and worker-3 of the label spooler get back?', [
      contextItem(1, 'spoolerd.log lines 40–60', 'ops-logs', log('worker-0', '3DHVGHPPZMK8D9V1')),
      contextItem(2, 'spoolerd.log lines 70–90', 'ops-logs', log('worker-3', 'CH5QKS2XQ5XSVCC8')),
      contextItem(3, 'Spooler runbook › Uploads', 'ops-docs', 'A denied upload kills the worker; give the bucket team the request id of the denied upload.'),
    ]);
    expect(text).toContain('3DHVGHPPZMK8D9V1');
    expect(text).toContain('CH5QKS2XQ5XSVCC8');
  });
});
