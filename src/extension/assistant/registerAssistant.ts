// The assistant's face in VS Code (docs/agents.md): the language model tools, and `wfs mcp` offered to VS Code's MCP
// support. composition.ts calls this once.
import type * as vscode from 'vscode';
import type { Services } from '../services';
import { ExtensionAssistantContext } from './extensionAssistantContext';
import { registerLanguageModelTools } from './languageModelTools';
import { registerMcpServerProvider } from './mcpServerProvider';

export function registerAssistant(s: Services, extensionUri: vscode.Uri): vscode.Disposable[] {
  const ctx = new ExtensionAssistantContext(s);
  return [...registerLanguageModelTools(ctx), ...registerMcpServerProvider(s, extensionUri)];
}
