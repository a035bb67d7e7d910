// The editor's sandbox delivery faults: Add Sandbox Delivery Fault… (a kind, its option, a seed) and Clear Sandbox
// Delivery Faults, on the sandbox the extension runs. The setting, its checks and its words are core's
// (deliveryFaults.ts); with arguments (a test, a walkthrough step) no question is asked.
import * as vscode from 'vscode';
import {
  DELIVERY_FAULT_KINDS,
  deliveryFaultsSaid,
  isDeliveryFaultKind,
  type DeliveryFaultKind,
  type DeliveryFaultRequest,
  type DeliveryFaults,
} from '../../core/sandbox';
import type { SandboxHost } from '../sandboxHost';
import { COMMANDS } from '../commandIds';
import { errorInUserWords, inUserWords } from '../coreWords';

function kindDescription(kind: DeliveryFaultKind): string {
  switch (kind) {
    case 'duplicate':
      return vscode.l10n.t('the same event again, same webhookId');
    case 'reorder':
      return vscode.l10n.t("a workflow's events in another order");
    case 'delay':
      return vscode.l10n.t('each delivery held back');
    case 'retry-storm':
      return vscode.l10n.t('after a 5xx, the retry schedule compressed');
    case 'burst':
      return vscode.l10n.t('each delivery several times at once');
  }
}

/** The one option a kind takes, asked as a whole number; undefined when cancelled. */
async function askOption(kind: DeliveryFaultKind): Promise<Partial<DeliveryFaultRequest> | undefined> {
  const ask = (prompt: string, value: string) => vscode.window.showInputBox({ prompt, value });
  if (kind === 'reorder') return {};
  const answer =
    kind === 'duplicate'
      ? await ask(vscode.l10n.t('Copies of each event (1 to 10)'), '1')
      : kind === 'burst'
        ? await ask(vscode.l10n.t('Deliveries at once (2 to 50)'), '5')
        : kind === 'retry-storm'
          ? await ask(vscode.l10n.t('Divide the retry schedule by (2 to 1000)'), '10')
          : await ask(vscode.l10n.t('Delay in milliseconds: fixed (2000), or a range (500-3000)'), '2000');
  if (answer === undefined) return undefined;
  const [a, b] = answer.split('-').map((t) => Number(t.trim()));
  if (kind === 'delay') return { delayMs: a, ...(b === undefined ? {} : { maxDelayMs: b }) };
  return kind === 'retry-storm' ? { factor: a } : { count: a };
}

/** The request from the user: kind, its option, and a seed (empty: a new one). */
async function askRequest(): Promise<DeliveryFaultRequest | undefined> {
  const picked = await vscode.window.showQuickPick(
    DELIVERY_FAULT_KINDS.map((kind) => ({ label: kind, description: kindDescription(kind), fault: kind })),
    {
      title: vscode.l10n.t('Add Sandbox Delivery Fault'),
      placeHolder: vscode.l10n.t('What the sandbox does to its deliveries'),
    },
  );
  if (!picked) return undefined;
  const option = await askOption(picked.fault);
  if (!option) return undefined;
  const seed = await vscode.window.showInputBox({
    prompt: vscode.l10n.t('Seed, so a run repeats exactly (empty: a new one)'),
  });
  if (seed === undefined) return undefined;
  return { fault: picked.fault, ...option, ...(seed.trim() === '' ? {} : { seed: Number(seed) }) };
}

async function addDeliveryFault(
  sandbox: SandboxHost,
  args?: Partial<DeliveryFaultRequest>,
): Promise<DeliveryFaults | undefined> {
  const request = args && isDeliveryFaultKind(args.fault) ? (args as DeliveryFaultRequest) : await askRequest();
  if (!request) return undefined;
  try {
    const faults = await sandbox.addDeliveryFault(request);
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Sandbox delivery faults now: {0}. Each delivery says what was done.',
        inUserWords(deliveryFaultsSaid(faults)),
      ),
    );
    return faults;
  } catch (err) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('The delivery fault was not set: {0}. Nothing changed.', errorInUserWords(err)),
    );
    return undefined;
  }
}

export function registerSandboxFaultCommands(sandbox: SandboxHost): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.addSandboxDeliveryFault, (args?: Partial<DeliveryFaultRequest>) =>
      addDeliveryFault(sandbox, args && typeof args === 'object' ? args : undefined),
    ),
    vscode.commands.registerCommand(COMMANDS.clearSandboxDeliveryFaults, () => {
      const had = sandbox.clearDeliveryFaults();
      void vscode.window.showInformationMessage(
        had ? vscode.l10n.t('Sandbox delivery faults cleared.') : vscode.l10n.t('The sandbox had no delivery faults.'),
      );
      return had;
    }),
  ];
}
