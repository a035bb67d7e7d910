// The rule for where the receiver audit goes when an assistant asks for it (docs/agents.md, "The rules"): the model
// names no destination. It picks the receiver or the app, the addresses the user configured. Any other address is
// audited only after a person confirmed that very address; where the client cannot ask one (an MCP client without
// elicitation), nothing is sent and the person gets the exact `wfs audit` line to run themselves.
import { httpUrlProblem } from '../http/httpUrlProblem';
import { isLoopbackHost } from '../http/loopback';
import { shellWord } from '../presentation';
import { english, said, type Said } from '../presentation/said';
import { ToolRefused } from './assistantTool';
import { checkAskable, personQuestion } from './personQuestion';

/** The audit's destination as the tool was given it. */
export type AuditTarget = { kind: 'receiver' } | { kind: 'app' } | { kind: 'url'; url: string };

/** "receiver", "app", or an http(s) URL (which needs a person's confirmation); anything else is refused. */
export function parseAuditTarget(target: string): AuditTarget {
  if (target === 'receiver' || target === 'app') return { kind: target };
  // Checked as written: a URL parser would drop a line break or tab silently, and the person must see it all.
  checkAskable([{ label: said('Address'), field: 'target', value: target }]);
  const problem = httpUrlProblem(target);
  if (problem)
    throw new ToolRefused(
      `target ${problem}: give "receiver" or "app" (the addresses the user configured), or an http(s) URL, which the user is asked to confirm.`,
    );
  return { kind: 'url', url: new URL(target).toString() };
}

/** The `wfs audit` line that audits exactly this address, for a person to run. */
export function auditTargetCommand(url: string): string {
  const remote = !isLoopbackHost(new URL(url).hostname);
  return `wfs audit --target ${shellWord(url)}${remote ? ' --allow-remote' : ''}`;
}

/** What the person is asked before the audit goes to an address the model named. */
export function auditTargetAsked(url: string): Said {
  return personQuestion(
    said(
      "Send the receiver audit's 30 requests to this address? An assistant named it. They are POSTs: one genuine delivery signed with the sandbox key, and forged or malformed ones a receiver must refuse.",
    ),
    [{ label: said('Address'), field: 'target', value: url }],
  );
}

/** The same question in English, as MCP elicitation asks it. */
export function auditTargetQuestion(url: string): string {
  return english(auditTargetAsked(url));
}

/** `answer` is what the face got from the person; only an explicit true audits. Otherwise a refusal to throw. */
export function auditTargetRefusal(answer: boolean | 'cannot-ask', url: string): ToolRefused | undefined {
  if (answer === true) return undefined;
  if (answer === 'cannot-ask') {
    const command = auditTargetCommand(url);
    return new ToolRefused(
      `Not audited: an address the assistant names needs the user's confirmation, and this client cannot ask one (it does not support MCP elicitation). Nothing was sent. Use target "receiver" or "app" for the configured ones, or ask the user to run this themselves: ${command}`,
      { audited: false, reason: 'cannot-ask', command },
    );
  }
  return new ToolRefused(
    'Not audited: the user declined the audit of that address. Nothing was sent; do not ask again unless the user says so.',
    { audited: false, reason: 'declined' },
  );
}
