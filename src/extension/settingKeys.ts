// The keys of the extension's settings, in full (wfs.…): package.json's contributes.configuration, one for one
// (test/unit/extension/manifestIds.test.ts). They are read only through settings.ts.

export const SETTINGS = {
  environments: 'wfs.environments',
  confirmBilledStart: 'wfs.confirmBilledStart',
  authRememberPasswordForSilentSignIn: 'wfs.auth.rememberPasswordForSilentSignIn',
  pollingDeadlineMinutes: 'wfs.polling.deadlineMinutes',
  sandboxWorkflowDurationSeconds: 'wfs.sandbox.workflowDurationSeconds',
  sandboxProfile: 'wfs.sandbox.profile',
  receiverPort: 'wfs.receiver.port',
  receiverPublicAddress: 'wfs.receiver.publicAddress',
  receiverPublicUrl: 'wfs.receiver.publicUrl',
  receiverPublicPathCheckSeconds: 'wfs.receiver.publicPathCheckSeconds',
  receiverTunnel: 'wfs.receiver.tunnel',
  receiverTunnelHost: 'wfs.receiver.tunnelHost',
  receiverTunnelSubdomain: 'wfs.receiver.tunnelSubdomain',
  receiverForwardTo: 'wfs.receiver.forwardTo',
  receiverForward: 'wfs.receiver.forward',
  receiverForwardPassThrough: 'wfs.receiver.forwardPassThrough',
  receiverHistoryMemoryMiB: 'wfs.receiver.historyMemoryMiB',
  receiverHistoryDiskMiB: 'wfs.receiver.historyDiskMiB',
  receiverHistoryStorage: 'wfs.receiver.historyStorage',
  fixturesFolder: 'wfs.fixtures.folder',
} as const;
