// The ids of the commands the extension registers and runs. Those in COMMANDS are package.json's
// contributes.commands, one for one (test/unit/extension/manifestIds.test.ts); INTERNAL_COMMANDS are run by the
// extension only and are not listed there.

export const COMMANDS = {
  switchEnvironment: 'wfs.switchEnvironment',
  signIn: 'wfs.signIn',
  signOut: 'wfs.signOut',
  startSandbox: 'wfs.startSandbox',
  stopSandbox: 'wfs.stopSandbox',
  addSandboxDeliveryFault: 'wfs.addSandboxDeliveryFault',
  clearSandboxDeliveryFaults: 'wfs.clearSandboxDeliveryFaults',
  addSession: 'wfs.addSession',
  removeSession: 'wfs.removeSession',
  startWorkflow: 'wfs.startWorkflow',
  findWorkflows: 'wfs.findWorkflows',
  refresh: 'wfs.refresh',
  refreshWorkflow: 'wfs.refreshWorkflow',
  reconfirmWorkflow: 'wfs.reconfirmWorkflow',
  openWorkflowJson: 'wfs.openWorkflowJson',
  copyWorkflowId: 'wfs.copyWorkflowId',
  copyRunId: 'wfs.copyRunId',
  copyCorrelationId: 'wfs.copyCorrelationId',
  removeWorkflow: 'wfs.removeWorkflow',
  sendTestWebhook: 'wfs.sendTestWebhook',
  startReceiver: 'wfs.startReceiver',
  stopReceiver: 'wfs.stopReceiver',
  copyReceiverUrl: 'wfs.copyReceiverUrl',
  testPublicAddress: 'wfs.testPublicAddress',
  choosePublicAddress: 'wfs.choosePublicAddress',
  openWebhookPanel: 'wfs.openWebhookPanel',
  clearWebhookHistory: 'wfs.clearWebhookHistory',
  exportWebhookHistory: 'wfs.exportWebhookHistory',
  auditReceiver: 'wfs.auditReceiver',
  probeService: 'wfs.probeService',
  revealWorkflowByRunId: 'wfs.revealWorkflowByRunId',
  showLog: 'wfs.showLog',
  editAndResend: 'wfs.editAndResend',
  saveAsFixture: 'wfs.saveAsFixture',
  sendFixture: 'wfs.sendFixture',
  sendFixtureToReceiver: 'wfs.sendFixtureToReceiver',
  sendFixtureToApp: 'wfs.sendFixtureToApp',
  sendFixtureAsTestWebhook: 'wfs.sendFixtureAsTestWebhook',
  sendFixtureWithChanges: 'wfs.sendFixtureWithChanges',
  sendDeliveryWithChanges: 'wfs.sendDeliveryWithChanges',
  compareWithOriginal: 'wfs.compareWithOriginal',
} as const;

export const INTERNAL_COMMANDS = {
  /** The contract report's export without the dialog: for scripts and tests. */
  probeServiceExport: 'wfs.probeService.export',
  /** The focus command VS Code makes for the Workflows view. */
  explorerFocus: 'wfs.explorer.focus',
} as const;
