// The contract report's style: colours only through VS Code's theme variables (test/unit/extension/themeColours.test.ts
// checks it), text colours those VS Code's own lists use for text, which every default theme gives 4.5:1.
export const PROBE_STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 24px; }
header { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; padding: 8px 0; position: sticky; top: 0; background: var(--vscode-editor-background); }
button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: none; padding: 4px 10px; cursor: pointer; }
button:hover { background: var(--vscode-button-hoverBackground); }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--vscode-panel-border); }
th { font-weight: 600; }
tr.differs td.verdict { color: var(--vscode-list-errorForeground); font-weight: 600; }
tr.silent td.verdict { color: var(--vscode-descriptionForeground); }
tr.not-probed { color: var(--vscode-descriptionForeground); }
.summary { margin: 4px 0 12px; }
.note { color: var(--vscode-descriptionForeground); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;
