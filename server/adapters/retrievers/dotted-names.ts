/**
 * The corpus's dotted names, found by the parts a question names them by. PostgreSQL's english
 * parser reads a dotted name as one host token: `consumer.override.auto.offset.reset` indexes as
 * itself alone, not as its parts. A question asking about "auto.offset.reset" never meets that token,
 * and the config stating the fact ranks below every page repeating the other words (freight fresh
 * f185). Indexing the parts as well moved every other ranking (bench/answers/RESULTS.md, session 65);
 * adding the corpus's full name to the one query naming its tail moves only that query.
 */

/** A dotted name as written: a letter first, two or more segments, no trailing dot. */
export const DOTTED_NAME_PATTERN = '[A-Za-z][A-Za-z0-9_-]*(?:[.][A-Za-z0-9_-]*[A-Za-z0-9])+';

/** Names a query may gain: a tail shared by many names (`…internals.ConsumerCoordinator`) is no pointer to one. */
const MAX_NAMES_PER_TAIL = 3;
const MAX_NAMES_PER_QUERY = 6;

const QUERY_TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}])?/gu;

/** What a search may match a dotted name by besides its tails of two or more segments. */
export interface DottedNameMatch {
  /**
   * Its last segment, as a word of the query (`converters` → `key.converter`, `value.converter`): only
   * for a search of configuration keys (a setting lookup), where a dotted name is a key the question
   * names by its noun (freight fresh f211). In any search it drew, for `fct_deliveries` in a how-to
   * question, the log lines naming `marts.fct_deliveries` over the runbook explaining its rebuild (dev d54).
   */
  readonly lastSegment?: boolean;
}

/**
 * The names indexed by the tails a query can name them by: every tail of two or more segments
 * (`offset.reset`, `auto.offset.reset`), which a question may also write as spaced words, and apart
 * from them the last segment (DottedNameMatch).
 */
export class DottedNameIndex {
  private readonly byTail = new Map<string, string[]>();
  private readonly byLastSegment = new Map<string, string[]>();

  constructor(names: Iterable<string>) {
    const index = (map: Map<string, string[]>, key: string, name: string) => {
      const names = map.get(key);
      if (names) names.push(name);
      else map.set(key, [name]);
    };
    for (const name of new Set([...names].map((found) => found.toLowerCase()))) {
      const segments = name.split('.');
      for (let start = 1; start + 1 < segments.length; start++) index(this.byTail, segments.slice(start).join('.'), name);
      const last = segments[segments.length - 1];
      if (/^[a-z]{4,}$/.test(last)) index(this.byLastSegment, last, name);
    }
  }

  /** The corpus names whose tail the text or an identifier names, each once; none when a tail is too common to point at one. */
  namesFor(text: string, identifiers: readonly string[] = [], match: DottedNameMatch = {}): string[] {
    const found: string[] = [];
    const add = (key: string, map = this.byTail) => {
      const names = map.get(key);
      if (!names || names.length > MAX_NAMES_PER_TAIL) return;
      for (const name of names) if (name !== key && !found.includes(name) && found.length < MAX_NAMES_PER_QUERY) found.push(name);
    };
    const tokens = [...`${text} ${identifiers.join(' ')}`.toLowerCase().matchAll(QUERY_TOKEN)].map((match) => match[0]);
    for (const token of tokens) if (token.includes('.')) add(token);
    // Spaced words: "auto offset reset" names `auto.offset.reset`; two words at least.
    const words = tokens.filter((token) => /^[\p{L}\p{N}_-]+$/u.test(token));
    for (let start = 0; start < words.length; start++) {
      for (let end = start + 2; end <= Math.min(words.length, start + 6); end++) add(words.slice(start, end).join('.'));
    }
    if (match.lastSegment) for (const word of words) for (const form of new Set([word, word.replace(/s$/, '')])) add(form, this.byLastSegment);
    return found;
  }
}
