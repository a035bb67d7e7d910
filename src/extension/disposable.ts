// The one way a class in the extension holds what it must release: subscriptions, emitters, status bar items,
// watchers. Each is registered as it is made; dispose() releases them once, newest first (what was made later may
// depend on what was made earlier), and a second call does nothing. Only the type of vscode is used, so the unit
// tier runs it without a host.
import type * as vscode from 'vscode';

export class Disposable implements vscode.Disposable {
  private readonly held: vscode.Disposable[] = [];
  private disposed = false;

  /** Holds `d` until dispose(); once disposed, `d` is released at once (nothing registered late outlives us). */
  protected register<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.held.push(d);
    return d;
  }

  /** register() for several at once, in order. */
  protected registerAll(...ds: vscode.Disposable[]): void {
    for (const d of ds) this.register(d);
  }

  /** Whether dispose() ran. */
  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.held.splice(0).reverse()) d.dispose();
  }
}
