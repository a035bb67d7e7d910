// Every `wfs` command: its name, its line in `wfs --help`, and how to load its code. A command's module (and what
// it imports: undici, jose, the sandbox) is evaluated only when that command runs or prints its own help, so
// `wfs --help` and `wfs --version` start as fast as Node itself. Adding a command is one line here.
import type { CommandSpec } from './commandSpec';

export interface CommandEntry {
  name: string;
  /** One line for `wfs --help`. */
  summary: string;
  load: () => Promise<CommandSpec>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'sandbox',
    summary: 'run the simulator of the Workflow Service',
    load: async () => (await import('./commands/sandboxCommand')).sandboxCommand,
  },
  {
    name: 'sandbox fault',
    summary: 'inject a fault into a running sandbox (throttle, start-500, …)',
    load: async () => (await import('./commands/sandboxControlCommands')).sandboxFaultCommand,
  },
  {
    name: 'sandbox faults',
    summary: "list a running sandbox's pending faults, or clear them (--clear)",
    load: async () => (await import('./commands/sandboxControlCommands')).sandboxFaultsCommand,
  },
  {
    name: 'sandbox rotate-key',
    summary: "rotate a running sandbox's signing key",
    load: async () => (await import('./commands/sandboxControlCommands')).sandboxRotateKeyCommand,
  },
  {
    name: 'sandbox webhooks',
    summary: 'list, add or remove the addresses a running sandbox sends workflow events to',
    load: async () => (await import('./commands/sandboxControlCommands')).sandboxWebhooksCommand,
  },
  {
    name: 'probe-service',
    summary: 'check an environment against the contract (never billing); can teach the sandbox what it found',
    load: async () => (await import('./commands/probeServiceCommand')).probeServiceCommand,
  },
  {
    name: 'env',
    summary: 'show the service, user and proxy the other commands would use (never the password)',
    load: async () => (await import('./commands/envCommand')).envCommand,
  },
  {
    name: 'sign-in',
    summary: "check the credentials: sign in once and print the tokens' lifetime (nothing is stored)",
    load: async () => (await import('./commands/signInCommand')).signInCommand,
  },
  {
    name: 'start',
    summary: 'start one billed workflow on a session',
    load: async () => (await import('./commands/startCommand')).startCommand,
  },
  {
    name: 'status',
    summary: 'read a workflow, or follow it to its end',
    load: async () => (await import('./commands/statusCommand')).statusCommand,
  },
  {
    name: 'find',
    summary: 'find the workflows started with a correlationId (after a 500, before starting again)',
    load: async () => (await import('./commands/findCommand')).findCommand,
  },
  {
    name: 'test-webhook',
    summary: 'ask the service to send a simulated webhook to an address',
    load: async () => (await import('./commands/testWebhookCommand')).testWebhookCommand,
  },
  {
    name: 'listen',
    summary: 'run the webhook receiver (with a public address when asked), printing every delivery',
    load: async () => (await import('./commands/listenCommand')).listenCommand,
  },
  {
    name: 'audit',
    summary: 'probe your webhook receiver for the classic verification mistakes',
    load: async () => (await import('./commands/auditCommand')).auditCommand,
  },
  {
    name: 'sign',
    summary: 'print the Authorization header for exactly the bytes of a body',
    load: async () => (await import('./commands/signCommand')).signCommand,
  },
  {
    name: 'send',
    summary: 'sign and send webhook fixtures (NAME.webhook.json), or plain event bodies, to a receiver or an app',
    load: async () => (await import('./commands/sendCommand')).sendCommand,
  },
  {
    name: 'fixture new',
    summary: 'write a webhook fixture (NAME.webhook.json) from a plain event body',
    load: async () => (await import('./commands/fixtureNewCommand')).fixtureNewCommand,
  },
  {
    name: 'mcp',
    summary:
      "serve the assistant's tools over MCP (stdio, or --http PORT on loopback) for Claude Code, Cursor, VS Code",
    load: async () => (await import('./commands/mcpCommand')).mcpCommand,
  },
  {
    name: 'keys generate',
    summary: "write a test issuer's key pair and key set to a folder",
    load: async () => (await import('./commands/keysCommand')).keysCommand,
  },
];
