// An MCP client of Context Runtime, with the SDK's own Client (README, section "MCP").
//   stdio (launches `context-runtime mcp`):  node examples/mcp-client.mjs
//   Streamable HTTP (a running server):      CONTEXT_RUNTIME_API_KEY=… node examples/mcp-client.mjs http://localhost:3000/api/mcp
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const endpoint = process.argv[2];
const transport = endpoint
  ? new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization: `Bearer ${process.env.CONTEXT_RUNTIME_API_KEY ?? ''}` } } })
  : new StdioClientTransport({ command: process.execPath, args: ['bin/context-runtime.mjs', 'mcp'], env: { ...process.env }, stderr: 'inherit' });
const client = new Client({ name: 'context-runtime-example', version: '1.0.0' });
await client.connect(transport);

console.log('tools:', (await client.listTools()).tools.map((tool) => tool.name).join(', '));
const sources = JSON.parse((await client.readResource({ uri: 'context-runtime://sources' })).contents[0].text);
console.log('sources:', sources.map((source) => source.name).join(', '));
const context = await client.callTool({ name: 'build_context', arguments: { goal: 'Explain why deployment checkout-api failed', tokenBudget: 800 } });
if (context.isError) throw new Error(context.content[0].text);
for (const passage of context.structuredContent.passages) console.log(`[${passage.ref}] ${passage.sourceName} · ${passage.title}: ${passage.text.slice(0, 100).replaceAll('\n', ' ')}`);
await client.close();
