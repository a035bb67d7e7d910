// Start a workflow (billed: a modal confirmation unless turned off), and what follows when its answer is lost or the
// start was cancelled after it was sent.
import * as vscode from 'vscode';
import { workflowStatusWords } from '../explorer/workflowPresentation';
import { EnvironmentChanged, environmentChange, serviceOrigin, type Environment } from '../../core/environments';
import { ServiceError } from '../../core/http';
import { restrictedModeRefusal, type GuardedAction } from '../trust/restrictedMode';
import {
  type BilledStartOutcome,
  checkCorrelationId,
  generateCorrelationId,
  type StartOutcomeUnknown,
  type Product,
  type TrackedWorkflow,
} from '../../core/workflows';
import { showError } from '../errors/showError';
import type { Services } from '../services';
import { pickOrType } from './pickOrType';
import { COMMANDS } from '../commandIds';
import { errorInUserWords } from '../coreWords';
import { setting } from '../settings';

export interface StartWorkflowArgs {
  sessionId?: string;
  product?: Product;
  correlationId?: string;
}

/** Restricted Mode: a real environment's billed start waits for workspace trust. The warning is not awaited: a
 * notification stays until closed, and the command's caller must learn at once that nothing was started. */
function allowedInThisWorkspace(action: GuardedAction, envName: string): boolean {
  const refusal = restrictedModeRefusal(action, envName, vscode.workspace.isTrusted);
  if (!refusal) return true;
  void vscode.window
    .showWarningMessage(refusal, vscode.l10n.t('Manage Workspace Trust'))
    .then((a) => a && vscode.commands.executeCommand('workbench.trust.manage'));
  return false;
}

export async function startWorkflow(s: Services, args: StartWorkflowArgs): Promise<TrackedWorkflow | undefined> {
  const target = await startTarget(s);
  if (!target) return undefined;
  const req = await startRequest(s, target.env, args);
  if (!req) return undefined;
  const asked = setting('confirmBilledStart');
  if (asked && !(await confirmedBilledStart(target.env, req))) return undefined;
  try {
    return renderStart(s, target.env, req, await sendStart(s, target, req));
  } catch (err) {
    return startFailed(s, target.env, req, err, { asked, args });
  }
}

type Manager = Awaited<ReturnType<Services['auth']['require']>>;

/** The environment the start goes to, resolved once (the value is what the user confirms and what the start is sent
 * to), and its sign-in; undefined when it waits for trust or cannot be resolved (said). */
async function startTarget(s: Services): Promise<{ env: Environment; manager: Manager } | undefined> {
  if (!allowedInThisWorkspace('start', s.environments.currentName)) return undefined;
  try {
    const env = s.environments.resolve(s.environments.currentName);
    return { env, manager: await s.auth.require(env) };
  } catch (err) {
    void showError(s.output, vscode.l10n.t('Start workflow'), err);
    return undefined;
  }
}

/** The session, product and correlationId: given, or asked for; undefined when a question was dismissed. */
async function startRequest(
  s: Services,
  env: Environment,
  args: StartWorkflowArgs,
): Promise<Required<StartWorkflowArgs> | undefined> {
  const sessionId = args.sessionId ?? (await pickSession(s, env));
  if (!sessionId) return undefined;
  const product = args.product ?? (await pickProduct(env.products));
  if (!product) return undefined;
  const suggested = generateCorrelationId(s.clock.now());
  const correlationId =
    args.correlationId ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Start workflow: correlationId'),
      prompt: vscode.l10n.t(
        'A distinctive id to find this workflow by (Find Workflows), should the answer be lost. The generated one is unique.',
      ),
      value: suggested,
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          checkCorrelationId(v);
          return undefined;
        } catch (err) {
          return errorInUserWords(err);
        }
      },
    }));
  if (!correlationId) return undefined;
  return { sessionId, product, correlationId };
}

/** The modal question before a billed start (wfs.confirmBilledStart); true when the user chose to start. */
async function confirmedBilledStart(env: Environment, req: Required<StartWorkflowArgs>): Promise<boolean> {
  const { product, sessionId, correlationId } = req;
  const ok = await vscode.window.showWarningMessage(
    vscode.l10n.t('Start a billed workflow?'),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0} / {1} in session {2} on {3} ({4}).\nThe service bills every workflow it starts.\ncorrelationId: {5}\n\n(Turn this question off with the setting wfs.confirmBilledStart.)',
        product.service,
        product.model,
        sessionId,
        env.name,
        serviceOrigin(env),
        correlationId,
      ),
    },
    vscode.l10n.t('Start (Billed)'),
  );
  return ok === vscode.l10n.t('Start (Billed)');
}

/** Sends the start under a cancellable progress that says when the service throttles it. */
function sendStart(
  s: Services,
  { env, manager }: { env: Environment; manager: Manager },
  req: Required<StartWorkflowArgs>,
): Thenable<BilledStartOutcome<TrackedWorkflow>> {
  const { product, sessionId } = req;
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Starting {0} / {1} in {2}…', product.service, product.model, sessionId),
      cancellable: true,
    },
    async (progress, token) => {
      // Say what is happening while the shared throttle holds the start, instead of a bare "Starting…".
      const off = manager.gate.onBackoff(({ delayMs }) =>
        progress.report({
          message: vscode.l10n.t('throttled by the service (429): retrying in {0} s', Math.ceil(delayMs / 1000)),
        }),
      );
      const stop = new AbortController();
      const cancelSubscription = token.onCancellationRequested(() => stop.abort());
      try {
        // The very value the user confirmed: if its name resolves to another now, nothing is sent.
        return await s.workflows.start(env, req, stop.signal);
      } finally {
        off();
        cancelSubscription.dispose();
      }
    },
  );
}

/** A start that threw: the environment changed before it was sent, its session is unknown there, or another error. */
function startFailed(
  s: Services,
  env: Environment,
  req: Required<StartWorkflowArgs>,
  err: unknown,
  { asked, args }: { asked: boolean; args: StartWorkflowArgs },
): undefined {
  if (err instanceof EnvironmentChanged) return environmentChangedBeforeStart(s, err, asked, args);
  if (err instanceof ServiceError && err.kind === 'not-found') {
    // The session itself is unknown there: say which, and offer to drop it from the explorer.
    s.output.error(vscode.l10n.t('Start workflow: {0}', errorInUserWords(err)));
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t('Start workflow: {0}', errorInUserWords(err)),
        vscode.l10n.t('Remove from Explorer'),
      )
      .then((a) => a && s.workflows.removeSession(env, req.sessionId));
    return undefined;
  }
  void showError(s.output, vscode.l10n.t('Start workflow'), err, { billed: true });
  return undefined;
}

/** What the core's billed start decided, said to the user. */
function renderStart(
  s: Services,
  env: Environment,
  req: Required<StartWorkflowArgs>,
  outcome: BilledStartOutcome<TrackedWorkflow>,
): Promise<TrackedWorkflow | undefined> | TrackedWorkflow | undefined {
  const { product } = req;
  switch (outcome.kind) {
    case 'started': {
      const w = outcome.result;
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Started {0} / {1}: {2} (workflowId {3}). The explorer follows it live.',
          product.service,
          product.model,
          workflowStatusWords(w.status),
          w.workflowId,
        ),
      );
      return w;
    }
    case 'not-sent':
      s.output.info(
        vscode.l10n.t(
          '{0}: the start (correlationId {1}) was cancelled before it was sent',
          env.name,
          req.correlationId,
        ),
      );
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'The start was cancelled before the service took it: no workflow was started, nothing was billed.',
        ),
      );
      return undefined;
    case 'outcome-unknown':
      if (outcome.cause === 'stopped-after-send') return afterCancelledStart(s, env, req);
      // The answer was lost after the request left: the service may hold the workflow. Look before offering anything.
      if (outcome.cause === 'answer-lost') return afterLostAnswer(s, env, req, outcome);
      void showError(s.output, vscode.l10n.t('Start workflow'), outcome.error ?? new Error(outcome.detail), {
        billed: true,
      });
      return undefined;
  }
}

/** The environment the user confirmed is not the one its name resolves to now (a settings edit, a restarted
 * sandbox): nothing was sent. Starting again asks again, for the environment as it is now. */
function environmentChangedBeforeStart(
  s: Services,
  err: EnvironmentChanged,
  asked: boolean,
  args: StartWorkflowArgs,
): undefined {
  const when = asked
    ? vscode.l10n.t('while you confirmed the billed start')
    : vscode.l10n.t('before the billed start was sent');
  const message = vscode.l10n.t(
    '{0} changed {1} ({2}): nothing was started or billed. Check the environment, then start again to {3} the start to the address it has now.',
    err.env.name,
    when,
    environmentChange(err.env, err.now),
    asked ? vscode.l10n.t('confirm') : vscode.l10n.t('send'),
  );
  s.output.warn(message);
  void vscode.window
    .showWarningMessage(message, vscode.l10n.t('Start Again'))
    .then((a) => a && vscode.commands.executeCommand(COMMANDS.startWorkflow, args));
  return undefined;
}

/** Cancelled after the request was sent: like a lost answer, the service may hold (and bill) the workflow. What it
 * holds under the correlationId is added to the explorer, to be followed and reconfirmed there. */
async function afterCancelledStart(
  s: Services,
  env: Environment,
  args: Required<StartWorkflowArgs>,
): Promise<TrackedWorkflow | undefined> {
  const { correlationId } = args;
  const cancelled = vscode.l10n.t(
    'The start of {0} / {1} in {2} was cancelled after its request was sent: a workflow may have been started and billed (correlationId {3}).',
    args.product.service,
    args.product.model,
    args.sessionId,
    correlationId,
  );
  s.output.warn(vscode.l10n.t('{0}: {1} Searching Find Workflows by that correlationId.', env.name, cancelled));
  let found: TrackedWorkflow[] = [];
  try {
    found = await s.workflows.find(env, correlationId);
  } catch (findErr) {
    s.output.error(vscode.l10n.t('Find Workflows after a cancelled start failed: {0}', errorInUserWords(findErr)));
  }
  const next =
    found.length > 0
      ? vscode.l10n.t(
          '{0} holds {1} with that correlationId: it is in the explorer, to follow and reconfirm there.',
          env.name,
          found.length === 1 ? vscode.l10n.t('one (workflowId {0})', found[0]!.workflowId) : `${found.length}`,
        )
      : vscode.l10n.t('Find Workflows by that correlationId before starting another.');
  void vscode.window
    .showWarningMessage(`${cancelled} ${next}`, vscode.l10n.t('Find Workflows'), vscode.l10n.t('Copy correlationId'))
    .then(async (a) => {
      if (a === vscode.l10n.t('Find Workflows'))
        await vscode.commands.executeCommand(COMMANDS.findWorkflows, { correlationId, environment: env.name });
      if (a === vscode.l10n.t('Copy correlationId')) await vscode.env.clipboard.writeText(correlationId);
    });
  return found[0];
}

async function afterLostAnswer(
  s: Services,
  env: Environment,
  args: Required<StartWorkflowArgs>,
  lost: StartOutcomeUnknown,
): Promise<TrackedWorkflow | undefined> {
  const why = lost.error ? errorInUserWords(lost.error) : lost.detail;
  s.output.warn(
    vscode.l10n.t(
      '{0}: no answer to the start ({1}); searching Find Workflows by correlationId {2}',
      env.name,
      why,
      args.correlationId,
    ),
  );
  let found: TrackedWorkflow[];
  try {
    found = await s.workflows.find(env, args.correlationId);
  } catch (findErr) {
    void showError(s.output, vscode.l10n.t('Start workflow'), lost.error ?? new Error(lost.detail), { billed: true });
    s.output.error(vscode.l10n.t('Find Workflows after a lost answer failed: {0}', errorInUserWords(findErr)));
    return undefined;
  }
  if (found.length > 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        "The start's answer was lost ({0}), but the service holds the workflow with correlationId {1}: it is in the explorer.",
        why,
        args.correlationId,
      ),
    );
    return found[0];
  }
  const again = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      "The start's answer was lost ({0}), and Find Workflows holds no workflow with correlationId {1}: nothing was started. Start it again?",
      why,
      args.correlationId,
    ),
    vscode.l10n.t('Start Again'),
  );
  // The same correlationId again: a later search finds whichever start the service kept.
  return again === vscode.l10n.t('Start Again') ? startWorkflow(s, args) : undefined;
}

async function pickSession(s: Services, env: Environment): Promise<string | undefined> {
  const sessions = s.workflows.store.sessions(env);
  const ADD = vscode.l10n.t('$(add) Add a session…');
  const pick = await vscode.window.showQuickPick([...sessions.map((id) => ({ label: id })), { label: ADD }], {
    title: vscode.l10n.t('Start workflow: session'),
    placeHolder: vscode.l10n.t('The session whose staged loan the workflow is for'),
  });
  if (!pick) return undefined;
  if (pick.label === ADD)
    return (await vscode.commands.executeCommand<string | undefined>(COMMANDS.addSession)) ?? undefined;
  return pick.label;
}

/** The environment's products, and free text for any other ("Service / Model"). */
function pickProduct(products: Product[]): Promise<Product | undefined> {
  return pickOrType<Product>({
    title: vscode.l10n.t('Start workflow: product'),
    placeholder: vscode.l10n.t('Choose a product, or type "Service / Model"'),
    ignoreCase: true,
    items: products.map((p) => ({ label: `${p.service} / ${p.model}`, value: p })),
    fromText: (text) => {
      const m = /^\s*([^/]+?)\s*\/\s*(.+?)\s*$/.exec(text);
      return m
        ? {
            label: `${m[1]} / ${m[2]}`,
            description: vscode.l10n.t('other product'),
            value: { service: m[1]!, model: m[2]! },
          }
        : undefined;
    },
  });
}
