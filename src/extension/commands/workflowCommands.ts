// Start (billed: a modal confirmation unless turned off), refresh, reconfirm, open raw JSON, copy ids, remove.
import * as vscode from 'vscode';
import { EnvironmentChanged, environmentChange, serviceOrigin, type Environment } from '../../core/environments';
import { ServiceError, TransportError } from '../../core/http';
import { restrictedModeRefusal, type GuardedAction } from '../trust/restrictedMode';
import {
  type BilledStartOutcome,
  checkCorrelationId,
  findByCorrelationId,
  generateCorrelationId,
  type StartOutcomeUnknown,
  type Product,
  type TrackedWorkflow,
} from '../../core/workflows';
import { showError } from '../errors/showError';
import type { ExplorerNode } from '../explorer/explorerTree';
import { workflowJsonUri } from '../explorer/workflowJsonDocuments';
import type { Services } from '../services';
import { pickOrType } from './pickOrType';
import { COMMANDS } from '../commandIds';
import { setting } from '../settings';

interface StartWorkflowArgs {
  sessionId?: string;
  product?: Product;
  correlationId?: string;
}

type WorkflowNode = Extract<ExplorerNode, { kind: 'workflow' }>;

export function registerWorkflowCommands(s: Services): vscode.Disposable[] {
  const copy = (field: 'workflowId' | 'runId' | 'correlationId') => async (node?: WorkflowNode) => {
    const w = await nodeOrPick(s, node, `Copy ${field}`);
    if (!w) return;
    await vscode.env.clipboard.writeText(w[field]);
    vscode.window.setStatusBarMessage(`Copied ${field} ${w[field]}`, 3000);
    return w[field];
  };
  return [
    vscode.commands.registerCommand(COMMANDS.startWorkflow, (arg?: ExplorerNode | StartWorkflowArgs) =>
      startWorkflow(
        s,
        arg && 'kind' in arg ? (arg.kind === 'session' ? { sessionId: arg.sessionId } : {}) : (arg ?? {}),
      ),
    ),
    vscode.commands.registerCommand(COMMANDS.findWorkflows, (args?: FindWorkflowsArgs) => findWorkflows(s, args ?? {})),
    vscode.commands.registerCommand(COMMANDS.refreshWorkflow, (node?: WorkflowNode) => refreshWorkflow(s, node)),
    vscode.commands.registerCommand(COMMANDS.refresh, () => refreshAll(s)),
    vscode.commands.registerCommand(COMMANDS.reconfirmWorkflow, (node?: WorkflowNode) => reconfirmWorkflow(s, node)),
    vscode.commands.registerCommand(COMMANDS.openWorkflowJson, async (node?: WorkflowNode) => {
      const w = await nodeOrPick(s, node, 'Open Raw JSON');
      if (!w) return;
      const doc = await vscode.workspace.openTextDocument(workflowJsonUri(w.env, w.workflowId));
      await vscode.languages.setTextDocumentLanguage(doc, 'json');
      await vscode.window.showTextDocument(doc, { preview: true });
      return doc.uri.toString();
    }),
    vscode.commands.registerCommand(COMMANDS.copyWorkflowId, copy('workflowId')),
    vscode.commands.registerCommand(COMMANDS.copyRunId, copy('runId')),
    vscode.commands.registerCommand(COMMANDS.copyCorrelationId, copy('correlationId')),
    vscode.commands.registerCommand(COMMANDS.removeWorkflow, (node?: WorkflowNode) => {
      if (node?.kind === 'workflow') s.workflows.remove(node.env, node.workflowId);
    }),
  ];
}

/** A workflow with the Environment value it belongs to. */
type WorkflowInEnv = TrackedWorkflow & { env: Environment };

/** The node's workflow, in the value the node was shown for; or one picked from the current environment's. */
async function nodeOrPick(
  s: Services,
  node: WorkflowNode | undefined,
  title: string,
  filter?: (w: TrackedWorkflow) => boolean,
): Promise<WorkflowInEnv | undefined> {
  if (!node) return pickWorkflow(s, title, filter);
  const w = s.workflows.store.workflow(node.env, node.workflowId);
  return w && { ...w, env: node.env };
}

async function pickWorkflow(
  s: Services,
  title: string,
  filter: (w: TrackedWorkflow) => boolean = () => true,
): Promise<WorkflowInEnv | undefined> {
  const env = s.environments.current;
  const list = env ? s.workflows.store.workflows(env).filter(filter) : [];
  if (!env || list.length === 0) {
    void vscode.window.showInformationMessage(`No workflows in ${s.environments.currentName} to choose from.`);
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    list
      .slice()
      .reverse()
      .map((w) => ({
        label: `${w.product.service} / ${w.product.model}`,
        description: `${w.status} · ${w.sessionId}`,
        detail: `workflowId ${w.workflowId} · correlationId ${w.correlationId}`,
        w,
      })),
    { title, matchOnDetail: true },
  );
  return pick && { ...pick.w, env };
}

/** Restricted Mode: a real environment's billed start waits for workspace trust. The warning is not awaited: a
 * notification stays until closed, and the command's caller must learn at once that nothing was started. */
function allowedInThisWorkspace(action: GuardedAction, envName: string): boolean {
  const refusal = restrictedModeRefusal(action, envName, vscode.workspace.isTrusted);
  if (!refusal) return true;
  void vscode.window
    .showWarningMessage(refusal, 'Manage Workspace Trust')
    .then((a) => a && vscode.commands.executeCommand('workbench.trust.manage'));
  return false;
}

async function startWorkflow(s: Services, args: StartWorkflowArgs): Promise<TrackedWorkflow | undefined> {
  if (!allowedInThisWorkspace('start', s.environments.currentName)) return undefined;
  // The name is resolved once, here: the value is what the user confirms and what the start is sent to.
  let env: Environment, manager;
  try {
    env = s.environments.resolve(s.environments.currentName);
    manager = await s.auth.require(env);
  } catch (err) {
    void showError(s.output, 'Start workflow', err);
    return undefined;
  }
  const sessionId = args.sessionId ?? (await pickSession(s, env));
  if (!sessionId) return undefined;
  const product = args.product ?? (await pickProduct(env.products));
  if (!product) return undefined;
  const suggested = generateCorrelationId(s.clock.now());
  const correlationId =
    args.correlationId ??
    (await vscode.window.showInputBox({
      title: 'Start workflow: correlationId',
      prompt:
        'A distinctive id to find this workflow by (Find Workflows), should the answer be lost. The generated one is unique.',
      value: suggested,
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          checkCorrelationId(v);
          return undefined;
        } catch (err) {
          return (err as Error).message;
        }
      },
    }));
  if (!correlationId) return undefined;
  const asked = setting('confirmBilledStart');
  if (asked) {
    const ok = await vscode.window.showWarningMessage(
      `Start a billed workflow?`,
      {
        modal: true,
        detail: `${product.service} / ${product.model} in session ${sessionId} on ${env.name} (${serviceOrigin(env)}).\nThe service bills every workflow it starts.\ncorrelationId: ${correlationId}\n\n(Turn this question off with the setting wfs.confirmBilledStart.)`,
      },
      'Start (Billed)',
    );
    if (ok !== 'Start (Billed)') return undefined;
  }
  const req = { sessionId, product, correlationId };
  try {
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Starting ${product.service} / ${product.model} in ${sessionId}…`,
        cancellable: true,
      },
      async (progress, token) => {
        // Say what is happening while the shared throttle holds the start, instead of a bare "Starting…".
        const off = manager.gate.onBackoff(({ delayMs }) =>
          progress.report({ message: `throttled by the service (429): retrying in ${Math.ceil(delayMs / 1000)} s` }),
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
    return renderStart(s, env, req, outcome);
  } catch (err) {
    if (err instanceof EnvironmentChanged) return environmentChangedBeforeStart(s, err, asked, args);
    if (err instanceof ServiceError && err.kind === 'not-found') {
      // The session itself is unknown there: say which, and offer to drop it from the explorer.
      s.output.error(`Start workflow: ${err.advice}`);
      void vscode.window
        .showErrorMessage(`Start workflow: ${err.advice}`, 'Remove from Explorer')
        .then((a) => a && s.workflows.removeSession(env, sessionId));
      return undefined;
    }
    void showError(s.output, 'Start workflow', err, { billed: true });
    return undefined;
  }
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
        `Started ${product.service} / ${product.model}: ${w.status} (workflowId ${w.workflowId}). The explorer follows it live.`,
      );
      return w;
    }
    case 'not-sent':
      s.output.info(`${env.name}: the start (correlationId ${req.correlationId}) was cancelled before it was sent`);
      void vscode.window.showInformationMessage(
        'The start was cancelled before the service took it: no workflow was started, nothing was billed.',
      );
      return undefined;
    case 'outcome-unknown':
      if (outcome.cause === 'stopped-after-send') return afterCancelledStart(s, env, req);
      // The answer was lost after the request left: the service may hold the workflow. Look before offering anything.
      if (outcome.cause === 'answer-lost') return afterLostAnswer(s, env, req, outcome);
      void showError(s.output, 'Start workflow', outcome.error ?? new Error(outcome.detail), { billed: true });
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
  const when = asked ? 'while you confirmed the billed start' : 'before the billed start was sent';
  const message = `${err.env.name} changed ${when} (${environmentChange(err.env, err.now)}): nothing was started or billed. Check the environment, then start again to ${asked ? 'confirm' : 'send'} the start to the address it has now.`;
  s.output.warn(message);
  void vscode.window
    .showWarningMessage(message, 'Start Again')
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
  const cancelled = `The start of ${args.product.service} / ${args.product.model} in ${args.sessionId} was cancelled after its request was sent: a workflow may have been started and billed (correlationId ${correlationId}).`;
  s.output.warn(`${env.name}: ${cancelled} Searching Find Workflows by that correlationId.`);
  let found: TrackedWorkflow[] = [];
  try {
    found = await s.workflows.find(env, correlationId);
  } catch (findErr) {
    s.output.error(`Find Workflows after a cancelled start failed: ${(findErr as Error).message}`);
  }
  const next =
    found.length > 0
      ? `${env.name} holds ${found.length === 1 ? `one (workflowId ${found[0]!.workflowId})` : `${found.length}`} with that correlationId: it is in the explorer, to follow and reconfirm there.`
      : 'Find Workflows by that correlationId before starting another.';
  void vscode.window
    .showWarningMessage(`${cancelled} ${next}`, 'Find Workflows', 'Copy correlationId')
    .then(async (a) => {
      if (a === 'Find Workflows')
        await vscode.commands.executeCommand(COMMANDS.findWorkflows, { correlationId, environment: env.name });
      if (a === 'Copy correlationId') await vscode.env.clipboard.writeText(correlationId);
    });
  return found[0];
}

async function afterLostAnswer(
  s: Services,
  env: Environment,
  args: Required<StartWorkflowArgs>,
  lost: StartOutcomeUnknown,
): Promise<TrackedWorkflow | undefined> {
  s.output.warn(
    `${env.name}: no answer to the start (${lost.detail}); searching Find Workflows by correlationId ${args.correlationId}`,
  );
  let found: TrackedWorkflow[];
  try {
    found = await s.workflows.find(env, args.correlationId);
  } catch (findErr) {
    void showError(s.output, 'Start workflow', lost.error ?? new Error(lost.detail), { billed: true });
    s.output.error(`Find Workflows after a lost answer failed: ${(findErr as Error).message}`);
    return undefined;
  }
  if (found.length > 0) {
    void vscode.window.showInformationMessage(
      `The start's answer was lost (${lost.detail}), but the service holds the workflow with correlationId ${args.correlationId}: it is in the explorer.`,
    );
    return found[0];
  }
  const again = await vscode.window.showWarningMessage(
    `The start's answer was lost (${lost.detail}), and Find Workflows holds no workflow with correlationId ${args.correlationId}: nothing was started. Start it again?`,
    'Start Again',
  );
  // The same correlationId again: a later search finds whichever start the service kept.
  return again === 'Start Again' ? startWorkflow(s, args) : undefined;
}

interface FindWorkflowsArgs {
  correlationId?: string;
  environment?: string;
}

/** Find Workflows by a correlationId typed or picked from this environment's starts; adds what it finds. */
async function findWorkflows(s: Services, args: FindWorkflowsArgs): Promise<TrackedWorkflow[] | undefined> {
  let env: Environment;
  try {
    env = s.environments.resolve(args.environment ?? s.environments.currentName);
  } catch (err) {
    void showError(s.output, 'Find Workflows', err);
    return undefined;
  }
  const recent = [...s.workflows.store.workflows(env)].reverse().filter((w) => w.correlationId);
  const correlationId =
    args.correlationId ??
    (await pickOrType<string>({
      title: `Find Workflows on ${env.name}: correlationId`,
      placeholder: 'Type a correlationId, or pick one of your starts',
      items: recent.map((w) => ({
        label: w.correlationId,
        description: `${w.product.service} / ${w.product.model} · ${w.sessionId}`,
        value: w.correlationId,
      })),
      fromText: (text) =>
        text.trim()
          ? { label: text.trim(), description: 'search for this correlationId', value: text.trim() }
          : undefined,
    }));
  if (!correlationId) return undefined;
  try {
    // Copied with its quotes ("wfs-…" from a JSON line): "none" would say to start again, and bill twice.
    const { found, searched, copied } = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Searching ${env.name} for correlationId ${correlationId}…`,
      },
      () => findByCorrelationId((id) => s.workflows.find(env, id), correlationId),
    );
    if (found.length === 0)
      void vscode.window.showInformationMessage(
        `${env.name} holds no workflow with correlationId ${correlationId}${copied !== undefined ? `, nor with ${copied}` : ''}.`,
      );
    else {
      const list = found
        .map((w) => `${w.product.service} / ${w.product.model} in ${w.sessionId} (${w.status}, ${w.workflowId})`)
        .join('; ');
      const asTyped =
        searched === correlationId
          ? ''
          : `No workflow carries the correlationId as typed (${JSON.stringify(correlationId)}), but without the quotes or spaces copying added, `;
      void vscode.window.showInformationMessage(
        `${asTyped}${env.name} holds ${found.length === 1 ? 'one workflow' : `${found.length} workflows`} with correlationId ${searched}: ${list}. Added to the explorer.`,
      );
      void vscode.commands.executeCommand(COMMANDS.revealWorkflowByRunId, found[0]!.runId);
    }
    return found;
  } catch (err) {
    void showError(s.output, 'Find Workflows', err);
    return undefined;
  }
}

async function pickSession(s: Services, env: Environment): Promise<string | undefined> {
  const sessions = s.workflows.store.sessions(env);
  const ADD = '$(add) Add a session…';
  const pick = await vscode.window.showQuickPick([...sessions.map((id) => ({ label: id })), { label: ADD }], {
    title: 'Start workflow: session',
    placeHolder: 'The session whose staged loan the workflow is for',
  });
  if (!pick) return undefined;
  if (pick.label === ADD)
    return (await vscode.commands.executeCommand<string | undefined>(COMMANDS.addSession)) ?? undefined;
  return pick.label;
}

/** The environment's products, and free text for any other ("Service / Model"). */
function pickProduct(products: Product[]): Promise<Product | undefined> {
  return pickOrType<Product>({
    title: 'Start workflow: product',
    placeholder: 'Choose a product, or type "Service / Model"',
    ignoreCase: true,
    items: products.map((p) => ({ label: `${p.service} / ${p.model}`, value: p })),
    fromText: (text) => {
      const m = /^\s*([^/]+?)\s*\/\s*(.+?)\s*$/.exec(text);
      return m
        ? { label: `${m[1]} / ${m[2]}`, description: 'other product', value: { service: m[1]!, model: m[2]! } }
        : undefined;
    },
  });
}

async function refreshWorkflow(s: Services, node?: WorkflowNode): Promise<TrackedWorkflow | undefined> {
  const w = await nodeOrPick(s, node, 'Refresh workflow');
  if (!w) return undefined;
  try {
    return await s.workflows.refresh(w.env, w.workflowId);
  } catch (err) {
    void showError(s.output, `Refresh of ${w.workflowId}`, err);
    return undefined;
  }
}

async function refreshAll(s: Services): Promise<void> {
  const env = s.environments.current;
  if (!env || s.workflows.store.workflows(env).length === 0) return;
  const r = await vscode.window.withProgress(
    { location: { viewId: 'wfs.explorer' }, title: 'Refreshing workflows' },
    () => s.workflows.refreshAll(env),
  );
  if (r.failed)
    void vscode.window
      .showWarningMessage(
        `${r.failed} of ${r.read + r.failed} workflows could not be read; see the tooltips or the log.`,
        'Show Log',
      )
      .then((a) => a && s.output.show());
}

async function reconfirmWorkflow(s: Services, node?: WorkflowNode): Promise<TrackedWorkflow | undefined> {
  const w = await nodeOrPick(s, node, 'Reconfirm workflow', (x) => x.reconfirmAvailable);
  if (!w) return undefined;
  const env = w.env;
  // The store's record is updated in place by later reads: the run this reconfirm starts from, as it is now.
  const earlierRunId = w.runId;
  try {
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Reconfirming ${w.workflowId}…` },
      () => s.workflows.reconfirm(env, w.workflowId),
    );
    void vscode.window.showInformationMessage(`Reconfirmed ${w.workflowId}: ${r.status}.`);
    return r;
  } catch (err) {
    if (err instanceof TransportError && err.mayHaveBeenSent)
      return afterLostReconfirm(s, env, w.workflowId, earlierRunId, err);
    void showError(s.output, `Reconfirm of ${w.workflowId}`, err, { billed: true });
    return undefined;
  }
}

/** A reconfirm is billed like a start: sent and its answer lost, it may have taken place. The workflow read again
 * says which (a reconfirm starts a new run: its runId changes). */
async function afterLostReconfirm(
  s: Services,
  env: Environment,
  workflowId: string,
  earlierRunId: string,
  err: TransportError,
): Promise<TrackedWorkflow | undefined> {
  s.output.warn(
    `${env.name}: no answer to the reconfirm of ${workflowId} (${err.message}); reading it again to see whether a new run started`,
  );
  let now: TrackedWorkflow;
  try {
    now = await s.workflows.refresh(env, workflowId);
  } catch (readErr) {
    // Neither answer: whether the billed reconfirm took place is unknown until the workflow can be read.
    const message = `The reconfirm's answer was lost (${err.message}), and ${workflowId} could not be read to see whether it took place (${(readErr as Error).message}). It may have been reconfirmed and billed: refresh the workflow (a new runId means it was) before reconfirming again.`;
    s.output.error(message);
    void vscode.window
      .showErrorMessage(message, 'Refresh Workflow')
      .then(
        (a) => a && vscode.commands.executeCommand(COMMANDS.refreshWorkflow, { kind: 'workflow', env, workflowId }),
      );
    return undefined;
  }
  if (now.runId !== earlierRunId) {
    void vscode.window.showInformationMessage(
      `The reconfirm's answer was lost (${err.message}), but ${workflowId} shows a new run (${now.runId}): it was reconfirmed.`,
    );
    return now;
  }
  const again = await vscode.window.showWarningMessage(
    `The reconfirm's answer was lost (${err.message}), and ${workflowId} still shows its earlier run (${earlierRunId}): it was not reconfirmed. Reconfirm again?`,
    'Reconfirm Again',
  );
  return again === 'Reconfirm Again' ? reconfirmWorkflow(s, { kind: 'workflow', env, workflowId }) : undefined;
}
