// A signed delivery as a command for each shell a user pastes into: bash (curl), PowerShell (Invoke-RestMethod) and
// cmd.exe (curl.exe). Pure: the caller writes the files a command names (`files`) before handing it over. Each
// command sends exactly the delivery's bytes; where a shell cannot carry them inline, the body goes through a file.
// The token is never in the command: it is read from an environment variable the user sets.
import { shellQuote } from './shellQuote';

export interface ShellRequest {
  url: string;
  /** Headers to send besides Authorization (Content-Type among them); hop-by-hop ones are the caller's to drop. */
  headers: [string, string][];
  body: Buffer;
  /** The environment variable holding the token (default WFS_WEBHOOK_TOKEN). */
  tokenVariable?: string;
}

/** A file the command reads: written by the caller, at the path it chose through `filePath`. */
export interface ShellFile {
  path: string;
  bytes: Buffer;
  purpose: 'body' | 'config';
}

export interface ShellCommand {
  command: string;
  files: ShellFile[];
  /** Why the body is in a file rather than inline, when it is. */
  bodyInFile?: string;
}

/** Where the caller will write a file the command needs (e.g. in the temp folder). */
export type FilePath = (purpose: 'body' | 'config') => string;

const TOKEN = 'WFS_WEBHOOK_TOKEN';
/** Headers that belonged to the old connection or carry the token: never copied. */
const SKIPPED = new Set([
  'authorization',
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'accept-encoding',
]);

function copiedHeaders(req: ShellRequest): [string, string][] {
  return req.headers.filter(([k]) => !SKIPPED.has(k.toLowerCase()));
}

function isUtf8Text(b: Buffer): boolean {
  return !b.includes(0) && Buffer.from(b.toString('utf8'), 'utf8').equals(b);
}

/** Bodies up to this are a quoted argument of curl; larger ones are piped in (see bashCurlCommand). */
export const BASH_ARGUMENT_MAX = 64 * 1024;

/**
 * bash (and zsh, sh): a small UTF-8 body is curl's quoted argument. A larger one is printed by the shell's builtin
 * printf into curl's standard input: a builtin is not an exec, so the 128 KiB a single argument may have on Linux
 * does not apply. A body that is not UTF-8 text (or holds NUL, which no shell word can) is carried as base64 and
 * decoded on the way.
 */
export function bashCurlCommand(req: ShellRequest): ShellCommand {
  const token = req.tokenVariable ?? TOKEN;
  const parts = [`curl -sS -X POST ${shellQuote(req.url)}`];
  for (const [k, v] of copiedHeaders(req)) parts.push(`-H ${shellQuote(`${k}: ${v}`)}`);
  parts.push(`-H "Authorization: Bearer $${token}"`);
  const text = isUtf8Text(req.body);
  if (text && req.body.length <= BASH_ARGUMENT_MAX)
    return { command: [...parts, `--data-binary ${shellQuote(req.body.toString('utf8'))}`].join(' \\\n  '), files: [] };
  const source = text
    ? `printf %s ${shellQuote(req.body.toString('utf8'))}`
    : `printf %s ${shellQuote(req.body.toString('base64'))} | base64 -d`;
  return { command: `${source} | ${[...parts, '--data-binary @-'].join(' \\\n  ')}`, files: [] };
}

/** Bodies above this go through a file for PowerShell: a pasted command of megabytes is slow to echo. */
export const POWERSHELL_INLINE_MAX = 256 * 1024;

/** PowerShell treats the typographic single quotes as quotes too: each is doubled inside a single-quoted string. */
const PS_QUOTES = /['\u2018\u2019\u201a\u201b]/g;

export function powerShellQuote(s: string): string {
  return `'${s.replace(PS_QUOTES, (q) => q + q)}'`;
}

/** Why the body cannot be a single-quoted here-string, or undefined when it can. */
export function hereStringProblem(body: Buffer): string | undefined {
  if (!isUtf8Text(body)) return 'the body is not UTF-8 text';
  if (body.length > POWERSHELL_INLINE_MAX) return `the body is larger than ${POWERSHELL_INLINE_MAX / 1024} KiB`;
  const text = body.toString('utf8');
  // A pasted here-string's line ends are the console's: CR cannot be told apart, so it is refused here.
  if (text.includes('\r')) return 'the body holds a carriage return';
  if (/(^|\n)[ \t]*['\u2018\u2019\u201a\u201b]@/.test(text)) return "a line of the body starts with '@";
  return undefined;
}

/**
 * PowerShell (5.1 and 7): Invoke-RestMethod with the body as bytes, so no encoding is applied to it. UTF-8 text comes
 * from a single-quoted here-string (nothing in it is expanded; its line ends are made LF, the only ones such a body
 * holds); anything else from a file (`-InFile`), whose bytes are sent as they are.
 */
export function powerShellCommand(req: ShellRequest, filePath: FilePath): ShellCommand {
  const token = req.tokenVariable ?? TOKEN;
  const headers = copiedHeaders(req);
  const contentType = headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? 'application/json';
  const entries = headers
    .filter(([k]) => k.toLowerCase() !== 'content-type')
    .map(([k, v]) => `  ${powerShellQuote(k)} = ${powerShellQuote(v)}`);
  entries.push(`  'Authorization' = "Bearer $env:${token}"`);
  const lines = [`$headers = @{\n${entries.join('\n')}\n}`];
  const problem = hereStringProblem(req.body);
  const files: ShellFile[] = [];
  let body: string;
  if (problem === undefined) {
    lines.push(`$body = @'\n${req.body.toString('utf8')}\n'@ -replace "\`r\`n", "\`n"`);
    body = '-Body ([System.Text.Encoding]::UTF8.GetBytes($body))';
  } else {
    const path = filePath('body');
    files.push({ path, bytes: req.body, purpose: 'body' });
    body = `-InFile ${powerShellQuote(path)}`;
  }
  lines.push(
    `Invoke-RestMethod -Method Post -Uri ${powerShellQuote(req.url)} -Headers $headers -ContentType ${powerShellQuote(contentType)} ${body}`,
  );
  return { command: lines.join('\n'), files, ...(problem ? { bodyInFile: problem } : {}) };
}

/** Printable ASCII that means nothing to cmd.exe inside double quotes, with or without delayed expansion. */
const CMD_SAFE = /^[\x20-\x7e]*$/;
const CMD_SPECIAL = /["%!^]/;

function cmdSafe(s: string): boolean {
  return CMD_SAFE.test(s) && !CMD_SPECIAL.test(s);
}

/** A curl config file's quoted value (curl's own escapes). */
function curlConfigQuote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n')}"`;
}

/**
 * cmd.exe: curl.exe (shipped with Windows 10 and later), on one line. A command line cannot hold a newline, expands
 * `%` (and `!` under delayed expansion), and is at most 8191 characters, so the body is always read from a file
 * (`--data-binary @FILE`); a URL or header with a character cmd.exe would change goes into a curl config file
 * (`-K FILE`), in UTF-8 and curl's own quoting.
 */
export function cmdCurlCommand(req: ShellRequest, filePath: FilePath): ShellCommand {
  const token = req.tokenVariable ?? TOKEN;
  const config: string[] = [];
  const parts = ['curl.exe -sS -X POST'];
  if (cmdSafe(req.url)) parts.push(`"${req.url}"`);
  else config.push(`url = ${curlConfigQuote(req.url)}`);
  for (const [k, v] of copiedHeaders(req)) {
    const line = `${k}: ${v}`;
    if (cmdSafe(line)) parts.push(`-H "${line}"`);
    else config.push(`header = ${curlConfigQuote(line)}`);
  }
  parts.push(`-H "Authorization: Bearer %${token}%"`);
  const files: ShellFile[] = [];
  if (config.length) {
    const path = filePath('config');
    files.push({ path, bytes: Buffer.from(config.join('\n') + '\n', 'utf8'), purpose: 'config' });
    parts.push(`-K "${path}"`);
  }
  const bodyPath = filePath('body');
  files.push({ path: bodyPath, bytes: req.body, purpose: 'body' });
  parts.push(`--data-binary "@${bodyPath}"`);
  return { command: parts.join(' '), files, bodyInFile: 'cmd.exe cannot carry a body on its command line' };
}
