// The "Workflow Service" log: a LogOutputChannel whose every line passes through redaction first, then is made
// terminal-safe: a line may carry a delivery's topic, an app's answer or a service's error, and neither a control nor
// a bidi control of theirs may reorder or hide what the log shows.
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { logLine as clean } from './logLine';

export class ExtensionLog extends Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    super();
    this.channel = this.register(vscode.window.createOutputChannel('Workflow Service', { log: true }));
  }

  debug(line: string): void {
    this.channel.debug(clean(line));
  }
  info(line: string): void {
    this.channel.info(clean(line));
  }
  warn(line: string): void {
    this.channel.warn(clean(line));
  }
  error(line: string): void {
    this.channel.error(clean(line));
  }
  show(): void {
    this.channel.show(true);
  }
}
