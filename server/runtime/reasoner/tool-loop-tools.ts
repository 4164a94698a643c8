/**
 * The tool_loop reasoner's tools as the model sees them (name, description, JSON Schema of the
 * input), and the check of what a model sent: a model's arguments are untrusted input, so a bad
 * one is answered with an error naming the field (the model may try again), never thrown.
 */
export type ToolName = 'retrieve' | 'exact_lookup' | 'knowledge_facts';

export interface ToolDefinition {
  readonly name: ToolName;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

const SOURCES = { type: 'array', items: { type: 'string' }, description: 'Source names to search (default: every source you may search).' } as const;

export const TOOL_LOOP_TOOLS: readonly ToolDefinition[] = Object.freeze([
  {
    name: 'retrieve',
    description: 'Search the sources for passages about a query. Returns numbered passages to cite.',
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'What to search for.' }, sources: SOURCES }, required: ['query'], additionalProperties: false },
  },
  {
    name: 'exact_lookup',
    description: 'Find passages that contain an exact identifier (an error code, request id, commit, pod or host name). Returns numbered passages to cite.',
    inputSchema: { type: 'object', properties: { identifier: { type: 'string', description: 'The identifier, exactly as written.' }, sources: SOURCES }, required: ['identifier'], additionalProperties: false },
  },
  {
    name: 'knowledge_facts',
    description: 'Facts the knowledge base holds about an entity (subject, attribute, value, source).',
    inputSchema: { type: 'object', properties: { entity: { type: 'string', description: 'The entity, e.g. a service name.' }, sources: SOURCES }, required: ['entity'], additionalProperties: false },
  },
]);

export type ToolInput =
  | { readonly tool: 'retrieve' | 'exact_lookup'; readonly text: string; readonly sources?: readonly string[] }
  | { readonly tool: 'knowledge_facts'; readonly entity: string; readonly sources?: readonly string[] }
  | { readonly error: string };

const MAX_TEXT = 500;
const MAX_SOURCES = 50;

/** The checked input of one call of `tool`, or an error naming the field. */
export function toolInput(tool: ToolName, raw: unknown): ToolInput {
  if (typeof raw !== 'object' || raw === null) return { error: `${tool}: the input must be an object` };
  const fields = raw as Record<string, unknown>;
  const field = tool === 'retrieve' ? 'query' : tool === 'exact_lookup' ? 'identifier' : 'entity';
  const text = fields[field];
  if (typeof text !== 'string' || text.trim().length === 0) return { error: `${tool}: "${field}" must be a non-empty string` };
  if (text.length > MAX_TEXT) return { error: `${tool}: "${field}" must be at most ${MAX_TEXT} characters` };
  const sources = fields.sources;
  if (sources !== undefined && (!Array.isArray(sources) || sources.length > MAX_SOURCES || !sources.every((name) => typeof name === 'string'))) {
    return { error: `${tool}: "sources" must be a list of at most ${MAX_SOURCES} source names` };
  }
  const narrowed = sources === undefined ? {} : { sources: sources as string[] };
  return tool === 'knowledge_facts' ? { tool, entity: text, ...narrowed } : { tool, text, ...narrowed };
}
