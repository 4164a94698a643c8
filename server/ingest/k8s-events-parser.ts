import type { IngestChunk } from '../runtime/contracts/store';
import { invalidInput } from '../runtime/errors';
import { type CountTokens, type TextFile, freezeChunk } from './ingest-types';

/**
 * Kubernetes events (`kubectl get events -o json`) → one chunk per event, rendered as one line:
 * "Warning OOMKilled pod/checkout-api-… (shop): <message> count=6 from <first> to <last> source=kubelet".
 * An event is already the smallest unit of evidence, so it is never split or merged; the one-line
 * form puts type, reason and object name next to each other where BM25 and exact-id retrieval see them.
 * Accepts a bare array (the demo format) or a List/EventList object with `items` (what kubectl prints),
 * and events.k8s.io/v1 fields (`regarding`, `note`, `deprecatedCount`) as fallbacks.
 */

export interface K8sEvent {
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly firstTimestamp?: string;
  readonly lastTimestamp?: string;
  readonly count: number;
  readonly component?: string;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** What kind of value sits where a string or number was expected: the type, never the value (errors must not quote file content). */
function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (value === '') return 'an empty string';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Where JSON.parse stopped, as line and column; its own message quotes the text around it. */
function syntaxErrorPlace(error: unknown, content: string): string {
  const message = error instanceof Error ? error.message : '';
  if (/end of JSON input/i.test(message)) return ': it ends before the JSON is complete';
  const position = /position (\d+)/.exec(message);
  if (!position) return '';
  if (Number(position[1]) >= content.trimEnd().length) return ': it ends before the JSON is complete';
  const before = content.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  return ` at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}

function requireString(record: JsonObject, key: string, field: string, fallbackKey?: string): string {
  const value = record[key] ?? (fallbackKey ? record[fallbackKey] : undefined);
  if (typeof value !== 'string' || value === '') throw invalidInput(`${field}.${key}`, `expected a non-empty string, found ${describeFound(value)}`);
  return value;
}

function eventItems(uri: string, content: string): readonly unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    throw invalidInput(uri, `malformed JSON in Kubernetes events file${syntaxErrorPlace(error, content)}`, { file: uri });
  }
  if (Array.isArray(parsed)) return parsed;
  if (isObject(parsed) && Array.isArray(parsed.items)) return parsed.items;
  const found = parsed === null ? 'null' : typeof parsed;
  throw invalidInput(uri, `expected a JSON array of Kubernetes events (or a List with "items"), found ${found}`, { file: uri });
}

/** Validates one raw event; `field` is "<file>[index]" so an error names the exact spot. */
export function readK8sEvent(raw: unknown, field: string): K8sEvent {
  if (!isObject(raw)) throw invalidInput(field, `expected an event object, found ${raw === null ? 'null' : Array.isArray(raw) ? 'array' : typeof raw}`);
  const involved = raw.involvedObject ?? raw.regarding;
  if (!isObject(involved)) throw invalidInput(`${field}.involvedObject`, 'expected an object naming the kind and name the event is about');
  const metadata = isObject(raw.metadata) ? raw.metadata : {};
  const series = isObject(raw.series) ? raw.series : {};
  const count = raw.count ?? raw.deprecatedCount ?? series.count ?? 1;
  if (typeof count !== 'number' || !Number.isFinite(count) || count < 0) throw invalidInput(`${field}.count`, `expected a non-negative number, found ${typeof count === 'number' ? 'a negative or non-finite number' : describeFound(count)}`);
  const source = isObject(raw.source) ? raw.source : {};
  return Object.freeze({
    type: optionalString(raw.type) ?? 'Normal',
    reason: requireString(raw, 'reason', field),
    message: requireString(raw, 'message', field, 'note').replace(/\s+$/, ''),
    kind: requireString(involved, 'kind', `${field}.involvedObject`),
    name: requireString(involved, 'name', `${field}.involvedObject`),
    namespace: optionalString(involved.namespace) ?? optionalString(metadata.namespace),
    firstTimestamp: optionalString(raw.firstTimestamp) ?? optionalString(raw.eventTime) ?? optionalString(raw.deprecatedFirstTimestamp),
    lastTimestamp: optionalString(raw.lastTimestamp) ?? optionalString(series.lastObservedTime) ?? optionalString(raw.deprecatedLastTimestamp),
    count,
    component: optionalString(source.component) ?? optionalString(raw.reportingComponent) ?? optionalString(raw.reportingController),
  });
}

export function formatK8sEvent(event: K8sEvent): string {
  const scope = event.namespace ? ` (${event.namespace})` : '';
  const first = event.firstTimestamp ?? event.lastTimestamp;
  const last = event.lastTimestamp ?? event.firstTimestamp;
  const when = first === undefined ? '' : first === last ? ` at ${first}` : ` from ${first} to ${last}`;
  const source = event.component ? ` source=${event.component}` : '';
  return `${event.type} ${event.reason} ${event.kind.toLowerCase()}/${event.name}${scope}: ${event.message} count=${event.count}${when}${source}`;
}

export function parseK8sEvents(file: TextFile, options: { readonly countTokens: CountTokens }): IngestChunk[] {
  return eventItems(file.uri, file.content).map((raw, index) => {
    const event = readK8sEvent(raw, `${file.uri}[${index}]`);
    const text = formatK8sEvent(event);
    return freezeChunk({
      uri: file.uri,
      ordinal: index,
      title: `event ${index + 1}: ${event.type} ${event.reason} ${event.kind.toLowerCase()}/${event.name}`,
      text,
      locator: `event ${index + 1}`,
      tokens: options.countTokens(text),
      metadata: { ...event },
    });
  });
}
