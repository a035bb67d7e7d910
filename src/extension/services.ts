// The services a command may use; built once by compose() (composition.ts) and handed to each command module.
import type { Clock } from '../core/time';
import type { AuthService } from './auth/authService';
import type { EnvironmentRegistry } from './environments/environmentRegistry';
import type { ExplorerTree } from './explorer/explorerTree';
import type { ExtensionLog } from './log/extensionLog';
import type { ReceiverHost } from './receiver/receiverHost';
import type { SandboxHost } from './sandboxHost';
import type { SandboxSigning } from './sandboxSigning';
import type { WorkflowService } from './workflows/workflowService';
import type * as vscode from 'vscode';

export interface Services {
  output: ExtensionLog;
  clock: Clock;
  sandbox: SandboxHost;
  environments: EnvironmentRegistry;
  auth: AuthService;
  workflows: WorkflowService;
  receiver: ReceiverHost;
  /** What the editor signs with the sandbox's key and where it sends it (sandboxSigning.ts). */
  signing: SandboxSigning;
  explorer: ExplorerTree;
  state: vscode.Memento;
}
