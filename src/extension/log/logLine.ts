// One line of the "Workflow Service" log as the channel gets it: secrets masked first, then every control, C1, bidi
// control and line/paragraph separator of a stranger's (a delivery's topic, an app's answer, a service's error)
// written as a visible escape. Apart from extensionLog.ts, which needs vscode, so a plain unit test can check it.
import { terminalSafe } from '../../core/presentation';
import { redact } from './redact';

/** `line` as the log shows it: redacted, then terminal-safe. */
export function logLine(line: string): string {
  return terminalSafe(redact(line));
}
