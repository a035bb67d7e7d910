// Entry point. The services are built in composition.ts; activate() exports nothing, so no other extension can
// reach them (or SecretStorage) through vscode.extensions.getExtension(…).exports. Peers ask the Accounts
// provider for a session instead, with the user's consent.
import type * as vscode from 'vscode';
import { compose } from './composition';

export function activate(context: vscode.ExtensionContext): void {
  compose(context);
}

export { deactivate } from './composition';
