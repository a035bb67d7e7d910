// The MCP face: `wfs mcp` serves the assistant's tools (src/core/assistant) over the MCP SDK. Only this face imports
// the SDK; the CLI loads it on demand (src/cli/commands/mcpCommand.ts).
export { serveMcp, type McpOptions } from './serveMcp';
