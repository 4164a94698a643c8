/**
 * The runtime's one stopword list. Retrieval ranks with PostgreSQL's `english` configuration, whose
 * stopwords come from Snowball's english.stop; citation quoting, the reader, the planner and the plan
 * cache drop the same words so what they match agrees with what bm25 indexed. Every other list
 * below is this one plus a named addition, never a separate list.
 */

/** PostgreSQL's tsearch_data/english.stop, word for word (english-stopwords.test.ts checks it against PGlite). */
export const POSTGRES_ENGLISH_STOPWORDS: readonly string[] = (
  'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
  'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
  'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
  'about against between into through during before after above below to from up down in out on off over under again ' +
  'further then once here there when where why how all any both each few more most other some such no nor not only ' +
  'own same so than too very s t can will just don should now'
).split(' ');

/**
 * Kept as words although PostgreSQL drops them: "went down", "is it up" are what an incident is about;
 * "s" and "t" are on its list only because its parser splits "it's" and "don't", which our tokenizers
 * keep whole, while names carry them as letters ("T cells", "S phase": as stopwords SciFact's graph
 * lost 0.5186 → 0.5164 nDCG@10, measured).
 */
export const KEPT_WORDS: ReadonlySet<string> = new Set(['down', 'up', 's', 't']);

/**
 * Modal verbs Snowball's list lacks although it has their siblings (can, will, should), and the
 * contractions our tokenizers keep whole where PostgreSQL's parser splits them into listed parts
 * ("don't" → "don" + "t").
 */
export const MODAL_VERBS_AND_CONTRACTIONS: readonly string[] = (
  "could would shall may might must there's it's what's who's don't didn't doesn't isn't wasn't"
).split(' ');

/**
 * Function words Snowball's list lacks although it has their siblings ("whose" beside who/whom, "also"
 * beside too). Every list the runtime had before this one dropped them, and as content they cost
 * retrieval: "also" is among the commonest words of encyclopaedic text, so it entered rm3's
 * expansion terms, and "whose" opens many multi-hop questions (see bench/retrieval/RESULTS.md).
 */
export const UNLISTED_FUNCTION_WORDS: readonly string[] = ['also', 'whose'];

/** Stopwords for text at large: PostgreSQL's list without the kept words, plus modal verbs, contractions and unlisted function words. */
export const STOPWORDS: ReadonlySet<string> = new Set([
  ...POSTGRES_ENGLISH_STOPWORDS.filter((word) => !KEPT_WORDS.has(word)),
  ...MODAL_VERBS_AND_CONTRACTIONS,
  ...UNLISTED_FUNCTION_WORDS,
]);

/**
 * Words a person uses to ask ("please tell me", "can you show", "let me know"), which say nothing
 * about what is asked. Not in STOPWORDS: in documents "shows", "found", "known" are content.
 */
export const REQUEST_WORDS: readonly string[] = 'please tell show explain give find know let get got'.split(' ');

/** For reading a request or question: STOPWORDS plus REQUEST_WORDS. */
export const REQUEST_STOPWORDS: ReadonlySet<string> = new Set([...STOPWORDS, ...REQUEST_WORDS]);

/**
 * Connectives PostgreSQL drops that the extractive reader reads as evidence of cause and sequence
 * ("OOMKilled after the limit was lowered", "because the pool was exhausted"): dropping them in
 * matching cost the answers bench a key fact and lost the reader its cause cue, measured.
 */
export const CONNECTIVES: readonly string[] = 'because after before until while during through between against above below'.split(' ');

/** For matching a question against context (citations, reader): REQUEST_STOPWORDS less the CONNECTIVES. */
export const MATCHING_STOPWORDS: ReadonlySet<string> = new Set([...REQUEST_STOPWORDS].filter((word) => !CONNECTIVES.includes(word)));
