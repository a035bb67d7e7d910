// Text for people, from core: outside text made safe for a terminal, shell words and commands, "did you mean".
export { controlsEscaped, terminalSafe, terminalSafeDeep } from './terminalSafe';
export { editDistance } from './editDistance';
export { shellWord, wfsCommandLine } from './shellWord';
export {
  bashCurlAsGiven,
  bashCurlCommand,
  cmdCurlCommand,
  powerShellCommand,
  ShellCommandError,
  type ShellRequest,
} from './shellCommands';
// Core's words for people, worded by each face (said.ts); inside core, modules import said.ts itself.
export { errorWorded, isSaid, withoutSaids, worded, type Said, type Wording } from './said';
