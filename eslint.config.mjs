// Lint rules that keep the architecture (docs/design.md): the core and the CLI never reach VS Code, no import
// cycles, no promise left floating in the product. Formatting is Prettier's job (`npm run format`).
import tseslint from 'typescript-eslint';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

const noVscode = {
  paths: [
    {
      name: 'vscode',
      message: 'src/core, src/cli and src/mcp run without VS Code: pass what you need in from src/extension.',
    },
  ],
};

// Each core folder's index.ts is its front door: the faces (CLI, extension, MCP server, test kit) name only
// `core` or `core/<folder>`, so what they may use shows in one file per folder and in review.
const coreFrontDoors = [
  {
    group: ['**/core/*/*'],
    message: "Import core through its folder's front door (src/core/<folder>/index.ts); add the name there if needed.",
  },
];

// The MCP SDK (and zod, its schema library, which nothing else uses) is the MCP face's (src/mcp): the CLI loads that
// face only for `wfs mcp`, so every other command starts without it (docs/design.md).
const mcpSdkInTheMcpFace = [
  {
    group: ['@modelcontextprotocol/**', 'zod', 'zod/**'],
    message: 'Only the MCP face (src/mcp) imports the MCP SDK and zod: put the transport there, the tool in core.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'media/**', 'test/vscode/peer/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json', '.d.ts'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': 'off',
      // Prettier holds code to 120 columns; this holds comments there too (it cannot break strings, nor should it).
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    // A function reads at one level: a command is flags, a core call, a render; a longer one is split into named
    // steps. Tests are exempt: a test reads as one story (#75).
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { ...noVscode, patterns: mcpSdkInTheMcpFace }] },
  },
  {
    files: ['src/cli/**/*.ts', 'src/testkit/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { ...noVscode, patterns: [...coreFrontDoors, ...mcpSdkInTheMcpFace] }],
    },
  },
  {
    files: ['src/mcp/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { ...noVscode, patterns: coreFrontDoors }] },
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...coreFrontDoors, ...mcpSdkInTheMcpFace] }] },
  },
  {
    // One core, thin faces: a face configures a ReceiverSession; only core builds its parts.
    files: ['src/cli/**/*.ts', 'src/extension/**/*.ts', 'src/mcp/**/*.ts', 'src/testkit/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'NewExpression[callee.name=/^(Receiver|Verifier|DeliveryHistory|Tunnel)$/]',
          message: "A face configures a ReceiverSession (src/core/receiver); only core builds a receiver's parts.",
        },
      ],
    },
  },
  {
    // The receiver's path and the clocks keep no state in their modules, shared by every receiver in a process (#68):
    // module-level values are constants; what changes lives in an object (a Receiver, a history, a clock).
    files: ['src/core/webhooks/**/*.ts', 'src/core/time/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: ":matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration[kind!='const']",
          message: 'No module-level variable here: keep what changes in the object that owns it.',
        },
        {
          selector:
            ':matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator > :matches(ObjectExpression, ArrayExpression).init',
          message: 'A module-level object or array can be filled by any caller: freeze it (Object.freeze, as const).',
        },
        {
          selector:
            ':matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator:not([id.typeAnnotation.typeAnnotation.typeName.name=/^Readonly/]) > NewExpression.init[callee.name=/^(Map|WeakMap|Set|WeakSet)$/]',
          message:
            'A module-level map or set is a cache shared by every receiver: keep it in its object, or type it Readonly.',
        },
      ],
    },
  },
  {
    // Tests may leave a promise to an assertion helper that rejects into mocha; the product may not.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
);
