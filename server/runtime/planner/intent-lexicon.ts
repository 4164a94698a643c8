import type { IntentClass } from '../types';

/**
 * Word lists the rule-based intent analyzer matches against. Plain Sets/Maps so a
 * lookup is one hash probe: the analyzer must stay far below 0.1 ms per goal, and
 * a trained classifier would add a dependency and non-determinism for little gain
 * on the six coarse classes it decides.
 */

export interface Cue {
  readonly intent: IntentClass;
  /** Evidence strength; the primary class is the one with the largest summed weight. */
  readonly weight: number;
}

const cues = (intent: IntentClass, weight: number, words: string): [string, Cue][] =>
  words.split(',').map((word) => [word.trim(), { intent, weight }]);

/**
 * Single-word cues, lower-case. No high_risk cues: a risky word is a topic, not a request to act;
 * action-request.ts reads whether the goal asks for an action (risk-lexicon.ts holds its words).
 */
export const WORD_CUES: ReadonlyMap<string, Cue> = new Map([
  ...cues('incident', 2, 'failed,fail,fails,failing,failure,failures,outage,outages,crash,crashed,crashes,crashing,crashloop,crashloopbackoff,oom,oomkilled,down,incident,incidents,broke,broken,degraded,degradation,timeout,timeouts,unavailable,unhealthy,evicted,restarting,postmortem,sev1,sev2,5xx,500s,502s,503s,504s,regression'),
  ...cues('incident', 1, 'error,errors,latency,slow,slowness,alert,alerts,exception,exceptions,panic,stuck,hung,spike,spiking,restarts,paging'),
  ...cues('multi_hop', 2, 'compare,compared,comparing,comparison,versus,vs'),
  ...cues('multi_hop', 1, 'differ,differs,both'),
  ...cues('sensitive', 1.5, 'password,passwords,passwd,secret,secrets,pii,ssn,salary,salaries,payroll,compensation,medical,diagnosis,patient,patients,hipaa,dob,passport'),
  ...cues('conceptual', 1, 'explain,describe,overview,concept,concepts,meaning,purpose,architecture,design,understand,tutorial,guide,introduction'),
]);

/** Two-word cues, keyed "first second". */
export const PHRASE_CUES: ReadonlyMap<string, Cue> = new Map([
  ...cues('incident', 1, 'why did,why is,why are,why does,why was,why were'),
  ...cues('incident', 2, 'what happened,root cause,went down,timed out,not working,stopped working'),
  ...cues('multi_hop', 2, 'difference between,differences between'),
  ...cues('multi_hop', 1, 'depends on,depend on,called by,relationship between'),
  ...cues('sensitive', 1.5, 'api key,api keys,private key,access key,credit card,card number,social security,health record,health records,date of birth,home address,phone number,bank account'),
  ...cues('conceptual', 1, 'what is,what are,what does,how does,how do,how to,best practice,best practices'),
]);

/** Imperative openers: not keywords, and a capitalised one at the start is not an entity. */
export const GOAL_VERBS: ReadonlySet<string> = new Set(
  'explain,show,tell,describe,list,give,find,summarize,summarise,compare,identify,determine,check,look,lookup,search,investigate,analyze,analyse,help,why,what'.split(','),
);

/** Words that open a wh-question, for the relative-clause multi-hop rule ("who directed the film that …"). */
export const WH_WORDS: ReadonlySet<string> = new Set(['who', 'what', 'which', 'where', 'when', 'whose', 'name', 'list', 'find']);

/** Relative pronouns that attach a second hop to a noun phrase. */
export const RELATIVE_PRONOUNS: ReadonlySet<string> = new Set(['that', 'which', 'who', 'whose', 'where']);

/**
 * POSIX errno names and Kubernetes reason strings: they appear verbatim in logs and
 * events, so they are identifiers for exact lookup, not prose.
 */
export const KNOWN_ERROR_NAMES: ReadonlySet<string> = new Set(
  'ECONNRESET,ECONNREFUSED,ECONNABORTED,ETIMEDOUT,ENOENT,EACCES,EPERM,EADDRINUSE,EPIPE,ENOTFOUND,EHOSTUNREACH,ENETUNREACH,ENOMEM,ENOSPC,EMFILE,EAI_AGAIN,OOMKilled,CrashLoopBackOff,ImagePullBackOff,ErrImagePull,CreateContainerConfigError,Evicted,DeadlineExceeded,FailedScheduling'.split(','),
);

/** Upper-case-letters-then-digits tokens that are names of standards, not error codes. */
export const NOT_ERROR_CODES: ReadonlySet<string> = new Set(['SHA256', 'SHA512', 'SHA384', 'SHA224', 'SHA1', 'MD5', 'X509', 'ISO8601', 'UTF8', 'UTF16', 'IPV4', 'IPV6', 'RFC', 'S3', 'EC2', 'K8S', 'GPT4', 'A100', 'H100']);

/** Tokens after which a 3-digit number is an HTTP status. */
export const STATUS_LEADS: ReadonlySet<string> = new Set(['http', 'status', 'code', 'returned', 'returning', 'returns', 'got', 'with']);

/** Tokens after which the next name-like token is a deployment (kubectl and prose forms). */
export const DEPLOYMENT_LEADS: ReadonlySet<string> = new Set(['deployment', 'deployments', 'deploy']);

/** Tokens after which an id-like token is a request id. */
export const REQUEST_LEADS: ReadonlySet<string> = new Set(['request', 'req', 'request-id', 'request_id', 'requestid', 'trace', 'trace-id', 'trace_id', 'correlation']);

/** Tokens after which a hex string is a commit. */
export const COMMIT_LEADS: ReadonlySet<string> = new Set(['commit', 'sha', 'revision', 'rev', 'hash']);

/**
 * Month and weekday names are capitalised in English but place an event in time, as an ISO date
 * does; they name no system. Taken as a named entity, "6 to 8 March 2026" made "March" the anchor
 * of the entity-focused retrievals, which then searched for "March" and ranked unrelated commits
 * that mention a March date (issue 10, freight tune q01).
 */
export const CALENDAR_WORDS: ReadonlySet<string> = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday'.split(' '),
);
