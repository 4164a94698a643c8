/**
 * The one-word noun a phrasal verb is written as in logs and runbooks: a question says "when kafka-3
 * was shut down", the broker logged "Controlled shutdown of broker 3"; "the sink fell back" is a
 * "fallback", "the call timed out" a "timeout". The english stemmer keeps "shut down" and "shutdown"
 * apart, so the asked words never met the logged one (freight dev d46). A question's phrasal verb adds
 * its joined noun as a search term; the spaced words stay terms too.
 */
const JOINED_NOUNS: ReadonlyMap<string, readonly string[]> = new Map([
  ['shutdown', ['shut', 'shuts', 'shutting']],
  ['failover', ['fail', 'fails', 'failed', 'failing']],
  ['rollback', ['roll', 'rolls', 'rolled', 'rolling']],
  ['rollout', ['roll', 'rolls', 'rolled', 'rolling']],
  ['fallback', ['fall', 'falls', 'fell', 'falling', 'fallen']],
  ['timeout', ['time', 'times', 'timed', 'timing']],
  ['cleanup', ['clean', 'cleans', 'cleaned', 'cleaning']],
  ['startup', ['start', 'starts', 'started', 'starting']],
  ['backup', ['back', 'backs', 'backed', 'backing']],
  ['setup', ['set', 'sets', 'setting']],
  ['lookup', ['look', 'looks', 'looked', 'looking']],
  ['teardown', ['tear', 'tears', 'tore', 'torn', 'tearing']],
  ['breakdown', ['break', 'breaks', 'broke', 'broken', 'breaking']],
]);

/** The particle each joined noun ends with: "shutdown" is "shut" + "down". */
const particleOf = (noun: string, verb: string): string => noun.slice(verb.length);

/** Verb form → the joined nouns it makes with the particle after it: "fell" + "back" → "fallback". */
const NOUN_OF_PAIR = new Map<string, string>();
for (const [noun, forms] of JOINED_NOUNS) {
  const particle = particleOf(noun, forms[0]);
  for (const form of forms) NOUN_OF_PAIR.set(`${form} ${particle}`, noun);
}

const WORD = /[a-z]+/g;

/** The joined nouns of the phrasal verbs in `text`, in order of appearance, each once. */
export function joinedNounsOf(text: string): string[] {
  const words = text.toLowerCase().match(WORD) ?? [];
  const nouns: string[] = [];
  for (let index = 0; index + 1 < words.length; index++) {
    const noun = NOUN_OF_PAIR.get(`${words[index]} ${words[index + 1]}`);
    if (noun !== undefined && !nouns.includes(noun)) nouns.push(noun);
  }
  return nouns;
}
