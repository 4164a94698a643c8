/**
 * Whether a question asks what something read: an amount, a level, a count, a distance behind
 * ("How full was kafka-2's data disk …?", "How much memory was feature-redis using …?", "what was
 * the consumer lag …?"). Such a reading is recorded where run time is (metric rows, log lines), and
 * at a named instant it is the record stamped with that instant. Shared by the planner (which
 * sources to search) and the extractive reader (which sentence answers).
 */
const READING = /\bhow (?:full|much|many|high|low|far|big|large|old|long|deep|fast|slow|busy|hot)\b|\bwhat (?:was|were|is|did)\b[^?]*\b(?:value|level|lag|size|usage|rate|ratio|count|reading|percentage|latency|utili[sz]ation|load)\b/i;

export const asksReading = (question: string): boolean => READING.test(question);

/**
 * Whether a question asks for an extreme over a span of readings: "What was the highest reading?",
 * "when did it peak?", "was the disk ever close to its alert level?". No single row or log line
 * answers it; a summary of the whole series does ("highest 36.9% at …; threshold 85%").
 */
const EXTREME = /\b(?:highest|lowest|peak(?:ed|s)?|maximum|minimum|max|min|worst|ever (?:close|above|below|over|under|near|reach(?:ed)?|hit|exceed(?:ed)?|got|went))\b/i;

export const asksExtreme = (question: string): boolean => EXTREME.test(question);
