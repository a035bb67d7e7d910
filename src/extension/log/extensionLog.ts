// The "Workflow Service" log: a LogOutputChannel whose every line passes through redaction first.
import * as vscode from 'vscode';
import { redact } from './redact';

export class ExtensionLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel('Workflow Service', { log: true });
  }

  debug(line: string): void {
    this.channel.debug(redact(line));
  }
  info(line: string): void {
    this.channel.info(redact(line));
  }
  warn(line: string): void {
    this.channel.warn(redact(line));
  }
  error(line: string): void {
    this.channel.error(redact(line));
  }
  show(): void {
    this.channel.show(true);
  }
  dispose(): void {
    this.channel.dispose();
  }
}
