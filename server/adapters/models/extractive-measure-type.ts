import { statedMoments } from '../../runtime/text/moment-terms';
import { asksWhetherSwitchedOn } from '../../runtime/planner/setting-question';

/**
 * The expected answer type of a measure question: "What average speed does it assume?" asks for a
 * speed, "How long may it wait …?" for a duration, "How much memory …?" for a size (the NUM:speed,
 * NUM:period and NUM:size classes of Li & Roth 2002). A sentence has the type when it states a
 * number in a unit of that dimension ("distance / 60 km/h", "ttl 3 days", "maxmemory 16gb") or sets
 * a key that names the unit ("FEATURE_FETCH_TIMEOUT_MS: 40", "ttl=timedelta(days=3)"). A sentence
 * that repeats the question's words without one ("average speed over 15 and 60 minutes" is a
 * feature's name) cannot say how fast.
 */
export type Measure = 'speed' | 'duration' | 'interval' | 'size' | 'clock' | 'share' | 'moment' | 'version' | 'address' | 'frequency' | 'switch';

const MEASURE_QUESTIONS: readonly (readonly [Measure, RegExp])[] = [
  ['speed', /\b(?:how fast|what (?:\w+ )?speed)\b/i],
  // "How often does Kafka roll a new log segment?" asks for a rate or a period ("every hour", `segment.ms:
  // 3600000`), which a log line recording one roll, in the question's words, does not state (fresh f64).
  // In the past ("how often did it fail?") it counts events.
  ['frequency', /\bhow (?:often|frequently) (?:does|do|is|are|will|would|should)\b/i],
  // "How long after it was merged did the change go live?" asks for the time between two moments: the
  // lines stamped with each answer it as well as a stated duration (freight dev d58: "config changed
  // at 11:13:02" kept a quarter of its score as a sentence stating no duration).
  ['interval', /\bhow long (?:after|before)\b/i],
  // "How long is the topic name?" asks for a length; one that waits, lives, takes or keeps asks for time.
  // "How stale did the table get?", "how late was the load?": an age or a delay, stated in hours ("32.5 h").
  ['duration', /\b(?:how long\b(?! is the)|how (?:stale|old|late|overdue)\b|how much time|what (?:\w+ )?(?:timeout|ttl|retention|duration|delay|interval)\b)/i],
  ['size', /\b(?:how (?:big|large)|how much (?:memory|disk|space|storage|ram)|what (?:\w+ )?(?:size|capacity))\b/i],
  // "What time did the last retry fail?" asks for a moment on the clock: a line stamped 04:04:54 states one, a runbook step does not.
  // "How full was the disk?" asks for a share of a capacity: "87 %", a row "value: 36.9, unit: %".
  ['share', /\b(?:how full|what (?:share|percentage|percent|fraction|proportion))\b/i],
  // "Which build of the service was running?", "what image version": a release is named by its version
  // ("3.4.2", "tag: 3.4.2"), which a sentence using the word "build" ("runs dbt build") does not state.
  ['version', /\b(?:which|what) (?:[\w.-]+ )?(?:build|release|version|image tag)s?\b(?! (?:step|job|time|system|tool))|\bimage (?:version|tag)\b/i],
  // "What's the host and port of our schema registry?", "which URL …": an address ("registry.example.internal:8081",
  // "http://…"), which the sentences repeating the service's name do not state (freight fresh f87).
  ['address', /\b(?:what(?:'s|\s+is|\s+are)?|which|is there (?:an?|one|a single))\s+(?:(?:the|its|our|their)\s+)?(?:[\w.-]+\s+)?(?:host(?:name)?s?|ports?|urls?|endpoints?|address(?:es)?)\b/i],
  ['clock', /\b(?:what|which) (?:time|hour|minute)\b(?! (?:zone|window|budget|limit|frame|range|span))/i],
  // "When was it merged?" asks for a moment: a day or a clock time. A frame ("When kafka-3 was shut
  // down, how many …") has no verb right after "when" and asks for none.
  ['moment', /\bwhen (?:was|were|did|does|do|is|has|had)\b/i],
];

const NUMBER = String.raw`\d+(?:[.,]\d+)?`;
/** A count in words, as prose writes a duration ("applied within about ten minutes", "in an hour"). */
const NUMBER_WORDS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|forty-five|sixty|ninety|a few|a couple of|several';
/**
 * A day: one statedMoments reads ("2026-04-14", "14 April", "Apr 14"), or a weekday ("on Monday"),
 * which names a day of the week the question is about without a date.
 */
const WEEKDAY = /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/i;
const statesDay = (text: string) => WEEKDAY.test(text) || statedMoments(text).size > 0;
/** A number with a unit of the dimension, written apart or together ("60 km/h", "16gb", "3 days", "40ms"). */
const STATED: Readonly<Record<Exclude<Measure, 'interval' | 'moment'>, RegExp>> = {
  speed: new RegExp(String.raw`\b${NUMBER}\s*(?:km\/h|kmh|kph|mph|m\/s|knots?)\b`, 'i'),
  duration: new RegExp(String.raw`\b${NUMBER}\s*(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|d|days?|weeks?|months?)\b|\b(?:days|hours|minutes|seconds|weeks)\s*=\s*${NUMBER}|\b(?:${NUMBER_WORDS}|an?)\s+(?:(?:full|whole|entire|complete)\s+)?(?:milliseconds?|seconds?|minutes?|hours?|days?|weeks?|months?)\b`, 'i'),
  size: new RegExp(String.raw`\b${NUMBER}\s*(?:[kmgtp]i?b|bytes?|[kmgt]b?ytes?)\b`, 'i'),
  // "04:04", inside a stamp too ("2026-03-24T04:04:54"), or "4 pm"; not a ratio like "3:1" nor a port ("host:8080").
  share: new RegExp(String.raw`\b${NUMBER}\s*(?:%|percent\b|per cent\b)`, 'i'),
  clock: /(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?!\d)|\b(?:1[0-2]|0?[1-9]) ?[ap]\.?m\b|\b(?:noon|midnight)\b/i,
  // "3.4.2", "v2.11.0", "feast-runner:0.38.1": three parts, so "Kafka 3.7" or a figure like "36.9" is not one.
  // A product token names its version in two ("connect-deployer/2.3", as a User-Agent header does; RFC 9110 §10.1.5).
  version: /(?<![\d.])v?\d+\.\d+\.\d+(?:[-+][\w.]+)?(?![\d.])|\b(?!https?\/)[a-z][\w-]*[a-z]\/v?\d+(?:\.\d+)+\b/i,
  frequency: new RegExp(String.raw`\bevery\s+(?:${NUMBER}\s*|(?:${NUMBER_WORDS}|other)\s+)?(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|night|morning|run)\b|\b(?:hourly|daily|nightly|weekly|monthly)\b|\b(?:${NUMBER}|${NUMBER_WORDS})\s+times\s+(?:a|an|per)\s+\w+|\bonce\s+(?:a|an|per|every)\b|\bper\s+(?:second|minute|hour|day)\b`, 'i'),
  // A key set on or off: "enabled: false", "appendonly no" (a config file's key and value).
  switch: /[:=]\s*["']?(?:true|false|yes|no|on|off|enabled|disabled)\b["']?\s*,?\s*(?:#.*)?$|(?:^|[:›]\s*)[a-z][\w.-]*\s+(?:yes|no)\s*$/im,
  // "registry.example.internal:8081", "http://10.0.0.5/status", a host of three or more labels ("kafka-1.example.internal"),
  // an IPv4 address ("bind 0.0.0.0", "10.0.0.0/16"; fresh f333), not a version's three parts.
  address: /\b[a-z][\w-]*(?:\.[\w-]+)+:\d{2,5}\b|\bhttps?:\/\/\S+|\b[a-z][\w-]*(?:\.[a-z][\w-]*){2,}\b|(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])/i,
};
/** A key naming the unit or the measured thing, set to a number: "FEATURE_FETCH_TIMEOUT_MS: "40"", "retention.ms=259200000". */
const KEYED: Readonly<Record<Exclude<Measure, 'interval' | 'moment'>, RegExp>> = {
  speed: new RegExp(String.raw`\b[\w.-]*(?:speed|kmh|kph|mph)[\w.-]*\s*[:=]\s*["']?${NUMBER}`, 'i'),
  // An alert rule's `for: 10m`: how long its condition must hold (Prometheus durations).
  duration: new RegExp(String.raw`\b[\w.-]*(?:_ms|\.ms|_seconds|_secs|_minutes|_hours|timeout|ttl|retention|interval|delay)[\w.-]*\s*[:=]\s*["']?${NUMBER}|\bfor:\s*["']?\d+[smhd]\b`, 'i'),
  size: new RegExp(String.raw`\b[\w.-]*(?:bytes|_mb|_gb|memory|size)[\w.-]*\s*[:=]\s*["']?${NUMBER}`, 'i'),
  share: new RegExp(String.raw`\b[\w.-]*(?:pct|percent|ratio)[\w.-]*\s*[:=]\s*["']?${NUMBER}`, 'i'),
  clock: /\b[\w.-]*(?:_at|_time|start_date|end_date)\s*[:=]\s*["']?\d{4}-?\d{2}-?\d{2}[t ]?\d{2}:?\d{2}/i,
  version: /\b[\w.-]*(?:tag|version)\s*[:=]\s*["']?v?\d+(?:\.\d+)+/i,
  address: /\b[\w.-]*(?:url|host|endpoint|address|port)[\w.-]*\s*[:=]\s*["']?[\w/.:-]+/i,
  // A period a key sets ("segment.ms: 3600000", "rotate.interval.ms") or a cron schedule ("schedule="5 * * * *"").
  switch: /[:=]\s*["']?(?:true|false|yes|no|on|off|enabled|disabled)\b/i,
  frequency: new RegExp(String.raw`\b[\w.-]*(?:_ms|\.ms|_seconds|_minutes|_hours|interval|period|frequency)[\w.-]*\s*[:=]\s*["']?${NUMBER}|\b[\w.-]*(?:schedule|cron)[\w.-]*\s*[:=]\s*["']?[\d*@]`, 'i'),
};

/** The measure a question asks for, or undefined. */
export function askedMeasure(question: string): Measure | undefined {
  // "Is append-only persistence turned on?": a setting's on/off value (`appendonly no`, `hpa: enabled: false`; fresh f96, f97).
  const measure = MEASURE_QUESTIONS.find(([, pattern]) => pattern.test(question))?.[0] ?? (asksWhetherSwitchedOn(question) ? 'switch' : undefined);
  // A question that names the day asks for the time on it: "On 14 April, when was the change scaling
  // eta-api merged?" was answered by a commit's "on 14 April … 6 replicas changed nothing", which
  // repeats the day and the words and states no time (freight dev d76).
  return measure === 'moment' && statesDay(question) ? 'clock' : measure;
}

/** A table row whose value and unit are columns of their own: "…, value: 6020000000, unit: bytes, …" (extractive-block-parser's rows). */
const ROW_VALUE = new RegExp(String.raw`\bvalue:\s*(${NUMBER}),\s*unit:\s*([^,\s]+)`, 'i');

/** Whether `text` states a quantity of the measure. */
export function statesMeasure(text: string, measure: Measure): boolean {
  if (measure === 'interval') return statesMeasure(text, 'duration') || statesMeasure(text, 'clock');
  if (measure === 'moment') return statesMeasure(text, 'clock') || statesDay(text);
  const row = ROW_VALUE.exec(text);
  return STATED[measure].test(text) || KEYED[measure].test(text) || (row !== null && STATED[measure].test(`${row[1]} ${row[2]}`));
}
