// The rule for a billed start asked by an assistant (docs/agents.md, "The rules"): it is made only after a person
// confirmed that very start, named by environment and product. Where the client has no way to ask a person (an MCP
// client without elicitation), nothing is started: the person gets the exact command to run it themselves.
import { wfsCommandLine } from '../presentation';
import { english, said, type Said } from '../presentation/said';
import type { BilledStartDetails } from './assistantContext';
import { personQuestion, type AskedValue } from './personQuestion';

export type BilledStartDecision =
  { start: true } | { start: false; reason: 'declined' | 'cannot-ask'; message: string; command?: string };

/** The `wfs start` line that makes exactly this start, for a person to run. */
export function billedStartCommand(d: BilledStartDetails): string {
  return wfsCommandLine('start', [
    ['session', d.sessionId],
    ['service', d.product.service],
    ['model', d.product.model],
    ['correlation-id', d.correlationId],
  ]);
}

/** The values a billed start's question shows, labelled, each named by the tool's input field. */
export function billedStartValues(d: BilledStartDetails): AskedValue[] {
  return [
    { label: said('Environment'), field: 'environment', value: d.environment },
    { label: said('Service address'), field: 'serviceOrigin', value: d.serviceOrigin },
    { label: said('Session'), field: 'sessionId', value: d.sessionId },
    { label: said('Service'), field: 'service', value: d.product.service },
    { label: said('Model'), field: 'model', value: d.product.model },
    // The protocol's name of the field, shown as it is.
    { label: 'correlationId', field: 'correlationId', value: d.correlationId },
  ];
}

/** What the person is asked: the question a face shows (a modal, an elicitation). Fixed text, then each value
 * labelled and quoted; a value with a control character is refused instead (personQuestion.ts). */
export function billedStartAsked(d: BilledStartDetails): Said {
  return personQuestion(
    said('Start this BILLED workflow? The service bills every workflow it starts.'),
    billedStartValues(d),
  );
}

/** The same question in English, as MCP elicitation asks it. */
export function billedStartQuestion(d: BilledStartDetails): string {
  return english(billedStartAsked(d));
}

/** `answer` is what the face got from the person; only an explicit true starts. */
export function decideBilledStart(answer: boolean | 'cannot-ask', d: BilledStartDetails): BilledStartDecision {
  if (answer === true) return { start: true };
  if (answer === 'cannot-ask') {
    const command = billedStartCommand(d);
    return {
      start: false,
      reason: 'cannot-ask',
      message: `Not started: a billed start needs a person's confirmation, and this client cannot ask one (it does not support MCP elicitation). Nothing was sent or billed. Ask the user to run this themselves, with the environment of ${d.environment} (${d.serviceOrigin}) set: ${command}`,
      command,
    };
  }
  return {
    start: false,
    reason: 'declined',
    message: `Not started: the user declined the billed start of ${d.product.service} / ${d.product.model} on ${d.environment}. Nothing was sent or billed; do not ask again unless the user says so.`,
  };
}
