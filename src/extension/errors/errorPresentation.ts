// What a person sees for an error: what happened and what to do (the spec's "Action" column, carried by the
// typed error's advice), and the buttons that help. Pure but for vscode.l10n.t, so every error row is unit-tested in
// plain Node (with a stand-in l10n). The advice is core's Said (English in the CLI), worded in the user's language;
// what the service said itself (a problem's detail) is data, kept for the log.
import * as vscode from 'vscode';
import { SignInRequired } from '../../core/auth';
import { ServiceError, TransportError } from '../../core/http';
import { WaitsForTrust } from '../trust/restrictedMode';
import { errorInUserWords } from '../coreWords';

type ErrorAction =
  'Find Workflows' | 'Sign In' | 'Copy correlationId' | 'Show Log' | 'Open Settings' | 'Manage Workspace Trust';

export interface ErrorPresentation {
  message: string;
  actions: ErrorAction[];
  /** Modal for the one outcome a user must not miss: a billed workflow may exist. */
  modal: boolean;
}

/** @param billed true for a billed call (start): a timeout there may have started a workflow. */
export function presentError(operation: string, err: unknown, billed = false): ErrorPresentation {
  const actions: ErrorAction[] = [];
  let message: string;
  let modal = false;
  if (err instanceof WaitsForTrust) {
    // Nothing was sent: "failed" would be wrong, and the log has nothing to add.
    return {
      message: vscode.l10n.t('{0}: {1}', operation, err.message),
      actions: ['Manage Workspace Trust'],
      modal: false,
    };
  }
  if (err instanceof SignInRequired) {
    message = joinOperation(operation, err.advice, errorInUserWords(err));
    actions.push('Sign In');
  } else if (err instanceof ServiceError) {
    // The status is named once: the advice often names it already ("Outcome unknown (500): …").
    const tag = err.status ? `(${err.status}${err.code ? ` ${err.code}` : ''})` : '';
    const named = err.status !== undefined && err.advice.includes(`(${err.status}`);
    message =
      tag && !named
        ? vscode.l10n.t('{0} failed {1}: {2}', operation, tag, errorInUserWords(err))
        : vscode.l10n.t('{0} failed: {1}', operation, errorInUserWords(err));
    if (err.kind === 'unauthorized') actions.push('Sign In');
    if (err.kind === 'outcome-unknown') {
      modal = true;
      if (!/billed/i.test(err.advice)) message = vscode.l10n.t('{0} A billed workflow may exist.', message);
      // What the advice says to do comes first.
      if (err.correlationId) actions.push('Find Workflows');
    }
    if (err.kind === 'local-validation' && /settings|environment/i.test(err.advice)) actions.push('Open Settings');
    if (err.correlationId) actions.push('Copy correlationId');
  } else if (err instanceof TransportError) {
    if (billed && err.mayHaveBeenSent) {
      // The request was sent: the service may have started (and billed) the workflow before the answer was lost.
      message = vscode.l10n.t(
        '{0}: no answer ({1}). A billed workflow may exist: search for it by its correlationId before starting another.',
        operation,
        errorInUserWords(err),
      );
      modal = true;
    } else {
      message = vscode.l10n.t(
        "{0} failed: {1}. Check the environment's address and your connection.",
        operation,
        errorInUserWords(err),
      );
      actions.push('Open Settings');
    }
  } else message = vscode.l10n.t('{0} failed: {1}', operation, errorInUserWords(err));
  actions.push('Show Log');
  return { message, actions, modal };
}

/** "Sign-in to Staging" + "Sign-in was refused: …" reads "Sign-in to Staging was refused: …", not the word twice.
 * Only when the advice is shown in English (`shown` is the English advice): a translation is joined whole. */
function joinOperation(operation: string, advice: string, shown: string): string {
  const first = operation.split(' ')[0]!;
  return shown === advice && advice.toLowerCase().startsWith(first.toLowerCase() + ' ')
    ? `${operation}${advice.slice(first.length)}`
    : vscode.l10n.t('{0}: {1}', operation, shown);
}
