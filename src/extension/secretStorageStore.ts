// The core's SecretStore backed by VS Code SecretStorage: the only place tokens (and an opted-in password) live.
import type * as vscode from 'vscode';
import type { Disposable, SecretStore } from '../core/auth';

export class SecretStorageStore implements SecretStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(key: string): Promise<string | undefined> {
    return this.secrets.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    await this.secrets.store(key, value);
  }

  async delete(key: string): Promise<void> {
    await this.secrets.delete(key);
  }

  /** Other windows writing the same secrets fire this too. */
  onDidChange(listener: (key: string) => void): Disposable {
    return this.secrets.onDidChange((e) => listener(e.key));
  }
}
