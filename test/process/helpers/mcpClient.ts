// `wfs mcp` on stdio, started and driven by the official MCP SDK client, as Claude Code or Cursor start it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './wfsProcess';

export type Json = Record<string, any>;

export interface McpSession {
  client: Client;
  /** A tool's structured answer. */
  call(name: string, args: Json): Promise<Json>;
}

/** `wfs mcp ARGS` with only PATH and HOME of this environment, connected. Close `client` to end it. */
export async function mcpOverStdio(args: string[]): Promise<McpSession> {
  const client = new Client({ name: 'process-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', ...args],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stderr: 'pipe',
    }),
  );
  const call = async (name: string, toolArgs: Json): Promise<Json> =>
    ((await client.callTool({ name, arguments: toolArgs })) as CallToolResult).structuredContent as Json;
  return { client, call };
}
