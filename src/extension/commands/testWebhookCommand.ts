// Send Test Webhook: topic / sub-topic / tenant remembered; testData from the built-in template, the active
// JSON editor or a file; the address defaults to the receiver (its public URL, or loopback for the sandbox).
import * as vscode from 'vscode';
import { readBoundedFile } from '../boundedFile';
import { isLoopbackHost, testEndpointIsLocal } from '../../core/http';
import { randomUUID } from 'node:crypto';
import { triggeredAtTimestamp } from '../../core/time';
import { buildTestWebhookRequest, sendTestWebhook, testWebhookIds, type TestWebhookOutcome } from '../../core/webhooks';
import { showError } from '../errors/showError';
import { inUserWords } from '../coreWords';
import { WaitsForTrust } from '../trust/restrictedMode';
import type { Services } from '../services';
import { COMMANDS } from '../commandIds';

const LAST_KEY = 'wfs.testWebhook.last';

interface TestWebhookArgs {
  topic?: string;
  subTopic?: string;
  tenantId?: string;
  /** "template" for the built-in template, "none" for no testData, or the JSON value itself. */
  testData?: unknown;
  address?: string;
}

interface Remembered {
  topic: string;
  subTopic: string;
  tenantId: string;
}

export function registerTestWebhookCommand(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.sendTestWebhook, (args?: TestWebhookArgs) =>
      sendTestWebhookCommand(s, args ?? {}),
    ),
  ];
}

/** An event-shaped body: the receiver and the panel then show it as any delivery, tied to the latest workflow. */
function testDataTemplate(h: Remembered, nowMs: number, runId?: string): Record<string, unknown> {
  return {
    webhookId: randomUUID(),
    topic: h.topic,
    subTopic: h.subTopic,
    tenantId: h.tenantId,
    triggeredAt: triggeredAtTimestamp(nowMs),
    actorId: 'actor-test',
    data: { runId: runId ?? 'wfrun_test', note: 'sent by Workflow Service Toolkit: Send Test Webhook' },
  };
}

/** What the command returns (to a caller, a test, the walkthrough): the ids, and core's reading of the answer. */
export interface TestWebhookCommandResult {
  webhookId: string;
  address: string;
  outcome: TestWebhookOutcome;
}

async function sendTestWebhookCommand(
  s: Services,
  args: TestWebhookArgs,
): Promise<TestWebhookCommandResult | undefined> {
  let env, manager;
  try {
    env = s.environments.resolve(s.environments.currentName);
    manager = await s.auth.require(env);
  } catch (err) {
    void showError(s.output, vscode.l10n.t('Send test webhook'), err);
    return undefined;
  }
  const headers = await askHeaders(s, args);
  if (!headers) return undefined;
  const latestRunId = s.workflows.store.workflows(env).at(-1)?.runId;
  let testData: unknown;
  if (args.testData === undefined) {
    const r = await chooseTestData(headers, s.clock.now(), latestRunId);
    if (r === 'cancelled') return undefined;
    testData = r.value;
  } else if (args.testData === 'template') testData = testDataTemplate(headers, s.clock.now(), latestRunId);
  else testData = args.testData === 'none' ? undefined : args.testData;

  // A service on this machine (the sandbox, or a `wfs sandbox` standing in for staging) reaches loopback addresses;
  // the real service needs a public https one. core/http draws the line for the CLI too.
  const serviceIsLocal = testEndpointIsLocal(env.testWebhookUrl);
  const address = args.address ?? (await askAddress(s, env.name, serviceIsLocal));
  if (!address) return undefined;
  try {
    // Restricted Mode: the sandbox may deliver on this machine only (a real environment already waited above).
    const host = URL.canParse(address.trim()) ? new URL(address.trim()).hostname : '';
    if (host && !isLoopbackHost(host) && !vscode.workspace.isTrusted)
      throw new WaitsForTrust(vscode.l10n.t('Sending a test webhook to {0}', host));
    const request = buildTestWebhookRequest(
      { address: address.trim(), ...headers, testData },
      s.clock.now(),
      serviceIsLocal,
    );
    s.output.info(
      vscode.l10n.t('{0}: send test webhook {1} ({2}) to {3}', env.name, request.webhookId, headers.topic, address),
    );
    const { outcome } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Sending a test webhook…') },
      () => sendTestWebhook(env.testWebhookUrl, request, { tokens: manager, gate: manager.gate, clock: s.clock }),
    );
    const ids = testWebhookIds(request);
    showOutcome(s, env.name, ids, address, outcome);
    return { webhookId: ids.webhookId, address, outcome };
  } catch (err) {
    void showError(s.output, vscode.l10n.t('Send test webhook'), err);
    return undefined;
  }
}

/** Topic, sub-topic and tenant: from the arguments, or asked with the last ones offered (and remembered). */
async function askHeaders(s: Services, args: TestWebhookArgs): Promise<Remembered | undefined> {
  const last = s.state.get<Remembered>(LAST_KEY) ?? {
    topic: 'workflow/completed',
    subTopic: 'event:workflow/completed',
    tenantId: 'tenant-demo',
  };
  const ask = async (title: string, value: string, prompt: string) =>
    vscode.window.showInputBox({
      title,
      value,
      prompt,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Required')),
    });
  const topic =
    args.topic ??
    (await ask(vscode.l10n.t('Send test webhook (1/5): topic'), last.topic, 'X-Svc-Topic, shape <group>/<name>'));
  if (!topic) return undefined;
  const subTopic =
    args.subTopic ??
    (await ask(
      vscode.l10n.t('Send test webhook (2/5): sub-topic'),
      last.subTopic,
      'X-Svc-Sub-Topic, shape <kind>:<group>/<name>',
    ));
  if (!subTopic) return undefined;
  const tenantId =
    args.tenantId ?? (await ask(vscode.l10n.t('Send test webhook (3/5): tenant'), last.tenantId, 'X-Svc-Tenant-Id'));
  if (!tenantId) return undefined;
  const headers = { topic: topic.trim(), subTopic: subTopic.trim(), tenantId: tenantId.trim() };
  await s.state.update(LAST_KEY, headers);
  return headers;
}

/** The address, asked with the receiver's offered (started first if the user wants): its loopback address for a
 * service on this machine, its public one otherwise. */
async function askAddress(s: Services, envName: string, serviceIsLocal: boolean): Promise<string | undefined> {
  let receiver = s.receiver.info;
  if (!receiver) {
    const start = await vscode.window.showInformationMessage(
      vscode.l10n.t('The webhook receiver is not running. Start it to receive the test webhook?'),
      vscode.l10n.t('Start Receiver'),
      vscode.l10n.t('Enter an Address'),
    );
    if (start === vscode.l10n.t('Start Receiver'))
      receiver = await vscode.commands.executeCommand(COMMANDS.startReceiver);
    else if (start !== vscode.l10n.t('Enter an Address')) return undefined;
  }
  const suggested = receiver ? (serviceIsLocal ? receiver.localUrl : (receiver.publicUrl ?? '')) : '';
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Send test webhook (5/5): address'),
    prompt: serviceIsLocal
      ? vscode.l10n.t('Where {0} sends it (it runs on this machine, so it reaches loopback addresses)', envName)
      : vscode.l10n.t('A public https URL (the receiver’s public address)'),
    value: suggested,
    ignoreFocusOut: true,
  });
}

/** What became of it, as core read the test endpoint's answer (the CLI prints the same summary): a failure, the
 * receiver's status named, as a warning; otherwise a notice. */
function showOutcome(
  s: Services,
  envName: string,
  ids: { webhookId: string; headerWebhookId?: string },
  address: string,
  outcome: TestWebhookOutcome,
): void {
  // The body's webhookId is the one the app sees and dedupes on; the header's is named when it differs.
  const shown = ids.headerWebhookId ? `${ids.webhookId} (X-Svc-Webhook-Id ${ids.headerWebhookId})` : ids.webhookId;
  const summary = inUserWords(outcome.summarySaid);
  const message = vscode.l10n.t('Test webhook {0} sent to {1}: {2}.', shown, address, summary);
  if (outcome.failed) {
    s.output.warn(vscode.l10n.t('{0}: test webhook {1}: {2}', envName, shown, summary));
    void vscode.window.showWarningMessage(message);
  } else {
    s.output.info(vscode.l10n.t('{0}: test webhook {1}: {2}', envName, shown, summary));
    void vscode.window.showInformationMessage(message);
  }
}

/** testData is one request body (the CLI's --data has the same bound). */
export const MAX_TEST_DATA_BYTES = 64 * 1024 * 1024;

async function chooseTestData(h: Remembered, now: number, runId?: string): Promise<{ value: unknown } | 'cancelled'> {
  const editor = vscode.window.activeTextEditor;
  const jsonEditor = editor && ['json', 'jsonc'].includes(editor.document.languageId) ? editor : undefined;
  const items: (vscode.QuickPickItem & { id: string })[] = [
    {
      id: 'template',
      label: vscode.l10n.t('$(file-code) Built-in template'),
      description: vscode.l10n.t('an event-shaped body with a fresh webhookId'),
    },
    ...(jsonEditor
      ? [
          {
            id: 'editor',
            label: vscode.l10n.t('$(edit) The active JSON editor'),
            description: vscode.workspace.asRelativePath(jsonEditor.document.uri),
          },
        ]
      : []),
    { id: 'file', label: vscode.l10n.t('$(folder-opened) A JSON file…') },
    {
      id: 'none',
      label: vscode.l10n.t('$(circle-slash) No testData'),
      description: vscode.l10n.t('the service sends its own simulated body'),
    },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Send test webhook (4/5): testData (sent as the HTTP body)'),
    ignoreFocusOut: true,
  });
  if (!pick) return 'cancelled';
  if (pick.id === 'template') return { value: testDataTemplate(h, now, runId) };
  if (pick.id === 'none') return { value: undefined };
  let text: string;
  let source: string;
  if (pick.id === 'editor') {
    text = jsonEditor!.document.getText();
    source = vscode.l10n.t('the active editor');
  } else {
    const uri = (
      await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { JSON: ['json'] },
        title: vscode.l10n.t('testData'),
      })
    )?.[0];
    if (!uri) return 'cancelled';
    try {
      text = new TextDecoder().decode(await readBoundedFile(uri, MAX_TEST_DATA_BYTES));
    } catch (err) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('The testData file could not be used: {0}. Nothing was sent.', (err as Error).message),
      );
      return 'cancelled';
    }
    source = uri.fsPath;
  }
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('The testData in {0} is not valid JSON: {1}. Nothing was sent.', source, (err as Error).message),
    );
    return 'cancelled';
  }
}
