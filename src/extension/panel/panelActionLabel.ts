// Each panel action as its button reads (media/panel/panel.js, the same messages): what an error about it is titled.
import * as vscode from 'vscode';
import type { PanelAction } from './panelProtocol';

export function panelActionLabel(action: PanelAction): string {
  switch (action) {
    case 'replay-local':
      return vscode.l10n.t('Replay to Receiver');
    case 'replay-forward':
      return vscode.l10n.t('Replay to Forward Target');
    case 'replay-fresh':
      return vscode.l10n.t('Replay with New Id');
    case 'copy-curl':
      return vscode.l10n.t('Copy as curl');
    case 'copy-powershell':
      return vscode.l10n.t('Copy as PowerShell');
    case 'copy-cmd':
      return vscode.l10n.t('Copy as curl for cmd.exe');
    case 'edit-resend':
      return vscode.l10n.t('Edit and Resend');
    case 'send-changes':
      return vscode.l10n.t('Send with Changes');
    case 'save-fixture':
      return vscode.l10n.t('Save as Fixture');
    case 'export-one':
      return vscode.l10n.t('Export');
    case 'export-all':
      return vscode.l10n.t('Export All');
    case 'jump':
      return vscode.l10n.t('Go to Workflow');
  }
}
