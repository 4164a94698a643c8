import type { ModelMessage } from '../contracts/model';

/**
 * The request's output_schema told to the model in the prompt as well: a provider without a JSON
 * mode (or the extractive reader, which ignores it) still sees the shape asked for, and a model
 * asked for structured output is told where its citations go.
 */
export function withOutputSchema(messages: readonly ModelMessage[], schema: Readonly<Record<string, unknown>> | undefined): ModelMessage[] {
  if (!schema) return [...messages];
  const instruction = `Reply with one JSON value, and nothing else, that matches this JSON Schema: ${JSON.stringify(schema)}. Put the [n] citation markers inside the JSON string values they support.`;
  return messages.map((message) => (message.role === 'system' ? { ...message, content: `${message.content} ${instruction}` } : message));
}
