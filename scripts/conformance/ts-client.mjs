// The TypeScript SDK v2 client pinned to MCP 2026-07-28 against a running ragsearch server:
// connect (server/discover must offer the pinned revision), list the tools, call every one.
// Usage: node ts-client.mjs URL   (the client package resolved from NODE_PATH's prefix)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const url = process.argv[2];
if (!url) {
  console.error('usage: ts-client.mjs URL');
  process.exit(2);
}
const expected = ['list_projects', 'search', 'list_documents', 'read_article'];
const client = new Client({ name: 'ragsearch-ts-v2-check', version: '1' },
  { versionNegotiation: { mode: { pin: '2026-07-28' } } });
const problems = [];
const check = (ok, what) => { if (!ok) problems.push(what); };

await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
check(JSON.stringify([...names].sort()) === JSON.stringify([...expected].sort()), `tools listed: ${names.join(', ')}`);
for (const t of tools) {
  check(t.annotations?.readOnlyHint === true, `${t.name}: readOnlyHint`);
  check(t.outputSchema?.type === 'object', `${t.name}: outputSchema`);
}

async function call(name, args) {
  const r = await client.callTool({ name, arguments: args });
  check(r.isError !== true, `${name}: tool error ${JSON.stringify(r.content)}`);
  check(r.structuredContent !== undefined, `${name}: structuredContent`);
  console.log(`ts-client-2026: ${name} ok (${(r.content?.[0]?.text ?? '').split('\n')[0].slice(0, 80)})`);
  return r.structuredContent ?? {};
}

const projects = (await call('list_projects', {})).projects ?? [];
const english = projects.find((p) => p.language === 'english') ?? projects[0];
check(english !== undefined, 'a project to search');
const found = await call('search', { project: english.name, query: 'how many days of annual leave', top_k: 3 });
await call('list_documents', { project: english.name });
const hit = found.results?.[0];
check(hit !== undefined, 'search found an article to read');
if (hit) {
  await call('read_article', { project: english.name, document: hit.document, article: hit.article });
}
await client.close();
if (problems.length > 0) {
  console.error(`ts-client-2026: FAILED\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`ts-client-2026: pinned 2026-07-28, listed ${names.length} tools and called every one`);
