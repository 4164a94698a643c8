/**
 * Which scored sentences an extractive answer quotes: greedy by score, further sentences of a quoted
 * item discounted, repeats left out, and what a question asks for by its shape (an asked setting, an
 * item named by id, each part of a compound question) owed its place. Scoring is extractive-reader.ts.
 */
import { stem } from '../../runtime/text/text-terms';
import { statesCount, statesImport } from './extractive-answer-type';
import { type QuestionPart, STATES_ORDER } from './extractive-question-parts';
import type { ScoredUnit } from './extractive-quoted-subjects';
import { jaccard } from './extractive-term-statistics';
import { LEADING_TIMESTAMP, type Unit } from './extractive-units';

/** Sentences scoring under this share of the best one are not evidence, only noise that shares a word. */
const RELATIVE_THRESHOLD = 0.3;
/** A sentence that opens with the case it applies to: "If a committed offset is below …, open an incident". */
const CONDITION_OPENER = /^(?:if|when|once|in case|should)\b/i;
/**
 * A sentence from an item not quoted yet must reach this share of the best score: a weak sentence
 * of another item that shares a question word ("kept" in a runbook about sessions) adds a citation
 * but no answer. It may stay lower when it names an identifier a quoted sentence names (supports it).
 */
const NEW_ITEM_THRESHOLD = 0.5;
/** At most this many sentences: enough for symptom, change and cause without flooding the answer. */
export const MAX_SENTENCES = 4;
/**
 * A setting keyed as the behaviour a question describes (extractive-answer-type.ts: behaviourSettingKeys,
 * timesDoneSettingKeys), stating a value of the asked kind, is its answer, quoted before anything else
 * scores: "how long does it wait between them?" is `"retry_delay": timedelta(minutes=10)`, "how many
 * times does Airflow retry it?" `"retries": 2`, "How long may eta-api wait on feature-redis …?"
 * `FEATURE_FETCH_TIMEOUT_MS: "40"`. Such a key shares no word with the question, so the words a
 * runbook's sentences share with it put the key below the bar for a second item (freight dev d35,
 * d106, fresh f03). A setting the question names ("what is the memory limit") scores by those words.
 */
const ASKED_VALUES_FIRST = 2;
/**
 * The share of the floor a sentence stating a count part's count needs: "Kestrel Freight runs about
 * 4,200 trucks" shares one word of the question and scored a quarter of the ping sentence answering
 * its other part (freight fresh f205).
 */
const COUNT_PART_FLOOR_SHARE = 0.5;
/**
 * A question that names an item by its id ("What did commit 744c0b5 change?") is answered by that
 * item's own lines — every changed key, not its best one plus fillers from other items — up to
 * this many sentences in all.
 */
const MAX_NAMED_ITEM_SENTENCES = 6;
/** A key set to a list of two or more: `entities=[driver, route_segment]`, `"topics": ["a", "b"]`. */
const LISTED_VALUE = /([A-Za-z][\w-]*)"?\s*[:=]\s*\[[^\],]+,[^\]]*\]/g;
/** A second sentence from an item already quoted is worth this much of its score per sentence quoted (redundancy, MMR-style). */
const SAME_ITEM_DISCOUNT = 0.8;
/** The share of the weight of a part's own words its best sentence holds that a quoted sentence must hold to speak to the part. */
const PART_WEIGHT_SHARE = 0.75;
/** Two log lines sharing this share of terms are the same event on another pod: cite it once. */
const DUPLICATE_JACCARD = 0.7;

const sameMoments = (left: Unit, right: Unit) => left.moments.size === right.moments.size && [...left.moments].every((moment) => right.moments.has(moment));

export interface DiversePick {
  /** Refs of the items whose header carries an id the question names: other items are held to the new-item bar. */
  readonly named: ReadonlySet<number>;
  /** Whether a weak sentence of another item still supports what is quoted (it names an identifier a quoted sentence names). */
  readonly supports: (candidate: Unit, quoted: readonly Unit[]) => boolean;
  /** A how-to question: the steps of one procedure are not discounted against each other. */
  readonly procedural: boolean;
  /** The parts of a compound question, each owed its best sentence. */
  readonly parts: readonly QuestionPart[];
  /** Two stamped log lines of one template in different minutes are two readings, not a repeat. */
  readonly stampedLinesAreReadings: boolean;
  /** Settings keyed as the question asks, stating a value of the asked kind: quoted first. */
  readonly askedValues: ReadonlySet<Unit>;
  /** The identifiers the question names ("task-1"): a line naming one is no repeat of a line that does not. */
  readonly askedIds: readonly string[];
  /** How much a term says (its IDF in this context): a part is spoken to by its rare words, not by "change" or "merged". */
  readonly termWeight: (term: string) => number;
}

export function pickDiverse(scored: readonly ScoredUnit[], { named, supports, procedural, parts, stampedLinesAreReadings, askedValues, askedIds, termWeight }: DiversePick): ScoredUnit[] {
  const ranked = [...scored].sort((left, right) => right.score - left.score || left.unit.order - right.unit.order);
  if (ranked.length === 0 || ranked[0].score <= 0) return [];
  const floor = ranked[0].score * RELATIVE_THRESHOLD;
  const chosen: ScoredUnit[] = [];
  // Two steps sharing most words are still two instructions ("clear one day" vs "backfill several"): only their text repeats.
  // Two rows of one series stamped at different moments are two readings, not one repeated (freight dev
  // d60: the 18:00 reading asked for was dropped as a repeat of the 12:00 one, its words all alike).
  const sameText = (left: Unit, right: Unit) => {
    if (left.role === 'step' && right.role === 'step') return left.text === right.text;
    // Two keys of one block share most of their words and set two things (`"retry_delay": …` and `"retries": 2`, fresh f03).
    if (left.role === 'setting' && right.role === 'setting') return left.text === right.text;
    if (left.role === 'row' && right.role === 'row' && !sameMoments(left, right)) return false;
    // So are two log lines of one template stamped in different minutes, unless a why-question asks:
    // there the repeat of a failure explains nothing new. "How many keys had it evicted in total by the
    // time it picked up its new settings?" is answered by the later health line, and it was dropped as a
    // repeat of the morning's, scored higher by one place of rank (freight dev d77).
    if (stampedLinesAreReadings && LEADING_TIMESTAMP.test(left.text) && LEADING_TIMESTAMP.test(right.text) && !sameMoments(left, right)) return false;
    // Nor is the line of the task the question names a repeat of another task's ("when did task-1 die?"; fresh f343).
    if (askedIds.some((id) => left.tokens.has(id) !== right.tokens.has(id))) return false;
    return jaccard(left.shape, right.shape) >= DUPLICATE_JACCARD;
  };
  const isDuplicate = (candidate: ScoredUnit) => chosen.some((picked) => sameText(candidate.unit, picked.unit));
  const newItemFloor = ranked[0].score * NEW_ITEM_THRESHOLD;
  for (const entry of ranked) {
    if (chosen.length >= ASKED_VALUES_FIRST) break;
    // Values the question asks for by their kind are chosen one by one: two request ids in lines of one template are two answers.
    if (askedValues.has(entry.unit) && !chosen.some((picked) => picked.unit.text === entry.unit.text)) chosen.push(entry);
  }
  // Greedy by score, each further sentence of an already quoted item discounted: the second rule of a
  // runbook section beats a weak sentence of another item, while strong items of other sources still
  // come in, so the answer rests on several items when several answer it.
  while (chosen.length < MAX_SENTENCES) {
    let best: { candidate: ScoredUnit; value: number } | undefined;
    for (const candidate of ranked) {
      if (chosen.includes(candidate) || isDuplicate(candidate)) continue;
      const quoted = chosen.filter((picked) => picked.unit.ref === candidate.unit.ref).length;
      // The steps of one procedure are not redundant with each other: a how-to answer is that section's steps.
      const value = procedural && candidate.unit.role === 'step' ? candidate.score : candidate.score * SAME_ITEM_DISCOUNT ** quoted;
      // An item the question does not name, when it names one ("What did commit 744c0b5 change?"), is held to the same bar.
      const weak = value < newItemFloor || (named.size > 0 && !named.has(candidate.unit.ref));
      if (value < floor || (quoted === 0 && weak && !supports(candidate.unit, chosen.map((picked) => picked.unit)))) continue;
      if (!best || value > best.value) best = { candidate, value };
    }
    if (!best) break;
    chosen.push(best.candidate);
  }
  // Last, the rest of an item the question names by id.
  for (const candidate of ranked) {
    if (chosen.length >= MAX_NAMED_ITEM_SENTENCES || candidate.score < floor) break;
    if (!named.has(candidate.unit.ref) || chosen.includes(candidate) || isDuplicate(candidate)) continue;
    chosen.push(candidate);
  }
  // Then each part of a compound question that no quoted sentence speaks to: its best sentence (extractive-question-parts.ts).
  const holds = (entry: ScoredUnit, terms: ReadonlySet<string>) => [...terms].some((term) => entry.unit.termSet.has(term));
  for (const part of parts) {
    if (part.asksConditionalStep) {
      // The instruction written right after a quoted sentence: a runbook states the check, then what to do on its outcome.
      let step: { candidate: ScoredUnit; distance: number } | undefined;
      for (const candidate of ranked) {
        if (!CONDITION_OPENER.test(candidate.unit.text) || chosen.includes(candidate) || isDuplicate(candidate)) continue;
        for (const picked of chosen) {
          const distance = candidate.unit.order - picked.unit.order;
          if (picked.unit.ref === candidate.unit.ref && distance > 0 && (!step || distance < step.distance)) step = { candidate, distance };
        }
      }
      if (step) chosen.push(step.candidate);
      continue;
    }
    // A part answered by a sentence of a form (a count, a reading at an instant, an import) that may share few of the
    // question's words: when no quoted sentence has that form, the best one that has it, from half the floor.
    const typed = (form: (entry: ScoredUnit) => boolean) => {
      const found = chosen.some(form) ? undefined : ranked.find((candidate) => candidate.score >= floor * COUNT_PART_FLOOR_SHARE && form(candidate) && !isDuplicate(candidate));
      if (found) chosen.push(found);
    };
    if (part.counted) {
      typed((entry) => statesCount(entry.unit.text, part.counted!));
      continue;
    }
    if (part.instants) {
      // The reading at the part's own instant; a line of another moment sharing its words is not it.
      typed((entry) => [...part.instants!].some((moment) => entry.unit.moments.has(moment)));
      continue;
    }
    if (part.asksModule) {
      // The import of a name a quoted sentence uses.
      typed((entry) => statesImport(entry.unit.text) && supports(entry.unit, chosen.map((picked) => picked.unit)));
      continue;
    }
    // A part asking what comes first is spoken to only by a sentence stating an order (extractive-question-parts.ts).
    // A part asking when an event happened is spoken to by a record of it on the day it names, not by a metric row sampled
    // then; such a record may share few words beside the event's name, so half the floor, as a count's.
    const recordsEvent = (unit: Unit) => !part.asksEventTime || (unit.role !== 'row' && (part.asksEventTime.days.size === 0 || [...part.asksEventTime.days].some((day) => unit.moments.has(day))));
    const namesMember = (unit: Unit) => part.member === undefined || unit.termSet.has(part.member);
    const speaksTo = (entry: ScoredUnit, terms: ReadonlySet<string>) => holds(entry, terms) && (!part.asksPrecondition || STATES_ORDER.test(entry.unit.text)) && recordsEvent(entry.unit) && namesMember(entry.unit);
    // So may a sentence on what a part asks of a thing its relative clause names: the clause holds most of the part's words.
    const partFloor = part.asksEventTime || part.identifying ? floor * COUNT_PART_FLOOR_SHARE : floor;
    const ownWordsStated = ranked.some((candidate) => speaksTo(candidate, part.distinctive));
    // The words of the part that are not the relative clause naming what it asks about (extractive-question-parts.ts),
    // when a sentence holds one: a sentence holding only the clause's words names the thing, and says nothing of it.
    const asked = new Set([...part.distinctive].filter((term) => !part.identifying?.has(term)));
    const askedStated = part.identifying !== undefined && asked.size > 0 && ranked.some((candidate) => candidate.score >= partFloor && speaksTo(candidate, asked));
    const own = askedStated ? asked : part.distinctive;
    // A quoted sentence speaks to the part when it holds most of what the part's best sentence holds of its
    // words, by weight: "what applies the change once I merge to main?" is not answered by a timeline line
    // saying a change was merged, when a sentence says what applies a merge to `main` (fresh f169, f191).
    const weightHeld = (entry: ScoredUnit) => [...own].filter((term) => entry.unit.termSet.has(term)).reduce((sum, term) => sum + termWeight(term), 0);
    const enough = PART_WEIGHT_SHARE * Math.max(0, ...ranked.filter((candidate) => candidate.score >= partFloor && speaksTo(candidate, own)).map(weightHeld));
    // A key named by the kind whose members are asked, set to a list, names them all (`entities=[driver, route_segment]`); a line declaring one names one.
    const listsMembers = (entry: ScoredUnit) => part.member !== undefined && [...entry.unit.scored.matchAll(LISTED_VALUE)].some((match) => stem(match[1].toLowerCase()) === part.member);
    const listed = ranked.some((candidate) => candidate.score >= partFloor && listsMembers(candidate) && speaksTo(candidate, own));
    if (ownWordsStated && chosen.some((picked) => speaksTo(picked, own) && weightHeld(picked) >= enough && (!listed || listsMembers(picked)))) continue;
    const terms = ownWordsStated ? own : part.terms;
    const eligible = ranked.filter((candidate) => candidate.score >= partFloor && speaksTo(candidate, terms) && (!ownWordsStated || weightHeld(candidate) >= enough) && !chosen.includes(candidate) && !isDuplicate(candidate));
    // Records of one job share the event's name ("START test X", "PASS X"): the one holding most of the part's words is the event asked.
    const answering = part.asksEventTime ? [...eligible].sort((left, right) => weightHeld(right) - weightHeld(left))[0] : (eligible.find(listsMembers) ?? eligible[0]);
    if (answering) chosen.push(answering);
  }
  return chosen.sort((left, right) => right.score - left.score || left.unit.order - right.unit.order);
}
