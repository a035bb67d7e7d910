// A signed delivery as a curl command for each shell a user pastes into: bash, PowerShell and cmd.exe. Whatever bytes
// the delivery holds, curl receives exactly the intended arguments and body (curlRequest.ts checks what it can carry):
// - every body reaches curl through standard input or a file (`--data-binary @-` / `@FILE`), never as an argument,
//   where curl would read `@path` as "send this file" and `<path` likewise; `--globoff` keeps `[]{}` in the URL as
//   they are, and `--url` keeps the URL from being read as an option;
// - the bash command's text is printable ASCII (and the line breaks of a body), so pasting it into a terminal cannot
//   send a control character, and no byte of it depends on the terminal's encoding;
// - on Windows nothing from the request is on any command line: only the folder the caller chose (cmdCurlCommand).
// Pure: the caller writes the files a command names (`files`) before handing it over. The token is read from an
// environment variable the user sets, unless the caller gives the token itself.
import { join } from 'node:path';
import { curlRequest, firstRefused, ShellCommandError, type CurlRequest, type ShellRequest } from './curlRequest';
import { bashWord, shellQuote } from './shellQuote';

export { ShellCommandError, type ShellRequest } from './curlRequest';

/** A file the command reads: written by the caller before the command is handed over. */
interface ShellFile {
  path: string;
  bytes: Buffer;
  purpose: 'body' | 'config';
}

export interface ShellCommand {
  command: string;
  files: ShellFile[];
  /** Why the body is in a file rather than in the command, when it is. */
  bodyInFile?: string;
}

/** The names of the two files the Windows commands read, in the folder the caller gives. */
export const CONFIG_FILE = 'request.curlrc';
export const BODY_FILE = 'request.body';

/** Printable ASCII and line feeds: a body that stays readable in the bash command. Anything else is base64. */
const PASTEABLE = /^[\x20-\x7e\n]*$/;

/**
 * bash (and zsh): the builtin printf writes the body into curl's standard input. A builtin is not an exec, so the
 * 128 KiB a single argument may have on Linux does not apply. A body that is not printable ASCII text (or holds NUL,
 * which no shell word can) is carried as base64 and decoded on the way. A body from the user's own file is
 * redirected into curl's standard input by the shell.
 */
export function bashCurlCommand(req: ShellRequest): ShellCommand {
  const r = curlRequest(req);
  const args = [
    'curl -sS --globoff -X POST',
    `--url ${shellQuote(r.url)}`,
    ...r.headerLines.map((line) => `-H ${bashWord(Buffer.from(line, 'latin1'))}`),
    'variable' in r.token
      ? `-H "Authorization: Bearer $${r.token.variable}"`
      : `-H ${shellQuote(`Authorization: Bearer ${r.token.value}`)}`,
  ];
  const curl = (data: string) => [...args, data].join(' \\\n  ');
  if (!Buffer.isBuffer(r.body)) {
    const path = Buffer.from(r.body.path, 'utf8');
    if (path.includes(0)) throw new ShellCommandError('A file name cannot hold NUL.');
    return { command: curl(`--data-binary @- < ${bashWord(path)}`), files: [] };
  }
  const text = r.body.toString('latin1');
  const source = PASTEABLE.test(text)
    ? `printf %s ${shellQuote(text)}`
    : `printf %s ${shellQuote(r.body.toString('base64'))} | base64 -d`;
  return { command: `${source} | ${curl('--data-binary @-')}`, files: [] };
}

/**
 * bash (and zsh): a request exactly as given, every header (Authorization among them) as one `-H` word, and the body
 * by the builtin printf into curl's standard input, never as an argument (where curl would read `@path` as a file).
 * For a request made here to be replayed as it was (the audit's cases): `-i` shows the answer's status and headers.
 */
export function bashCurlAsGiven(req: { url: string; headers: [string, string][]; body: Buffer }): string {
  if (!HTTP_URL_PRINTABLE.test(req.url))
    throw new ShellCommandError(`The address ${JSON.stringify(req.url)} is not a printable http(s) URL.`);
  const args = [
    'curl -sS -i --globoff -X POST',
    `--url ${shellQuote(req.url)}`,
    ...req.headers.map(([k, v]) => `-H ${bashWord(Buffer.from(`${k}: ${v}`, 'latin1'))}`),
    '--data-binary @-',
  ];
  const text = req.body.toString('latin1');
  const source = PASTEABLE.test(text)
    ? `printf %s ${shellQuote(text)}`
    : `printf %s ${shellQuote(req.body.toString('base64'))} | base64 -d`;
  return `${source} | ${args.join(' \\\n  ')}`;
}

const HTTP_URL_PRINTABLE = /^https?:\/\/[\x21-\x7e]+$/i;

/** One value in a curl config file: curl's quoting, whose escapes are \\ \" \t \n \r \v. Header values hold no CR,
 * LF or other control byte but tab (curlRequest refuses them), and the URL is printable ASCII. */
function curlConfigQuote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t')}"`;
}

/** The request as a curl config file (`-K`): the URL, the headers, and the body from the file beside it. Bytes are
 * written as they are (one character per byte), which is how curl reads the file. */
function configFile(r: CurlRequest): Buffer {
  const lines = [
    "# This request for curl.exe -K was written by Workflow Service Toolkit: each value in curl's config quoting.",
    `url = ${curlConfigQuote(r.url)}`,
    ...r.headerLines.map((line) => `header = ${curlConfigQuote(line)}`),
    `data-binary = "@${BODY_FILE}"`,
  ];
  return Buffer.from(lines.join('\n') + '\n', 'latin1');
}

function windowsFiles(r: CurlRequest, dir: string): ShellFile[] {
  if (!Buffer.isBuffer(r.body)) throw new ShellCommandError('The Windows commands send a body they wrote themselves.');
  return [
    { path: join(dir, CONFIG_FILE), bytes: configFile(r), purpose: 'config' },
    { path: join(dir, BODY_FILE), bytes: r.body, purpose: 'body' },
  ];
}

const WINDOWS_REASON = "the request is read from files, so nothing from it is on curl.exe's command line";

/** Outside these, cmd.exe changes a folder name even inside double quotes (%, and ! and ^ with delayed expansion) or
 * cannot hold it on a line. */
const CMD_FOLDER = /^[^"%!^\x00-\x1f\x7f]+$/;

/**
 * cmd.exe: one line to paste, after the caller has written the two files into `dir`. curl.exe's arguments are split
 * by the C runtime's rules, not cmd's, and a program built for the ANSI code page turns some Unicode characters into
 * ASCII quotes ("best fit"): no quoting of request data can be right for both, so none is on the line. The URL and
 * headers are in a curl config file (curl's own escaping), the body in a file it names, and the line holds only fixed
 * ASCII words, the token variable, and the folder, which `pushd` (cmd's own, no program) enters first. If the folder
 * cannot be entered, `&&` runs nothing.
 */
export function cmdCurlCommand(req: ShellRequest, dir: string): ShellCommand {
  const r = curlRequest(req);
  if (!CMD_FOLDER.test(dir))
    throw new ShellCommandError(
      `The folder ${dir} holds ${firstRefused(dir, /[^"%!^\x00-\x1f\x7f]/)}, which cmd.exe would change. Set TEMP to a folder without it, or use Copy as PowerShell.`,
    );
  // A b64token holds nothing cmd.exe reads inside quotes; the variable is the user's own.
  const auth = 'variable' in r.token ? `%${r.token.variable}%` : r.token.value;
  return {
    command: `pushd "${dir}" && (curl.exe -sS --globoff -X POST -K ${CONFIG_FILE} -H "Authorization: Bearer ${auth}" & popd)`,
    files: windowsFiles(r, dir),
    bodyInFile: WINDOWS_REASON,
  };
}

/** PowerShell treats the typographic single quotes as quotes too: each is doubled inside a single-quoted string. */
const PS_QUOTES = /['\u2018\u2019\u201a\u201b]/g;

export function powerShellQuote(s: string): string {
  return `'${s.replace(PS_QUOTES, (q) => q + q)}'`;
}

/**
 * PowerShell 5.1 and 7: the same curl.exe and files as cmd.exe. PowerShell builds curl.exe's command line itself,
 * and 5.1 (Legacy) and 7.3+ (Standard) build it differently for an argument holding `"` or an empty one: every
 * argument here is fixed ASCII, without `"`, never empty, and only the Authorization one holds a space, which both
 * quote alike. `curl.exe`, not `curl`: in 5.1 `curl` is Invoke-WebRequest. The folder is a single-quoted literal; if
 * it cannot be entered, `-ErrorAction Stop` ends the line before curl.exe runs.
 */
export function powerShellCommand(req: ShellRequest, dir: string): ShellCommand {
  const r = curlRequest(req);
  if (/[\x00-\x1f\x7f-\x9f\u2028\u2029]/.test(dir))
    throw new ShellCommandError(
      `The folder ${JSON.stringify(dir)} holds a control character. Set TEMP to a folder without one.`,
    );
  const auth =
    'variable' in r.token
      ? `"Authorization: Bearer $env:${r.token.variable}"`
      : powerShellQuote(`Authorization: Bearer ${r.token.value}`);
  return {
    command:
      `Push-Location -LiteralPath ${powerShellQuote(dir)} -ErrorAction Stop; ` +
      `try { curl.exe -sS --globoff -X POST -K '${CONFIG_FILE}' -H ${auth} } finally { Pop-Location }`,
    files: windowsFiles(r, dir),
    bodyInFile: WINDOWS_REASON,
  };
}
