// The assistant's tools as an MCP server (the official SDK's protocol layer), for `wfs mcp`. The tools are defined
// once, with JSON Schemas that VS Code's manifest also carries, so the SDK's low-level Server is used: its McpServer
// takes zod schemas, which would be a second definition of every input. A billed start asks the person through MCP
// elicitation; a client without it cannot ask, and the tool refuses with the command to run.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { saidsLeftOut, TOOLKIT_VERSION } from '../core';
import {
  ASSISTANT_TOOLS,
  auditTargetQuestion,
  billedStartQuestion,
  runTool,
  type AssistantContext,
  type AssistantTool,
  type BilledStartDetails,
} from '../core/assistant';

export interface ToolServerOptions {
  /** Only the tools that read: for a window in Restricted Mode, where nothing may be sent. */
  readOnly?: boolean;
}

/** How long a person has to answer a question (a billed start, an audit's address). */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

const SERVER_INSTRUCTIONS = [
  'Tools for debugging webhook handlers of the Workflow Service: read the deliveries the local receiver got (each with',
  'its seven verification steps and what the app answered), explain refusals, replay a delivery to the app and read',
  'its answer, send signed events, audit a receiver, and read workflows. Start with wfs_environment. A start outside',
  'the Sandbox is billed: wfs_start_billed_workflow asks the user first, and never retry a start whose outcome is',
  'unknown: find it by correlationId.',
].join(' ');

export function offeredTools(o: ToolServerOptions = {}): readonly AssistantTool<never, unknown>[] {
  return o.readOnly ? ASSISTANT_TOOLS.filter((t) => t.effect === 'reads') : ASSISTANT_TOOLS;
}

/** A tool as tools/list gives it. */
export function mcpTool(t: AssistantTool<never, unknown>): Tool {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema as Tool['inputSchema'],
    annotations: { title: t.title, ...t.annotations },
  };
}

/** The SDK's Ajv validator (it checks an elicitation's answer), built at the first answer rather than with the server:
 * building Ajv's vocabularies is a tenth of `wfs mcp`'s time to its ready line, and most sessions never ask. */
function validatorOnDemand(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

/** One MCP server (one per client session) over the shared context. */
export function createToolServer(ctx: AssistantContext, o: ToolServerOptions = {}): Server {
  const server = new Server(
    { name: 'wfs', title: 'Workflow Service Toolkit', version: TOOLKIT_VERSION },
    { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: validatorOnDemand() },
  );
  const tools = offeredTools(o);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(mcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const name = req.params.name;
    if (!tools.some((t) => t.name === name))
      return errorResult(
        o.readOnly && ASSISTANT_TOOLS.some((t) => t.name === name)
          ? `${name} sends or starts something, and this server was started read-only (the VS Code window is in Restricted Mode): trust the workspace, then ask again.`
          : `There is no tool ${name}: tools/list names them.`,
        {},
      );
    // This call's own way to ask a person: through the client that made it.
    // Every other member is the shared context's own, bound to it: what a call learns (a sign-in) is kept for the next.
    const asks: Partial<Record<keyof AssistantContext, unknown>> = {
      confirmBilledStart: (d: BilledStartDetails) => askThroughClient(server, billedStartQuestion(d), BILLED_START),
      confirmAuditTarget: (url: string) => askThroughClient(server, auditTargetQuestion(url), AUDIT_TARGET),
    };
    const callCtx = new Proxy(ctx, {
      get: (target, key) => {
        if (key in asks) return asks[key as keyof AssistantContext];
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const outcome = await runTool(name, req.params.arguments ?? {}, callCtx, extra.signal);
    if (outcome.ok) {
      // What the model reads is English: the Saids kept for VS Code's faces are left out.
      const result = saidsLeftOut(outcome.result);
      const structured =
        result !== null && typeof result === 'object' && !Array.isArray(result)
          ? (result as Record<string, unknown>)
          : { result };
      return { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
    }
    return errorResult(outcome.error, outcome.details);
  });
  return server;
}

function errorResult(message: string, details: Record<string, unknown>): CallToolResult {
  const structured = { error: message, ...details };
  const command = typeof details.command === 'string' ? `\n\nCommand for the user to run:\n${details.command}` : '';
  return {
    isError: true,
    content: [{ type: 'text', text: message + command }],
    structuredContent: structured,
  };
}

/** The yes/no field of a question: fixed words, the values are in the message, labelled and quoted. */
interface ConfirmField {
  title: string;
  description: string;
}

const BILLED_START: ConfirmField = {
  title: 'Start this billed workflow',
  description: 'Yes starts it, and the service bills it.',
};

const AUDIT_TARGET: ConfirmField = {
  title: 'Send the audit to this address',
  description: "Yes sends the audit's 30 requests there.",
};

/** A confirmation asked of the person through MCP elicitation: only an explicit yes. `message` is built (and its
 * values checked, personQuestion.ts) by the caller, before anything is asked. */
async function askThroughClient(server: Server, message: string, field: ConfirmField): Promise<boolean | 'cannot-ask'> {
  if (!server.getClientCapabilities()?.elicitation) return 'cannot-ask';
  let answer;
  try {
    answer = await server.elicitInput(
      {
        message,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', ...field } },
          required: ['confirm'],
        },
      },
      { timeout: CONFIRM_TIMEOUT_MS },
    );
  } catch (err) {
    // A client that says it elicits and cannot in form mode: it cannot ask. Anything else (a timeout) is a no.
    return /does not support/i.test((err as Error).message) ? 'cannot-ask' : false;
  }
  return answer.action === 'accept' && answer.content?.confirm === true;
}
