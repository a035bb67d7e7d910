// What one tool of the assistant is (docs/agents.md): defined once here, in core, and served by both faces, VS Code's
// language model tools and `wfs mcp`. A face adds nothing to a tool but its own way of asking and showing.
import { isLoopbackHost } from '../http/loopback';
import { english, type Said } from '../presentation/said';
import type { Schema } from '../schemas/validateSchema';
import type { AssistantContext } from './assistantContext';

/** The hints of the MCP spec's ToolAnnotations; VS Code reads the same from the tool's kind of effect. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a tool does to the world: reads what is here; sends a delivery (to the app, the receiver, or a URL); starts
 * a workflow. Only `reads` tools are offered in VS Code's Restricted Mode. */
type ToolEffect = 'reads' | 'sends' | 'starts';

/** Exactly what a sending or starting tool is about to do, for the human's confirmation (VS Code's
 * prepareInvocation): core's words, worded by the face. */
export interface ToolPreview {
  title: Said;
  message: Said;
}

export interface AssistantTool<I = Record<string, unknown>, O = unknown> {
  /** verb_noun, prefixed wfs_: unique among every tool the editor or client knows. */
  name: string;
  /** For people: the English (MCP's annotation, the tool picker's package.nls.json entry) and the Said a face words
   * (VS Code's progress line). One literal gives both: titled, given the Said. */
  title: string;
  titleSaid: Said;
  /** One line for people (VS Code's tool picker). */
  summary: string;
  /** For the model: what it does, what it returns, when to use it and when not. */
  description: string;
  inputSchema: Schema;
  annotations: ToolAnnotations;
  effect: ToolEffect;
  /** Sending and starting tools say what they will do, from the input and the context, without doing it. */
  preview?(input: I, ctx: AssistantContext): Promise<ToolPreview>;
  run(input: I, ctx: AssistantContext, signal?: AbortSignal): Promise<O>;
}

/** A tool's title, in English and as core's words. */
export function titled(s: Said): { title: string; titleSaid: Said } {
  return { title: english(s), titleSaid: s };
}

/** A tool that could not do what was asked: what happened, then what to do (a command, a setting, another tool).
 * `details` are returned with it as structured data (e.g. the exact `wfs start` command a human may run). */
export class ToolRefused extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolRefused';
  }
}

/** Whether a tool may send to `url` without asking: on this machine, or `allowed` (the face's consent). Throws
 * ToolRefused with `elsewhere`, the face's words for what would allow it, when it may not. */
export function checkToolReach(url: string, allowed: (u: URL) => boolean, elsewhere: (u: URL) => string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ToolRefused(`${url} is not a URL.`);
  }
  if (isLoopbackHost(u.hostname) || allowed(u)) return;
  throw new ToolRefused(elsewhere(u));
}

export const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
