/**
 * Context Runtime from LangChain.js: a retriever whose documents the runtime plans, inside a
 * runnable chain (retriever → numbered passages → prompt → chat model), and a tool that runs a goal.
 *
 *   npx tsx examples/langchain/retriever-chain.ts ["your question"]
 *
 * The runtime: in this process on the embedded database (./.data, the demo corpus) by default; a
 * running server's HTTP API v1 when CONTEXT_RUNTIME_API_KEY is set (CONTEXT_RUNTIME_URL, default
 * http://127.0.0.1:3000). The chain's model: any OpenAI-compatible endpoint once OPENAI_API_KEY is
 * set (OPENAI_BASE_URL, OPENAI_MODEL); without one the chain prints the prompt it would send, and the
 * tool still answers with the runtime's own model tiers.
 */
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { ChatOpenAI } from '@langchain/openai';
import { openRuntime } from '../../server';
import { ContextRuntimeRetriever, createRunGoalTool, formatCitedDocuments, httpRuntimePort, inProcessRuntimePort } from '../../server/integrations/langchain';

const question = process.argv[2] ?? 'Explain why deployment checkout-api failed';
const apiKey = process.env.CONTEXT_RUNTIME_API_KEY;
const runtime = apiKey ? undefined : await openRuntime();
const port = runtime
  ? inProcessRuntimePort(runtime, { user: 'langchain-example', roles: ['operator'] })
  : httpRuntimePort({ baseUrl: process.env.CONTEXT_RUNTIME_URL ?? 'http://127.0.0.1:3000', apiKey: apiKey! });

try {
  const retriever = new ContextRuntimeRetriever({ runtime: port, tokenBudget: 1200 });
  console.log(`Passages the runtime planned for "${question}" (via ${port.via}):`);
  for (const { metadata } of await retriever.invoke(question)) {
    console.log(`  ${metadata.citation} ${metadata.source}@${metadata.version.slice(0, 8)} ${metadata.locator ?? ''} score ${metadata.score.toFixed(3)} plan ${metadata.planHash.slice(0, 12)}`);
  }

  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'Answer from the numbered passages only, citing them as [n].\n\n{context}'],
    ['human', '{question}'],
  ]);
  const promptWithContext = RunnableSequence.from([{ context: retriever.pipe(formatCitedDocuments), question: new RunnablePassthrough<string>() }, prompt]);
  if (process.env.OPENAI_API_KEY) {
    const model = new ChatOpenAI({ model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini', temperature: 0, configuration: { baseURL: process.env.OPENAI_BASE_URL } });
    console.log(`\nChain answer (${model.model}):\n${await promptWithContext.pipe(model).pipe(new StringOutputParser()).invoke(question)}`);
  } else {
    console.log(`\nNo OPENAI_API_KEY: the prompt the chain would send:\n${(await promptWithContext.invoke(question)).toString()}`);
  }

  const runGoal = createRunGoalTool(port);
  console.log(`\nTool ${runGoal.name}:\n${await runGoal.invoke({ goal: question })}`);
} finally {
  await runtime?.close();
}
