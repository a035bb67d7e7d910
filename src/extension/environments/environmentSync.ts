// The one place that orders what follows a change of environments: the setting edited, the sandbox started,
// restarted (a new origin) or stopped. Each follower drops what it holds for values that no longer resolve, in
// this order: sign-ins first (nothing may use an old token), then pollers and the workflow store, then the
// receiver's trust; views hear of it last, through EnvironmentRegistry.onDidChange.
import * as vscode from 'vscode';
import { errorInUserWords } from '../coreWords';
import { Disposable } from '../disposable';
import type { Environment } from '../../core/environments';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';
import type { EnvironmentRegistry } from './environmentRegistry';
import { SETTINGS } from '../settingKeys';
import { onDidChangeSettings } from '../settings';

export interface EnvironmentFollower {
  /** Keeps what belongs to these values (the ones resolving now); lets go of the rest. */
  retain(current: readonly Environment[]): void | Promise<void>;
}

export class EnvironmentSync extends Disposable {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly environments: EnvironmentRegistry,
    sandbox: SandboxHost,
    private readonly followers: readonly EnvironmentFollower[],
    private readonly output: ExtensionLog,
  ) {
    super();
    this.registerAll(
      onDidChangeSettings((affects) => {
        if (!affects(SETTINGS.environments)) return;
        environments.read();
        this.follow();
      }),
      sandbox.onDidChange(() => this.follow()),
    );
  }

  /** Runs one pass after the pending one: each reads the values resolving when it runs, so a late pass never
   * drops a newer value. */
  private follow(): void {
    this.queue = this.queue.then(async () => {
      const current = this.environments.all();
      for (const f of this.followers) {
        try {
          await f.retain(current);
        } catch (err) {
          this.output.error(vscode.l10n.t('Environments: {0}', errorInUserWords(err)));
        }
      }
      this.environments.announce();
    });
  }
}
