import { contentTerms } from './text-terms';

/**
 * "Besides vehicle-positions and shipment-events there is a third topic …", "other than X, which …":
 * the things named after the opener are what the answer is not. Counted like the asked words, they
 * lift the sentences about those two topics over any about the third (freight dev d93), and searched
 * for, they fetch the log lines naming them rather than the lines after (dev d63: "Besides
 * fct_deliveries and fct_on_time_rate, which other marts did dbt skip?").
 */
const EXCLUSION = /\b(?:besides|other than|apart from|aside from|except(?: for)?)\s+([^,;:?]+)/gi;
/** Where the excluded phrase ends when no comma closes it: the question's own clause starts. */
const CLAUSE_START = /\s(?:there|which|what|who|how|when|where|is|are|was|were|did|do|does|has|have|had|can|could|i|we|you|[a-z]+ed)\s/i;

/** What a question sets aside, with its opener: "fct_deliveries and fct_on_time_rate" in "Besides fct_deliveries and fct_on_time_rate". */
function setAsidePhrases(question: string): { readonly phrase: string; readonly clause: string }[] {
  return [...question.matchAll(EXCLUSION)]
    .map((match) => {
      const phrase = ` ${match[1]} `.split(CLAUSE_START)[0].trim();
      return { phrase, clause: match[0].slice(0, match[0].indexOf(phrase) + phrase.length) };
    })
    .filter(({ phrase }) => phrase.length > 0);
}

/** Content terms of the question's exclusion phrases that the rest of the question does not use. */
export function excludedTerms(question: string): ReadonlySet<string> {
  const excluded = new Set<string>();
  let rest = question;
  for (const { phrase } of setAsidePhrases(question)) {
    for (const term of contentTerms(phrase)) excluded.add(term);
    rest = rest.replace(phrase, ' ');
  }
  for (const term of contentTerms(rest)) excluded.delete(term);
  return excluded;
}

/** The question without what it sets aside, as a search asks it: "Besides X and Y, which other marts …" → "which other marts …". */
export function withoutSetAside(question: string): string {
  let rest = question;
  for (const { clause } of setAsidePhrases(question)) rest = rest.replace(clause, ' ');
  return rest.replace(/\s+/g, ' ').replace(/^[\s,;:]+/, '').trim();
}
