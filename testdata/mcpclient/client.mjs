// client.mjs drives an MCP server with the official TypeScript SDK
// (@modelcontextprotocol/sdk, pinned in package.json), for ctxpack's
// TestMCPClient (internal/cli/mcpclient_test.go). It is generic: the script
// says how to reach the server and what to ask; the Go test decides what to
// check.
//
//   node client.mjs [SCRIPT.json]      (without a file: the script on stdin)
//
// The script:
//
//   {
//     "transport": {"type": "stdio", "command": "ctxpack", "args": ["serve"], "cwd": "...", "env": {...}}
//              or {"type": "http", "url": "http://127.0.0.1:PORT/mcp", "token": "..."},
//     "steps": [
//       {"tool": "context", "arguments": {"target": "TASK-042"}},
//       {"resource": "ctxpack://plan/last"},
//       {"prompt": "work_on_task", "arguments": {"task": "TASK-042"}}
//     ]
//   }
//
// It prints one JSON document: the server's name and version, the tools
// (name, whether it has an outputSchema), resource URIs, resource template
// URIs and prompt names it lists, and one result per step, in order: for a
// tool, isError, its text content and its structuredContent; for a
// resource, its contents; for a prompt, its messages; for any step the
// server (or the SDK's validation) refused, error {code, message, data}.
// A failed connection is connectError {code, message}, where code is the
// HTTP status when there was one. It exits 0 whenever it printed the
// document: the test judges it.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const script = JSON.parse(readFileSync(process.argv[2] ?? 0, 'utf8'));
const t = script.transport ?? {};

function errorOf(e) {
  const out = { message: e instanceof Error ? e.message : String(e) };
  if (e && e.code !== undefined) out.code = e.code;
  if (e && e.data !== undefined) out.data = e.data;
  return out;
}

function textOf(content) {
  return (content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
}

// all pages of a list method.
async function all(list, key) {
  const items = [];
  let cursor;
  do {
    const page = await list(cursor === undefined ? undefined : { cursor });
    items.push(...page[key]);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

let transport;
if (t.type === 'stdio') {
  transport = new StdioClientTransport({
    command: t.command,
    args: t.args ?? [],
    cwd: t.cwd,
    env: t.env ? { ...process.env, ...t.env } : undefined,
    stderr: 'inherit',
  });
} else if (t.type === 'http') {
  const headers = t.token ? { Authorization: `Bearer ${t.token}` } : {};
  transport = new StreamableHTTPClientTransport(new URL(t.url), { requestInit: { headers } });
} else {
  console.error(`client.mjs: transport.type must be "stdio" or "http", not ${JSON.stringify(t.type)}`);
  process.exit(2);
}

const client = new Client({ name: 'ctxpack-mcpclient', version: '1.0.0' });
const out = { transport: t.type };
try {
  await client.connect(transport);
} catch (e) {
  out.connectError = errorOf(e);
  console.log(JSON.stringify(out, null, 2));
  await client.close().catch(() => {});
  process.exit(0);
}

out.server = client.getServerVersion();
out.protocolVersion = transport.protocolVersion ?? null;
// listTools first: the client validates each tool's structuredContent
// against the outputSchema it lists.
const tools = await all((p) => client.listTools(p), 'tools');
out.tools = tools.map((x) => ({ name: x.name, hasOutputSchema: x.outputSchema !== undefined, readOnlyHint: x.annotations?.readOnlyHint ?? null }));
out.resources = (await all((p) => client.listResources(p), 'resources')).map((r) => r.uri);
out.resourceTemplates = (await all((p) => client.listResourceTemplates(p), 'resourceTemplates')).map((r) => r.uriTemplate);
out.prompts = (await all((p) => client.listPrompts(p), 'prompts')).map((p) => p.name);

out.results = [];
for (const step of script.steps ?? []) {
  const r = {};
  try {
    if (step.tool !== undefined) {
      Object.assign(r, { kind: 'tool', name: step.tool });
      const res = await client.callTool({ name: step.tool, arguments: step.arguments ?? {} });
      r.isError = res.isError === true;
      r.text = textOf(res.content);
      r.structuredContent = res.structuredContent ?? null;
    } else if (step.resource !== undefined) {
      Object.assign(r, { kind: 'resource', uri: step.resource });
      const res = await client.readResource({ uri: step.resource });
      r.contents = res.contents.map((c) => ({ uri: c.uri, mimeType: c.mimeType ?? null, text: c.text ?? null }));
    } else if (step.prompt !== undefined) {
      Object.assign(r, { kind: 'prompt', name: step.prompt });
      const res = await client.getPrompt({ name: step.prompt, arguments: step.arguments ?? {} });
      r.description = res.description ?? null;
      r.messages = res.messages.map((m) => ({ role: m.role, text: m.content?.type === 'text' ? m.content.text : null }));
    } else {
      throw new Error(`client.mjs: a step needs tool, resource or prompt: ${JSON.stringify(step)}`);
    }
  } catch (e) {
    r.error = errorOf(e);
  }
  out.results.push(r);
}

if (t.type === 'http') {
  // End the session as a client should (DELETE /mcp).
  try {
    await transport.terminateSession();
  } catch (e) {
    out.terminateError = errorOf(e);
  }
}
await client.close();
console.log(JSON.stringify(out, null, 2));
