import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdown-parser';
import { countWords } from './word-token-counter';

const demo = (name: string) => readFileSync(new URL(`../../examples/demo-incident/docs/${name}`, import.meta.url), 'utf8');

describe('parseMarkdown', () => {
  it('splits a runbook by headings, titles chunks with the heading path and cites the section', () => {
    const chunks = parseMarkdown({ uri: 'docs/runbook-oomkilled-crashloopbackoff.md', content: demo('runbook-oomkilled-crashloopbackoff.md') }, { countTokens: countWords });
    const titles = chunks.map((chunk) => chunk.title);
    expect(titles).toContain('Runbook: OOMKilled and CrashLoopBackOff › Step 2: if the reason is OOMKilled');
    const step2 = chunks.find((chunk) => chunk.locator === '§ Step 2: if the reason is OOMKilled');
    expect(step2?.text).toContain('resources.limits.memory');
    expect(step2?.text.startsWith('## Step 2: if the reason is OOMKilled')).toBe(true);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual(chunks.map((_, index) => index));
    for (const chunk of chunks) {
      expect(chunk.tokens).toBe(countWords(chunk.text));
      expect(chunk.tokens).toBeLessThanOrEqual(400);
    }
  });

  it('keeps a fenced code block whole and does not read "#" inside it as a heading', () => {
    const intro = `Intro ${'word '.repeat(70).trim()}.`;
    const content = ['# Guide', '', intro, '', '```sh', '# not a heading', 'kubectl get pods', '```', '', '## Next', '', 'Body.'].join('\n');
    const chunks = parseMarkdown({ uri: 'guide.md', content }, { countTokens: countWords });
    expect(chunks.map((chunk) => chunk.locator)).toEqual(['§ Guide', '§ Next']);
    expect(chunks[0].text).toContain('```sh\n# not a heading\nkubectl get pods\n```');
    expect(chunks[1].title).toBe('Guide › Next');
  });

  it('opens the first section with a preamble too short to say anything alone, and keeps a longer or lone one', () => {
    const postmortem = ['# Postmortem: prints lost on 3 May', '', 'Status: final. Author: Ana Lima.', '', '## Summary', '', 'The spool disk of prn-01 filled up and spoolerd dropped jobs.', '', '## Cause', '', 'Rotation was off.'].join('\n');
    const chunks = parseMarkdown({ uri: 'pm.md', content: postmortem }, { countTokens: countWords });
    expect(chunks.map((chunk) => chunk.locator)).toEqual(['§ Summary', '§ Cause']);
    expect(chunks[0].text).toMatch(/^# Postmortem: prints lost on 3 May\n\nStatus: final\. Author: Ana Lima\.\n\n## Summary\n\nThe spool disk/);
    expect(chunks[0].metadata).toMatchObject({ lineStart: 1, lineEnd: 7 });
    const alone = parseMarkdown({ uri: 'note.md', content: '# Note\n\nJust a line.' }, { countTokens: countWords });
    expect(alone.map((chunk) => chunk.text)).toEqual(['# Note\n\nJust a line.']);
  });

  it('splits a long section into chunks under the limit, located by line range', () => {
    const paragraph = (index: number) => `Paragraph ${index} ` + 'word '.repeat(58).trim();
    const content = ['# Long', '', ...Array.from({ length: 12 }, (_, index) => [paragraph(index), '']).flat()].join('\n');
    const chunks = parseMarkdown({ uri: 'long.md', content }, { countTokens: countWords, targetTokens: 250, maxTokens: 400 });
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0].locator).toMatch(/^lines 1–\d+$/);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(400);
    expect(chunks.map((chunk) => chunk.text).join('\n\n')).toBe(content.trimEnd().replace(/\n\n$/, ''));
  });

  it('cuts a single giant line at word boundaries and never exceeds the hard limit', () => {
    const content = 'alpha '.repeat(1000).trim();
    const chunks = parseMarkdown({ uri: 'notes.txt', content }, { countTokens: countWords, maxTokens: 400 });
    expect(chunks.map((chunk) => chunk.tokens)).toEqual([400, 400, 200]);
    expect(chunks.every((chunk) => chunk.locator === 'line 1')).toBe(true);
    expect(chunks[0].title).toBe('notes');
  });

  it('takes the title from front matter and skips heading-only sections', () => {
    const content = ['---', 'title: "Payments FAQ"', '---', '# Payments', '## Refunds', '', 'Refunds take 5 days.'].join('\n');
    const chunks = parseMarkdown({ uri: 'faq.md', content }, { countTokens: countWords });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ title: 'Payments FAQ › Payments › Refunds', locator: '§ Refunds' });
    expect(chunks[0].metadata).toMatchObject({ lineStart: 5, lineEnd: 7 });
  });
});

describe('parseMarkdown and headings', () => {
  it('never leaves a heading alone in a chunk when its section starts with a list over the limit', () => {
    // A list just under the limit on its own: with its heading it is over, the case that left "## Timeline (UTC)" alone.
    const items = Array.from({ length: 26 }, (_, index) => `- item ${index} ` + 'word '.repeat(12).trim());
    while (countWords(items.join('\n')) < 399) items.push('- more');
    expect(countWords(items.join('\n'))).toBeLessThanOrEqual(400);
    const content = ['# Postmortem', '', 'Summary line.', '', '## Timeline (UTC)', '', ...items, '', '## Action items', '', 'Fix it.'].join('\n');
    const chunks = parseMarkdown({ uri: 'pm.md', content }, { countTokens: countWords, targetTokens: 250, maxTokens: 400 });
    for (const chunk of chunks) {
      expect(chunk.text.split('\n').every((line) => /^#{1,6}\s/.test(line))).toBe(false);
      expect(chunk.tokens).toBeLessThanOrEqual(400);
    }
    expect(chunks.find((chunk) => chunk.text.startsWith('## Timeline (UTC)'))?.text).toContain('- item 0 ');
  });
});
