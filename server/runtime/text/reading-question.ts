/**
 * Whether a question asks what something read: an amount, a level, a count, a distance behind
 * ("How full was kafka-2's data disk …?", "How much memory was feature-redis using …?", "what was
 * the consumer lag …?", "what was the highest share of static ETAs …?", fresh f167), or how it stood against
 * its threshold ("was the sink still above the ConnectSinkLagHigh threshold at 12:00?", fresh f229). Such a reading is recorded where run time is (metric rows, log lines), and
 * at a named instant it is the record stamped with that instant. Shared by the planner (which
 * sources to search) and the extractive reader (which sentence answers).
 */
const READING = /\bhow (?:full|much|many|high|low|far|big|large|old|stale|late|delayed|long|deep|fast|slow|busy|hot)\b|\bwhat (?:was|were|is|did)\b[^?]*\b(?:value|level|lag|size|usage|rate|ratio|share|fraction|proportion|count|reading|percentage|latency|utili[sz]ation|load)\b|^\s*(?:is|was|were|are)\b[^?]*\b(?:above|below|over|under)\b[^?]*\b(?:threshold|limit)\b/i;

export const asksReading = (question: string): boolean => READING.test(question);

/**
 * Whether a question asks for an extreme over a span of readings: "What was the highest reading?",
 * "when did it peak?", "was the disk ever close to its alert level?". No single row or log line
 * answers it; a summary of the whole series does ("highest 36.9% at …; threshold 85%").
 */
const EXTREME = /\b(?:highest|lowest|peak(?:ed|s)?|maximum|minimum|max|min|worst|ever (?:close|above|below|over|under|near|reach(?:ed)?|hit|exceed(?:ed)?|got|went))\b/i;

/**
 * "How stale did fct_on_time_rate get on 24 March?", "how high did the lag go?": the extreme the
 * readings reached, asked without the word "highest" (freight fresh f24 quoted a commit instead of the
 * series' "highest 32.5 h").
 */
// The verb right after a short subject that is a thing, not the asker ("how quickly do I get paged?") nor an
// infinitive ("how long does it take to get …"): "how full did monitoring show it … just before the sink
// failed" asks for one reading.
const REACHED = /\bhow (\w+) (?:did|does|do|would|could|can) (?!(?:i|we|you)\b)(?:(?!to\b)[\w'-]+ ){1,4}?(?:get|go|climb|rise|grow|reach|become|fall|drop)\b/i;
const LOW_EXTREME = /\b(?:lowest|minimum|min)\b/i;
/** Adjectives whose extreme is the lowest reading ("how low did it go", "how few were left"). */
const DOWNWARD = new Set(['low', 'little', 'few', 'small', 'short', 'cold', 'slow']);

/** Which extreme a question asks for, or undefined when it asks for none. */
export function askedExtreme(question: string): 'highest' | 'lowest' | undefined {
  const reached = REACHED.exec(question);
  if (reached) return DOWNWARD.has(reached[1].toLowerCase()) ? 'lowest' : 'highest';
  if (!EXTREME.test(question)) return undefined;
  return LOW_EXTREME.test(question) ? 'lowest' : 'highest';
}

export const asksExtreme = (question: string): boolean => askedExtreme(question) !== undefined;
