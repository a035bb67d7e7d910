// Where tokens live. The extension backs this with VS Code SecretStorage; the CLI with memory. Nothing else.

export interface Disposable {
  dispose(): void;
}

export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Fires when another writer (another window) changed a key. */
  onDidChange?(listener: (key: string) => void): Disposable;
}

export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();
  private readonly listeners = new Set<(key: string) => void>();

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    for (const l of this.listeners) l(key);
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
    for (const l of this.listeners) l(key);
  }

  onDidChange(listener: (key: string) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  keys(): string[] {
    return [...this.values.keys()];
  }
}
